"""A string a Java regular expression matches, for arguments that pass `s.matches(RE)` checks (pure).

The common subset of Java's syntax: literals and escapes, character classes (ranges, negation, `\\d`,
`\\w`, `\\s`, POSIX `\\p{..}`), `.`, groups, alternation (the first branch is taken), quantifiers (the
fewest repetitions, one for `+`) and anchors. What it cannot read (back-references, class
intersections) gives no example; where Python's `re` reads the pattern too, the example is checked.
"""

from __future__ import annotations

import re
import string

_POOL = string.ascii_lowercase + string.ascii_uppercase + string.digits + "-_. "
_DIGITS = (("1", "9"), ("0", "0"))
_WORD = (("a", "z"), ("A", "Z"), ("0", "9"), ("_", "_"))
_SPACE = ((" ", " "), ("\t", "\t"))
_CLASSES: dict[str, tuple[tuple[str, str], ...]] = {"d": _DIGITS, "w": _WORD, "s": _SPACE}
_POSIX: dict[str, tuple[tuple[str, str], ...]] = {
    "Lower": (("a", "z"),), "Upper": (("A", "Z"),), "Lu": (("A", "Z"),), "Ll": (("a", "z"),),
    "Alpha": (("a", "z"), ("A", "Z")), "L": (("a", "z"), ("A", "Z")), "IsAlphabetic": (("a", "z"), ("A", "Z")),
    "javaLetter": (("a", "z"), ("A", "Z")), "IsLatin": (("a", "z"), ("A", "Z")),
    "Digit": _DIGITS, "N": _DIGITS, "Nd": _DIGITS, "IsDigit": _DIGITS,
    "Alnum": (("a", "z"), ("A", "Z"), ("0", "9")), "XDigit": (("0", "9"), ("a", "f"), ("A", "F")),
    "Punct": ((".", "."), (",", ","), ("-", "-"), ("!", "!")), "Space": _SPACE, "Blank": _SPACE,
    "ASCII": ((" ", "~"),), "Graph": (("!", "~"),), "Print": ((" ", "~"),),
}
_SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "a": "\a", "e": "\x1b"}
_ANCHORS = frozenset("bBAzZG")


class _Unsupported(Exception):
    """A construct the generator does not read."""


class _CharSet:
    """Characters as ranges, possibly negated; `take(n)` picks n members, different ones where it can."""

    def __init__(self, ranges: tuple[tuple[str, str], ...], negated: bool = False) -> None:
        self.ranges, self.negated = ranges, negated

    def __contains__(self, char: str) -> bool:
        inside = any(lo <= char <= hi for lo, hi in self.ranges)
        return inside != self.negated

    def take(self, count: int) -> str:
        members = [c for c in _POOL if c in self] if self.negated else [
            chr(code) for lo, hi in self.ranges for code in range(ord(lo), min(ord(hi), ord(lo) + 25) + 1)]
        if not members:
            raise _Unsupported("an empty character class")
        return "".join(members[i % len(members)] for i in range(count))


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.text, self.at = pattern, 0

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def next(self) -> str:
        char = self.peek()
        if not char:
            raise _Unsupported("the pattern ends early")
        self.at += 1
        return char

    def alternation(self) -> str:
        first = self.sequence()
        while self.peek() == "|":
            self.at += 1
            self.sequence()  # parsed to move past it; the first branch is the example
        return first

    def sequence(self) -> str:
        out: list[str] = []
        while self.peek() not in ("", "|", ")"):
            atom = self.atom()
            low = self.quantifier()[0]
            out.append(atom.take(low) if isinstance(atom, _CharSet) else atom * low)
        return "".join(out)

    def quantifier(self) -> tuple[int, int | None]:
        char = self.peek()
        bounds: tuple[int, int | None] = (1, 1)
        if char in ("?", "*"):
            self.at += 1
            bounds = (0, None if char == "*" else 1)
        elif char == "+":
            self.at += 1
            bounds = (1, None)
        elif char == "{" and re.match(r"\{\d+(,\d*)?\}", self.text[self.at:]):
            end = self.text.index("}", self.at)
            low, comma, high = self.text[self.at + 1:end].partition(",")
            self.at = end + 1
            bounds = (int(low), int(high) if high else (None if comma else int(low)))
        else:
            return bounds
        if self.peek() in ("?", "+"):
            self.at += 1  # lazy or possessive: the same strings match
        return bounds

    def atom(self) -> str | _CharSet:
        char = self.next()
        if char == "(":
            return self.group()
        if char == "[":
            return self.char_class()
        if char == ".":
            return _CharSet((("a", "z"),))
        if char in ("^", "$"):
            return ""
        if char == "\\":
            return self.escape(in_class=False)
        return char

    def group(self) -> str:
        if self.peek() == "?":
            self.at += 1
            kind = self.next()
            if kind in ("=", "!") or (kind == "<" and self.peek() in ("=", "!")):
                raise _Unsupported("lookaround")
            if kind == "<":
                self.at = self.text.index(">", self.at) + 1
            elif kind != ":":
                while self.peek() not in (":", ")"):
                    self.next()  # inline flags such as (?i) or (?i:...)
                if self.next() == ")":
                    return ""
        inner = self.alternation()
        if self.next() != ")":
            raise _Unsupported("an unclosed group")
        return inner

    def char_class(self) -> _CharSet:
        negated = self.peek() == "^"
        self.at += negated
        ranges: list[tuple[str, str]] = []
        first = True
        while first or self.peek() != "]":
            first = False
            if self.text.startswith("&&", self.at) or self.peek() == "[":
                raise _Unsupported("class intersection or union")
            char = self.next()
            if char == "\\":
                escaped = self.escape(in_class=True)
                if isinstance(escaped, _CharSet):
                    if escaped.negated:
                        raise _Unsupported("a negated class inside a class")
                    ranges += escaped.ranges
                    continue
                char = escaped
            if self.peek() == "-" and self.text[self.at + 1:self.at + 2] not in ("]", ""):
                self.at += 1
                high: str | _CharSet = self.next()
                if high == "\\":
                    high = self.escape(in_class=True)
                if isinstance(high, _CharSet):
                    raise _Unsupported("a class as a range bound")
                ranges.append((char, high))
            else:
                ranges.append((char, char))
        self.at += 1
        return _CharSet(tuple(ranges), negated)

    def escape(self, *, in_class: bool) -> str | _CharSet:
        char = self.next()
        if char.lower() in _CLASSES:
            return _CharSet(_CLASSES[char.lower()], negated=char.isupper())
        if char in ("p", "P"):
            name = re.match(r"\{(?:Is)?(\w+)\}|(\w)", self.text[self.at:])
            if name is None:
                raise _Unsupported("a malformed \\p class")
            self.at += name.end()
            key = name.group(1) or name.group(2)
            ranges = _POSIX.get(key) or _POSIX.get(f"Is{key}")
            if ranges is None:
                raise _Unsupported(f"\\p{{{key}}}")
            return _CharSet(ranges, negated=char == "P")
        if char in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[char]
        if char in ("x", "u"):
            digits = 2 if char == "x" else 4
            code = self.text[self.at:self.at + digits]
            self.at += digits
            return chr(int(code, 16))
        if char == "Q":
            end = self.text.find("\\E", self.at)
            end = len(self.text) if end < 0 else end
            quoted, self.at = self.text[self.at:end], end + 2
            return quoted
        if char.isdigit() or char == "k":
            raise _Unsupported("a back-reference")
        if char in _ANCHORS and not in_class:
            return ""
        return char


def regex_example(pattern: str) -> str | None:
    """A string the whole Java pattern matches (`String.matches`), or None when none can be made."""
    parser = _Parser(pattern)
    try:
        example = parser.alternation()
        if parser.at != len(pattern):
            return None  # an unbalanced `)`
    except (_Unsupported, ValueError):
        return None
    return example if regex_matches(pattern, example) is not False else None


def regex_matches(pattern: str, text: str) -> bool | None:
    """Whether the whole pattern matches `text`, as far as Python's `re` reads Java's syntax; None when it cannot."""
    try:
        return re.fullmatch(pattern, text) is not None
    except (re.error, OverflowError):
        return None

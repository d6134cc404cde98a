"""A text input holding the characters a method compares its text's characters with, in the order it compares them
(pure).

`translate("text", 0, writer)` never meets an entity: NumericEntityUnescaper looks for `&`, then `#`, then an `x`
or `X`, hex digits and a `;`, and every branch past the first comparison went untested (issue 29). A parser, an
escaper or a lexer tells what it looks for in its comparisons (`input.charAt(i) == '&'`, `c == 'x' || c == 'X'`,
`case '{'`), as a fuzzer's comparison log does: those characters, in the order the code compares them, with digits
where it reads digits (`isDigit`, `isHex`, `parseInt`), make the input it parses (`&#x65;`). The same text without
each character after the first is the input that stops at that check (`&#x65`: no semicolon).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from junitbot.analysis import MethodInfo
from junitbot.generation.literals import java_string
from junitbot.generation.template.jdk_values import TEXT_TYPES
from junitbot.generation.template.naming import camel, value_title
from junitbot.generation.template.neighbours import with_argument

# Calls that read digits: the text gets digits where the code reads them.
_DIGIT_READERS = frozenset({"isDigit", "isHex", "isHexDigit", "isAsciiNumeric", "digit", "parseInt", "parseLong",
                            "isLetterOrDigit", "isNumeric", "isCreatable"})
_DIGITS = "65"  # an `e` as hex, an `A` as decimal: a code point either way
_MAX_CHARACTERS = 12  # a switch over every character an escaper knows is no one input's grammar
_MAX_OMITTED = 3  # texts without one character: past these, the method's other variants come first
_CHARACTER_NAMES = {
    "&": "Ampersand", "#": "Hash", ";": "Semicolon", ":": "Colon", ",": "Comma", ".": "Dot", "$": "Dollar",
    "{": "OpeningBrace", "}": "ClosingBrace", "(": "OpeningParenthesis", ")": "ClosingParenthesis",
    "[": "OpeningBracket", "]": "ClosingBracket", "<": "LessThan", ">": "GreaterThan", "'": "Quote",
    '"': "DoubleQuote", "\\": "Backslash", "/": "Slash", "%": "Percent", "=": "EqualsSign", "-": "Minus",
    "+": "Plus", "*": "Asterisk", "@": "At", "!": "ExclamationMark", "?": "QuestionMark", " ": "Space",
    "\t": "Tab", "\n": "NewLine", "\r": "CarriageReturn", "_": "Underscore", "|": "Bar", "~": "Tilde",
}


@dataclass(frozen=True)
class _Part:
    """One step of what the method looks for: a character (the first of its alternatives) or digits."""

    line: int
    text: str


def compared_characters(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """(hint, arguments): the method's first text parameter whose characters it compares with character literals
    given those characters in order (`whenInputIsX65`); none where the method compares no character of a text
    parameter."""
    found = _looked_for(method, base)
    if found is None:
        return []
    index, name, parts, lead = found
    looked_for = "".join(p.text for p in parts)
    return [(f"when{camel(name)}Is{value_title(java_string(looked_for))}",
             with_argument(base, index, java_string(lead + looked_for)))]


def missing_characters(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """(hint, arguments): `compared_characters`' text without one of its characters after the first, the last
    first (`whenInputLacksSemicolon`: a terminator is what is most often optional), at most `_MAX_OMITTED`."""
    found = _looked_for(method, base)
    if found is None:
        return []
    index, name, parts, lead = found
    variants = []
    for omitted in reversed(range(1, len(parts))):
        if parts[omitted].text == _DIGITS:
            continue  # no digits is what a lone `&#;` tries
        shorter = lead + "".join(p.text for i, p in enumerate(parts) if i != omitted)
        character = _CHARACTER_NAMES.get(parts[omitted].text, value_title(java_string(parts[omitted].text)))
        variants.append((f"when{camel(name)}Lacks{character}", with_argument(base, index, java_string(shorter))))
    return variants[:_MAX_OMITTED]


def _looked_for(method: MethodInfo, base: list[str]) -> tuple[int, str, list[_Part], str] | None:
    """The first text parameter the method reads character by character: its place, its name, what the method
    looks for in it, and what stands before that (where the call says to start reading at `index`, what it looks
    for starts there: `translate(input, 1, writer)` reads `z&#x65;`)."""
    for index, param in enumerate(method.parameters):
        if param.type.text not in TEXT_TYPES or " = " not in base[index]:
            continue
        parts = _parts(method, param.name)
        if parts:
            return index, param.name, parts, _filler(parts) * _start(method, base)
    return None


def _parts(method: MethodInfo, text: str) -> list[_Part]:
    """The characters compared with `text`'s own (`text.charAt(..) == 'c'`) or with a local character read from it,
    one per subject and line (`c == 'x' || c == 'X'` is one step, its first alternative), and digits at the first
    call that reads them; by line. Nothing unless `text` itself is read character by character."""
    reads_text = False
    parts: dict[tuple[str, int], _Part] = {}
    for compared in method.compared_literals:
        if compared.operator not in ("==", "!=", "case") or not _is_char_literal(compared.literal):
            continue
        subject = compared.subject.replace(" ", "")
        if subject.startswith(f"{text}.charAt("):
            reads_text = True
        elif not subject.isidentifier() or subject in {p.name for p in method.parameters}:
            continue  # a field's or another parameter's character
        key = (subject, compared.line)
        if key not in parts:
            parts[key] = _Part(compared.line, _char(compared.literal))
    if not reads_text:
        return []
    chosen = sorted(parts.values(), key=lambda p: p.line)
    readers = [c.line for c in method.calls if c.method in _DIGIT_READERS]
    if readers and chosen:
        chosen.append(_Part(min(readers), _DIGITS))
        chosen.sort(key=lambda p: p.line)  # stable: a character compared on the reader's line comes first
    distinct: list[_Part] = []
    for part in chosen:
        if part.text not in {p.text for p in distinct}:
            distinct.append(part)
    return distinct[:_MAX_CHARACTERS]


_START = re.compile(r"(?i)index|pos|position|offset|start|from|begin")
_MAX_START = 8


def _start(method: MethodInfo, base: list[str]) -> int:
    """The small literal the call passes for where to start reading (an int parameter named so), else 0."""
    for index, param in enumerate(method.parameters):
        if param.type.text == "int" and _START.fullmatch(param.name) and " = " in base[index]:
            value = base[index].split(" = ", 1)[1].rstrip(";").strip()
            if value.isdigit() and int(value) <= _MAX_START:
                return int(value)
    return 0


def _filler(parts: list[_Part]) -> str:
    """A letter the method does not look for, to stand before what it does."""
    return next(c for c in "zqjw" + "_" if c not in {p.text for p in parts})


def _is_char_literal(literal: str) -> bool:
    return len(literal) >= 3 and literal[0] == literal[-1] == "'"


_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\r": "\r", "\\'": "'", '\\"': '"', "\\\\": "\\", "\\0": "\0"}


def _char(literal: str) -> str:
    """The character a Java character literal writes: `'a'`, `'\\n'`, `'\\u0041'`."""
    inner = literal[1:-1]
    if inner.startswith("\\u"):
        return chr(int(inner.lstrip("\\u"), 16))
    return _ESCAPES.get(inner, inner[:1])


"""The exceptions a method catches and the lines of each `try`, read from its source text (pure).

A compensation path runs when a collaborator throws what the code catches: `catch (PaymentDeclinedException e)`
around `payments.charge(..)`. The try and catch blocks are found by matching braces in the text with its
comments and literals blanked out; a collaborator says it throws an exception by a `throws` clause or by its
Javadoc (`@throws PaymentDeclinedException if ...`), which an unchecked exception's only record often is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from junitbot.analysis.brackets import closing_bracket

_TRY = re.compile(r"\btry\b")
_CATCH = re.compile(r"\s*catch\s*\(\s*(?:final\s+)?([\w.\s|]+?)\s+\w+\s*\)\s*\{")
_DOC_THROWS = re.compile(r"@(?:throws|exception)\s+([\w.]+)")


@dataclass(frozen=True)
class Handler:
    """One `catch` of a `try`: the exception types it names (as written), and the lines of both blocks."""

    caught: tuple[str, ...]
    try_lines: tuple[int, int]
    catch_lines: tuple[int, int]

    def guards(self, line: int) -> bool:
        """Whether a statement on `line` runs inside the try block this handler catches for."""
        return self.try_lines[0] <= line <= self.try_lines[1]

    def handles(self, line: int) -> bool:
        """Whether `line` is in the handler's own block."""
        return self.catch_lines[0] <= line <= self.catch_lines[1]


def handlers(source: str) -> list[Handler]:
    """Every catch block in `source` (a whole file or one member; lines are 1-based in `source`)."""
    text = blank_literals_and_comments(source)
    found: list[Handler] = []
    for match in _TRY.finditer(text):
        start = text.find("{", match.end())
        if start < 0:
            continue
        if "(" in text[match.end():start]:  # try-with-resources: the block opens after the resources
            start = text.find("{", closing_bracket(text, text.find("(", match.end()), "(", ")") + 1)
        end = closing_bracket(text, start, "{", "}")
        if start < 0 or end < 0:
            continue
        try_lines = (_line(text, start), _line(text, end))
        position = end + 1
        while (catch := _CATCH.match(text, position)) is not None:
            close = closing_bracket(text, catch.end() - 1, "{", "}")
            if close < 0:
                break
            types = tuple(t.strip() for t in catch[1].split("|") if t.strip())
            found.append(Handler(types, try_lines, (_line(text, catch.end() - 1), _line(text, close))))
            position = close + 1
    return found


def documented_throws(source: str, start_byte: int) -> set[str]:
    """Simple names of the exceptions the Javadoc right before a member (at `start_byte`) says it throws."""
    before = source.encode("utf-8")[:start_byte].decode("utf-8", errors="ignore").rstrip()
    # Annotations may sit between the comment and the declaration; the comment is the last one before them.
    before = re.sub(r"(?:\s*@\w+(?:\([^)]*\))?)+$", "", before).rstrip()
    if not before.endswith("*/"):
        return set()
    opening = before.rfind("/**")
    if opening < 0:
        return set()
    return {name.rsplit(".", 1)[-1] for name in _DOC_THROWS.findall(before[opening:])}


def blank_literals_and_comments(source: str) -> str:
    """The text with comments, string and char literals replaced by spaces (newlines kept, so lines stay)."""
    out = list(source)
    index, length = 0, len(source)
    while index < length:
        two = source[index:index + 2]
        if two == "//":
            end = source.find("\n", index)
            end = length if end < 0 else end
        elif two == "/*":
            end = source.find("*/", index + 2)
            end = length if end < 0 else end + 2
        elif source[index] in "\"'":
            end = _literal_end(source, index)
        else:
            index += 1
            continue
        for position in range(index, end):
            if out[position] != "\n":
                out[position] = " "
        index = end
    return "".join(out)


def _literal_end(source: str, start: int) -> int:
    quote = source[start]
    if source.startswith('"""', start):
        end = source.find('"""', start + 3)
        return len(source) if end < 0 else end + 3
    index = start + 1
    while index < len(source) and source[index] not in (quote, "\n"):
        index += 2 if source[index] == "\\" else 1
    return min(index + 1, len(source))


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1

"""Java source text by its brackets: where a bracket closes, and a call's top-level arguments (string and char
literals skipped). For text that is not a whole file (a line, an expression, javac's printed signatures)."""

from __future__ import annotations

from collections.abc import Iterator


def _code(text: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """(index, character) of `text` from `start`, outside string and char literals (their quotes included)."""
    index, quote = start, None
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        else:
            yield index, char
        index += 1


def closing_bracket(text: str, start: int, opening: str = "(", closing: str = ")") -> int:
    """The index of the bracket closing the `opening` one at `start` (string and char literals skipped), or -1."""
    if start < 0 or start >= len(text) or text[start] != opening:
        return -1
    depth = 0
    for index, char in _code(text, start):
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return index
    return -1


def opening_bracket(text: str, closing: int) -> int:
    """The index of the `(` that the `)` at `closing` closes (string and char literals skipped), or -1."""
    openings: list[int] = []
    for index, char in _code(text):
        if char == "(":
            openings.append(index)
        elif char == ")":
            if index == closing:
                return openings[-1] if openings else -1
            if openings:
                openings.pop()
        if index >= closing:
            break
    return -1


def split_arguments(text: str, *, angles: bool = False) -> list[str]:
    """Top-level, comma-separated arguments of a call, respecting nesting and string and char literals; with
    `angles`, type arguments nest too (`Map<K,V>,V` is two parameters)."""
    args: list[str] = []
    depth = start = 0
    for index, char in _code(text):
        if char in "([{" or (angles and char == "<"):
            depth += 1
        elif char in ")]}" or (angles and char == ">"):
            depth -= 1
        elif char == "," and depth == 0:
            args.append(text[start:index].strip())
            start = index + 1
    args.append(text[start:].strip())
    return args

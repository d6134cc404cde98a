"""Java literals written into generated tests (pure)."""

from __future__ import annotations

import json


def java_string(text: str) -> str:
    """A Java string literal for any text.

    JSON's escapes are Java's for these characters, and ASCII-only output keeps the file's encoding out
    of it (its unicode escapes stand for characters Java allows inside a string literal).
    """
    return json.dumps(text, ensure_ascii=True)


def platform_text(text: str) -> str:
    """A Java expression for a text whose line breaks are the platform's: `"a -> 2" + System.lineSeparator()` for
    "a -> 2\n" (what a class writing `System.lineSeparator()` gave on Linux), so that the test holds on Windows."""
    lines = text.split("\n")
    parts: list[str] = []
    for number, line in enumerate(lines):
        if line:
            parts.append(java_string(line))
        if number < len(lines) - 1:
            parts.append("System.lineSeparator()")
    return " + ".join(parts) or java_string(text)


_CHAR_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "'": "\\'", "\\": "\\\\"}


def java_char(text: str) -> str:
    """A Java char literal for a one-character text (`'a'`, `'\\u00e9'`, `'\\n'`), written in ASCII; a text of another
    length (a character outside the BMP) as its string's first char. javac reads `\\u000a` as a line break before
    it lexes, so line breaks, quotes and backslashes take their own escapes."""
    if len(text) != 1:
        return f"{java_string(text)}.charAt(0)"
    if text in _CHAR_ESCAPES:
        return f"'{_CHAR_ESCAPES[text]}'"
    return f"'{text}'" if " " <= text <= "~" else f"'\\u{ord(text):04x}'"

"""Java literals written into generated tests (pure)."""

from __future__ import annotations

import json


def java_string(text: str) -> str:
    """A Java string literal for any text.

    JSON's escapes are Java's for these characters, and ASCII-only output keeps the file's encoding out
    of it (its unicode escapes stand for characters Java allows inside a string literal).
    """
    return json.dumps(text, ensure_ascii=True)

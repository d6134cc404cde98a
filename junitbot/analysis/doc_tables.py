"""Texts a type's Javadoc tables document: the first cell of each row, where it is a value, not prose (pure).

A class that reads a small language documents it in a table: DurationFormatUtils lists its patterns
(`[d'd'H'h'm'm']s's'`, `['{'d'}']HH':'mm`) with what each formats to. Those are the inputs its maintainers chose
to show the optional blocks, the literals and the padding, which neither "text" nor the class's constants reach
(issue 29: nine of the mutants commons-lang's own suite leaves alive in DurationFormatUtils are in the optional
block logic only such patterns exercise). A row's first cell counts when it is one token: no spaces (prose), not
a plain word or name (a column of method or field names), at least two characters.
"""

from __future__ import annotations

import html
import re

from junitbot.analysis.parser import Node
from junitbot.analysis.source import SourceText

# Each part bounded, so a comment of unclosed rows is read in linear time.
_ROW = re.compile(r"<tr[^>]{0,200}>\s{0,200}<td[^>]{0,200}>(.{0,400}?)</td>", re.DOTALL | re.IGNORECASE)
_MARGIN = re.compile(r"\n[ \t]*\*[ \t]?")
_TAG = re.compile(r"</?\w+[^>]*>")
_CODE = re.compile(r"\{@(?:code|literal)\s+(.*?)\}", re.DOTALL)
_NAME = re.compile(r"[\w.$]+")
MAX_TEXTS = 8  # per type: a table of a hundred rows is a reference, not a handful of examples
_MAX_LENGTH = 80


def documented_texts(node: Node, source: SourceText) -> tuple[str, ...]:
    """The distinct first cells of the rows of the Javadoc right before the declaration `node`, longest first."""
    comment = node.prev_named_sibling
    if comment is None or comment.type != "block_comment":
        return ()
    text = source.text(comment)
    if not text.startswith("/**") or "<td" not in text.lower():
        return ()
    found: list[str] = []
    for cell in _ROW.findall(_MARGIN.sub("\n", text)):
        value = html.unescape(_TAG.sub("", _CODE.sub(r"\1", cell))).strip()
        if 2 <= len(value) <= _MAX_LENGTH and not any(c.isspace() for c in value) and not _NAME.fullmatch(value):
            found.append(value)
    return tuple(sorted(dict.fromkeys(found), key=len, reverse=True)[:MAX_TEXTS])

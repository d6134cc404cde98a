"""The text of the Java file being extracted, passed explicitly to every function that reads node text."""

from __future__ import annotations

import re

from junitbot.analysis.parser import Node

_SPACE = re.compile(r"\s+")


class SourceText:
    """One file's bytes; node text is a slice of one decoded string, not a decode per node.

    Build one per file (`SourceText(data)`) and pass it with the nodes of that file's tree.
    """

    __slots__ = ("_decoded", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._decoded = data.decode("ascii") if data.isascii() else None

    def text(self, node: Node | None) -> str:
        """The node's source text; "" for None (an absent optional child)."""
        if node is None:
            return ""
        if self._decoded is not None:
            return self._decoded[node.start_byte:node.end_byte]  # byte offsets are character offsets in ASCII
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def compact(self, node: Node | None) -> str:
        """The node's text without whitespace: `Map<String, Integer>` reads `Map<String,Integer>`."""
        text = self.text(node)
        return _SPACE.sub("", text) if " " in text or "\n" in text or "\t" in text else text

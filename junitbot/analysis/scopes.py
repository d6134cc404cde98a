"""Byte-range scopes of one file: its member types with their FQNs, its methods, and names that shadow types."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence

from junitbot.analysis.models import TypeKind
from junitbot.analysis.parser import Node
from junitbot.analysis.source import SourceText

# Type declarations by node type, with the kind each declares.
TYPE_KINDS = {
    "class_declaration": TypeKind.CLASS,
    "interface_declaration": TypeKind.INTERFACE,
    "enum_declaration": TypeKind.ENUM,
    "record_declaration": TypeKind.RECORD,
    "annotation_type_declaration": TypeKind.ANNOTATION,
}
# A type declared directly in one of these is a member type; anywhere else it is local or anonymous
# and its usages count for the type that encloses it.
_MEMBER_CONTAINERS = {"program", "class_body", "interface_body", "enum_body_declarations", "annotation_type_body"}


class _Scopes:
    """Nested byte ranges; finds the innermost one that contains a position."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ranges: list[tuple[int, int, int]] = []

    def _add(self, start: int, end: int, index: int) -> None:
        self._starts.append(start)
        self._ranges.append((start, end, index))

    def _innermost(self, position: int) -> int | None:
        i = bisect.bisect_right(self._starts, position) - 1
        while i >= 0:
            start, end, index = self._ranges[i]
            if start <= position < end:
                return index
            i -= 1
        return None


class TypeScopes(_Scopes):
    """The member types of a file with their FQNs; local and anonymous classes fold into their owner."""

    def __init__(self, nodes: Sequence[Node], package: str, source: SourceText) -> None:
        super().__init__()
        self.types: list[tuple[Node, str, str | None]] = []
        prefix = f"{package}." if package else ""
        for node in nodes:
            if not is_member_type(node):
                continue
            name = source.text(node.child_by_field_name("name"))
            outer_index = self._innermost(node.start_byte)
            outer = self.types[outer_index][1] if outer_index is not None else None
            fqn = f"{outer}.{name}" if outer else f"{prefix}{name}"
            self._add(node.start_byte, node.end_byte, len(self.types))
            self.types.append((node, fqn, outer))

    def owner_at(self, position: int) -> str | None:
        """The FQN of the innermost member type around a byte offset, None outside every type."""
        if len(self.types) == 1:  # most files: one type, no search
            node = self.types[0][0]
            return self.types[0][1] if node.start_byte <= position < node.end_byte else None
        index = self._innermost(position)
        return None if index is None else self.types[index][1]


class MemberScopes(_Scopes):
    """Methods and constructors by byte range, so body facts find the member they belong to."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        super().__init__()
        self.nodes = list(nodes)
        for index, node in enumerate(self.nodes):
            self._add(node.start_byte, node.end_byte, index)
        self.index_of = {node.id: index for index, node in enumerate(self.nodes)}

    def member_at(self, position: int) -> int | None:
        """The index of the innermost member around a byte offset."""
        return self._innermost(position)


def is_member_type(node: Node) -> bool:
    """A type declared at the top level or directly in another type's body (not local, not anonymous)."""
    parent = node.parent
    if parent is None or parent.type not in _MEMBER_CONTAINERS:
        return False
    if parent.type == "class_body":
        grand = parent.parent
        return grand is not None and grand.type in TYPE_KINDS
    return True


def declaring_node(type_parameter_name: Node) -> Node | None:
    """The class, method or constructor that declares a type parameter (name → parameter → list → it)."""
    node: Node | None = type_parameter_name
    for _ in range(3):
        node = node.parent if node is not None else None
    return node


class Shadows:
    """Names that hide repo types inside a range: type parameters, and local classes from their declaration on."""

    def __init__(self, captured: dict[str, list[Node]], source: SourceText) -> None:
        self._ranges: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for node in captured.get("type_parameter", ()):
            declaration = declaring_node(node)
            if declaration is not None:
                self._ranges[source.text(node)].append((declaration.start_byte, declaration.end_byte))
        for node in captured.get("type", ()):
            parent = node.parent
            if parent is not None and not is_member_type(node) and parent.type != "class_body":
                name = source.text(node.child_by_field_name("name"))
                self._ranges[name].append((node.start_byte, parent.end_byte))

    def hides(self, name: str, position: int) -> bool:
        """Whether the first segment of `name` is shadowed at a byte offset."""
        if not self._ranges:
            return False
        ranges = self._ranges.get(name.split(".", 1)[0])
        return ranges is not None and any(start <= position < end for start, end in ranges)

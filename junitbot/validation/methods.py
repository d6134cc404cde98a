"""Test methods of a test class source: list them, and remove some while keeping the rest intact (pure)."""

from __future__ import annotations

from collections.abc import Collection

from junitbot.analysis import Node, parse_java

_TEST_ANNOTATIONS = frozenset({"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"})


def _method_nodes(source: bytes) -> list[Node]:
    tree = parse_java(source)
    found: list[Node] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "method_declaration":
            found.append(node)
        elif node.type in ("program", "class_declaration", "class_body"):
            stack.extend(node.children)
    return sorted(found, key=lambda n: n.start_byte)


def _annotation_names(method: Node) -> set[str]:
    modifiers = next((c for c in method.children if c.type == "modifiers"), None)
    if modifiers is None:
        return set()
    names = set()
    for child in modifiers.children:
        name = child.child_by_field_name("name") if child.type in ("annotation", "marker_annotation") else None
        if name is not None and name.text is not None:
            names.add(name.text.decode().rsplit(".", 1)[-1])
    return names


def _name(method: Node) -> str:
    name = method.child_by_field_name("name")
    return name.text.decode() if name is not None and name.text is not None else ""


def test_methods(source: str) -> list[str]:
    """Names of the methods annotated as tests, in source order (nested classes included)."""
    return [_name(m) for m in _method_nodes(source.encode()) if _annotation_names(m) & _TEST_ANNOTATIONS]


def remove_methods(source: str, names: Collection[str]) -> str:
    """The source without the named test methods (with their annotations and a javadoc right above)."""
    data = source.encode()
    cuts: list[tuple[int, int]] = []
    for method in _method_nodes(data):
        if _name(method) not in names or not _annotation_names(method) & _TEST_ANNOTATIONS:
            continue
        start = method.start_byte
        previous = method.prev_sibling
        is_javadoc = previous is not None and previous.type == "block_comment" and (previous.text or b"")[:3] == b"/**"
        if previous is not None and is_javadoc:
            start = previous.start_byte
        line_start = data.rfind(b"\n", 0, start) + 1
        if not data[line_start:start].strip():
            start = line_start
        end = method.end_byte
        if data[end:end + 1] == b"\n":
            end += 1
        cuts.append((start, end))
    for start, end in sorted(cuts, reverse=True):
        data = data[:start] + data[end:]
    return data.decode()

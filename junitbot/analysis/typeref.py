"""Type references: TypeRef for a type node, and the type names written in one."""

from __future__ import annotations

from junitbot.analysis.models import TypeRef
from junitbot.analysis.parser import Node
from junitbot.analysis.source import SourceText

_ANNOTATIONS = ("annotation", "marker_annotation")


def type_ref(node: Node, source: SourceText) -> TypeRef:
    """A TypeRef for a type node: the text as written, its head name, generic arguments, arrays.

    `source` is the text of the file whose tree holds `node` (`SourceText(data)`).
    """
    kind = node.type
    if kind == "array_type":
        element = node.child_by_field_name("element")
        inner = type_ref(element, source) if element is not None else TypeRef(text="?", name="?")
        return inner.model_copy(update={"text": source.compact(node), "array": True})
    if kind == "generic_type":
        head = node.named_children[0]
        args = next((c for c in node.named_children if c.type == "type_arguments"), None)
        arguments = tuple(type_ref(c, source) for c in args.named_children) if args is not None else ()
        return TypeRef(text=source.compact(node), name=type_ref(head, source).name, arguments=arguments)
    if kind == "scoped_type_identifier":
        return TypeRef(text=source.compact(node), name=dotted_name(node, source))
    if kind == "annotated_type":
        unannotated = next((c for c in node.named_children if c.type not in _ANNOTATIONS), None)
        if unannotated is not None:
            return type_ref(unannotated, source)
    if kind == "wildcard":
        bound = next((c for c in node.named_children if c.type not in _ANNOTATIONS), None)
        if bound is None:
            return TypeRef(text="?", name="?")
        return type_ref(bound, source).model_copy(update={"text": source.compact(node)})
    text = source.compact(node)
    return TypeRef(text=text, name=text)


def type_names(node: Node, source: SourceText, is_argument: bool = False) -> list[tuple[str, bool]]:
    """The type names in a type node: its head, and its generic arguments flagged as arguments."""
    kind = node.type
    if kind in ("type_identifier", "identifier"):
        return [(source.text(node), is_argument)]
    if kind == "scoped_type_identifier" or kind == "scoped_identifier":
        return [(dotted_name(node, source), is_argument)]
    names: list[tuple[str, bool]] = []
    if kind == "generic_type":
        for child in node.named_children:
            names.extend(type_names(child, source, is_argument or child.type == "type_arguments"))
    elif kind in ("array_type", "annotated_type", "wildcard", "type_arguments", "dimensions"):
        for child in node.named_children:
            if child.type not in ("annotation", "marker_annotation", "dimensions"):
                names.extend(type_names(child, source, is_argument))
    return names


def dotted_name(node: Node, source: SourceText) -> str:
    """`com.acme.Outer.Inner` from a scoped name, without annotations or generic arguments."""
    parts: list[str] = []
    for child in node.named_children:
        if child.type in ("scoped_type_identifier", "scoped_identifier", "generic_type"):
            parts.append(dotted_name(child, source))
        elif child.type in ("type_identifier", "identifier"):
            parts.append(source.text(child))
    return ".".join(p for p in parts if p)


def looks_like_type_path(name: str) -> bool:
    """`Money.of`, `com.acme.Util.x`: some segment starts upper-case and no `this`/`super` in it."""
    parts = name.split(".")
    return "this" not in parts and "super" not in parts and any(p[:1].isupper() for p in parts)

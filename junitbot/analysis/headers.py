"""Type headers: kind, modifiers, annotations, type parameters and supertypes of a declaration, no members."""

from __future__ import annotations

from junitbot.analysis.models import AnnotationInfo, ClassInfo, Span, TypeBound, TypeRef
from junitbot.analysis.parser import Node
from junitbot.analysis.scopes import TYPE_KINDS, TypeScopes
from junitbot.analysis.source import SourceText
from junitbot.analysis.typeref import type_ref


def class_header(
    node: Node, fqn: str, outer: str | None, *, package: str, path: str, is_test: bool, scopes: TypeScopes,
    source: SourceText,
) -> ClassInfo:
    """What the graph needs of a type: no members, so indexing stays as cheap as parsing."""
    modifiers, annotations = modifiers_of(node, source)
    extends, implements = _supertypes(node, source)
    return ClassInfo(
        fqn=fqn,
        name=source.text(node.child_by_field_name("name")),
        package=package,
        kind=TYPE_KINDS[node.type],
        file=path,
        outer=outer,
        modifiers=modifiers,
        annotations=annotations,
        type_parameters=type_parameter_names(node, source),
        type_bounds=type_parameter_bounds(node, source),
        extends=extends,
        implements=implements,
        permits=_permits(node, source),
        nested=tuple(n_fqn for _, n_fqn, n_outer in scopes.types if n_outer == fqn),
        is_test=is_test,
        span=span_of(node),
    )


def span_of(node: Node) -> Span:
    """The declaration's 1-based lines and byte offsets."""
    return Span(
        start_line=node.start_point[0] + 1,
        end_line=node.end_point[0] + 1,
        start_byte=node.start_byte,
        end_byte=node.end_byte,
    )


def modifiers_of(node: Node, source: SourceText) -> tuple[tuple[str, ...], tuple[AnnotationInfo, ...]]:
    """The keywords (`public`, `static`, ...) and the annotations of a declaration, in source order."""
    modifiers_node = next((c for c in node.children if c.type == "modifiers"), None)
    if modifiers_node is None:
        return (), ()
    keywords: list[str] = []
    annotations: list[AnnotationInfo] = []
    for child in modifiers_node.children:
        if child.type in ("annotation", "marker_annotation"):
            annotations.append(_annotation(child, source))
        else:
            keywords.append(source.text(child))
    return tuple(keywords), tuple(annotations)


def _annotation(node: Node, source: SourceText) -> AnnotationInfo:
    name_node = node.child_by_field_name("name")
    name = source.compact(name_node) if name_node is not None else ""
    arguments: dict[str, str] = {}
    args = node.child_by_field_name("arguments")
    if args is not None:
        for child in args.named_children:
            if child.type == "element_value_pair":
                key = source.text(child.child_by_field_name("key"))
                arguments[key] = source.text(child.child_by_field_name("value"))
            else:
                arguments["value"] = source.text(child)
    return AnnotationInfo(name=name, arguments=arguments)


def type_parameter_names(node: Node, source: SourceText) -> tuple[str, ...]:
    """The names of the type parameters a class or method declares (`<K, V extends Comparable<V>>` → K, V)."""
    return tuple(source.text(ident) for ident, _ in _type_parameters(node))


def type_parameter_bounds(node: Node, source: SourceText) -> tuple[TypeBound, ...]:
    """The first bound of each bounded type parameter (`<F extends JacksonFeature & Serializable, K>` → F)."""
    return tuple(TypeBound(name=source.text(ident), bound=type_ref(bound, source))
                 for ident, bound in _type_parameters(node) if bound is not None)


def _type_parameters(node: Node) -> list[tuple[Node, Node | None]]:
    """(name, first bound or None) of each type parameter the declaration has."""
    params = node.child_by_field_name("type_parameters")
    found = []
    for child in params.named_children if params is not None else ():
        ident = next((c for c in child.named_children if c.type in ("type_identifier", "identifier")), None)
        clause = next((c for c in child.named_children if c.type == "type_bound"), None)
        if ident is not None:
            found.append((ident, next(iter(clause.named_children), None) if clause is not None else None))
    return found


def _permits(node: Node, source: SourceText) -> tuple[TypeRef, ...]:
    """A sealed type's permitted subtypes, in the order its `permits` clause names them."""
    clause = next((c for c in node.children if c.type == "permits"), None)
    if clause is None:
        return ()
    return tuple(type_ref(t, source) for types in clause.named_children if types.type == "type_list"
                 for t in types.named_children)


def _supertypes(node: Node, source: SourceText) -> tuple[tuple[TypeRef, ...], tuple[TypeRef, ...]]:
    extends: list[TypeRef] = []
    implements: list[TypeRef] = []
    for child in node.children:
        if child.type == "superclass":
            extends.extend(type_ref(c, source) for c in child.named_children)
        elif child.type == "extends_interfaces":
            for type_list in child.named_children:
                extends.extend(type_ref(c, source) for c in type_list.named_children)
        elif child.type == "super_interfaces":
            for type_list in child.named_children:
                implements.extend(type_ref(c, source) for c in type_list.named_children)
    return tuple(extends), tuple(implements)

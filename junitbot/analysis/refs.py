"""Raw references: the type names each type of a file uses, by edge kind, before resolution."""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.analysis.models import EdgeKind, ImportInfo, RawRef
from junitbot.analysis.parser import Node, Tree, identifier_nodes
from junitbot.analysis.scopes import Shadows, TypeScopes
from junitbot.analysis.source import SourceText
from junitbot.analysis.typeref import looks_like_type_path, type_names

_REF_PREFIX = "ref."
# Identifiers in these slots declare or select a name rather than use a statically imported member.
_NOT_A_USE = {
    ("variable_declarator", "name"), ("formal_parameter", "name"), ("method_declaration", "name"),
    ("catch_formal_parameter", "name"), ("enhanced_for_statement", "name"), ("field_access", "field"),
    ("field_access", "object"), ("method_invocation", "object"), ("element_value_pair", "key"),
    ("enum_constant", "name"), ("record_pattern_component", "name"), ("type_pattern", "name"),
    ("instanceof_expression", "name"), ("lambda_expression", "parameters"), ("method_reference", None),
    ("labeled_statement", None), ("break_statement", None), ("continue_statement", None),
}


def raw_refs(
    captured: dict[str, list[Node]], scopes: TypeScopes, shadows: Shadows, source: SourceText
) -> list[RawRef]:
    """The `ref.*` captures as (owner, kind, name), deduplicated and sorted; shadowed names left out."""
    seen: set[tuple[str, EdgeKind, str]] = set()
    for capture, nodes in captured.items():
        if capture.startswith(_REF_PREFIX):
            _collect(EdgeKind(capture[len(_REF_PREFIX):]), nodes, scopes, shadows, source, seen)
    return [RawRef(owner=owner, kind=kind, name=name) for owner, kind, name in sorted(seen)]


def _collect(
    kind: EdgeKind, nodes: Sequence[Node], scopes: TypeScopes, shadows: Shadows, source: SourceText,
    seen: set[tuple[str, EdgeKind, str]],
) -> None:
    """The hot loop: one capture's nodes into `seen` (node text through local names, no extra layers)."""
    static = kind in (EdgeKind.STATIC_CALL, EdgeKind.STATIC_FIELD)
    owner_at, hides, text, compact, add = scopes.owner_at, shadows.hides, source.text, source.compact, seen.add
    for node in nodes:
        start = node.start_byte
        owner = owner_at(start)
        if owner is None:
            continue
        if static:
            name = compact(node)
            if name[:1].islower() and "." not in name:
                continue  # a variable (`order.total()`), the common case
            if looks_like_type_path(name) and not hides(name, start):
                add((owner, kind, name))
        elif node.type == "type_identifier":
            name = text(node)
            if not hides(name, start):
                add((owner, kind, name))
        else:
            for name, is_argument in type_names(node, source):
                if not hides(name, start):
                    add((owner, EdgeKind.TYPE_ARGUMENT if is_argument else kind, name))


def static_import_refs(
    tree: Tree, imports: Sequence[ImportInfo], captured: dict[str, list[Node]], scopes: TypeScopes,
    source: SourceText,
) -> list[RawRef]:
    """Uses of statically imported members depend on the type that declares them."""
    members = {i.name.rpartition(".")[2]: i.name.rpartition(".")[0] for i in imports if i.static and not i.wildcard}
    wildcards = [i.name for i in imports if i.static and i.wildcard]
    if not members and not wildcards:
        return []
    refs = _static_calls(captured, members, wildcards, scopes, source)
    if members:
        refs.extend(_static_fields(tree, members, scopes, source))
    return refs


def _static_calls(
    captured: dict[str, list[Node]], members: dict[str, str], wildcards: Sequence[str], scopes: TypeScopes,
    source: SourceText,
) -> list[RawRef]:
    """Unqualified calls of an imported member, or of any member of a wildcard import not declared here."""
    refs: list[RawRef] = []
    declared_methods = {source.text(n.child_by_field_name("name")) for n in captured.get("method", ())}
    for call in captured.get("call", ()):
        if call.child_by_field_name("object") is not None:
            continue
        name = source.text(call.child_by_field_name("name"))
        owner = scopes.owner_at(call.start_byte)
        if owner is None:
            continue
        if name in members:
            refs.append(RawRef(owner=owner, kind=EdgeKind.STATIC_CALL, name=members[name]))
        elif name not in declared_methods:
            refs.extend(RawRef(owner=owner, kind=EdgeKind.STATIC_CALL, name=w) for w in wildcards)
    return refs


def _static_fields(tree: Tree, members: dict[str, str], scopes: TypeScopes, source: SourceText) -> list[RawRef]:
    """Identifiers that use an imported member as a value (not a declaration, selection or label)."""
    refs: list[RawRef] = []
    for node in identifier_nodes(tree):
        name = source.text(node)
        parent = node.parent
        if name not in members or parent is None or parent.type in ("method_invocation", "import_declaration",
                                                                     "scoped_identifier"):
            continue
        index = next((i for i, c in enumerate(parent.children) if c.id == node.id), None)
        slot = parent.field_name_for_child(index) if index is not None else None
        if (parent.type, slot) in _NOT_A_USE or (parent.type, None) in _NOT_A_USE:
            continue
        owner = scopes.owner_at(node.start_byte)
        if owner is not None:
            refs.append(RawRef(owner=owner, kind=EdgeKind.STATIC_FIELD, name=members[name]))
    return refs

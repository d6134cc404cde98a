"""Members: full ClassInfo with fields, constructors, methods, parameters and the call sites in their bodies."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from junitbot.analysis.doc_tables import documented_texts
from junitbot.analysis.headers import (
    class_header,
    modifiers_of,
    span_of,
    type_parameter_bounds,
    type_parameter_names,
)
from junitbot.analysis.literals import compared_literals
from junitbot.analysis.lombok import apply_lombok
from junitbot.analysis.models import (
    CallSite,
    ClassInfo,
    ComparedLiteral,
    FieldInfo,
    MethodInfo,
    ParameterInfo,
    ReceiverKind,
    TypeKind,
    TypeRef,
)
from junitbot.analysis.parser import Node
from junitbot.analysis.scopes import TYPE_KINDS, MemberScopes, TypeScopes
from junitbot.analysis.source import SourceText
from junitbot.analysis.typeref import looks_like_type_path, type_ref

_UNKNOWN = TypeRef(text="?", name="?")
_METHOD_NODES = ("method_declaration", "constructor_declaration", "compact_constructor_declaration",
                 "annotation_type_element_declaration")


class BodyFacts:
    """Calls, locals, comparisons and creations grouped by the member they occur in."""

    def __init__(self, captured: dict[str, list[Node]], source: SourceText) -> None:
        self.members = members = MemberScopes(captured.get("method", ()))
        self.locals: dict[int, set[str]] = defaultdict(set)
        self.calls: dict[int, list[Node]] = defaultdict(list)
        self.compares: dict[int, list[Node]] = defaultdict(list)
        self.cases: dict[int, list[Node]] = defaultdict(list)
        self.creates: dict[int, list[Node]] = defaultdict(list)
        for capture, bucket in (
            ("call", self.calls), ("compare", self.compares), ("case_label", self.cases),
            ("create", self.creates),
        ):
            for node in captured.get(capture, ()):
                index = members.member_at(node.start_byte)
                if index is not None:
                    bucket[index].append(node)
        for node in captured.get("local", ()):
            index = members.member_at(node.start_byte)
            if index is not None:
                self.locals[index].add(source.text(node))


def class_info(
    node: Node, fqn: str, outer: str | None, *, package: str, path: str, is_test: bool, scopes: TypeScopes,
    bodies: BodyFacts, source: SourceText, lombok: Collection[str] = frozenset(),
) -> ClassInfo:
    """A type's header with its members, the compiler's implicit ones and Lombok's.

    `lombok` holds the simple annotation names that are Lombok's in the file (`lombok_names`).
    """
    kind = TYPE_KINDS[node.type]
    fields, member_nodes, enum_constants = _body_members(node, kind, source)
    components = _parameters(node.child_by_field_name("parameters"), source) if kind is TypeKind.RECORD else ()
    constructors: list[MethodInfo] = []
    methods: list[MethodInfo] = []
    for member in member_nodes:
        info = _method_info(member, components, fields, bodies, source)
        (constructors if info.kind == "constructor" else methods).append(info)
    name = source.text(node.child_by_field_name("name"))
    if kind is TypeKind.RECORD:
        constructors, methods = _record_members(name, components, constructors, methods)
    elif kind in (TypeKind.CLASS, TypeKind.ENUM) and not constructors:
        # The compiler's default constructor: public for classes, private for enums.
        visibility = ("public",) if kind is TypeKind.CLASS else ("private",)
        constructors = [MethodInfo(name=name, kind="constructor", modifiers=visibility, synthetic="default")]
    header = class_header(node, fqn, outer, package=package, path=path, is_test=is_test, scopes=scopes,
                          source=source)
    return apply_lombok(header.model_copy(update={
        "fields": tuple(fields),
        "constructors": tuple(constructors),
        "methods": tuple(methods),
        "record_components": components,
        "enum_constants": tuple(enum_constants),
        "documented_texts": documented_texts(node, source),
    }), lombok)


def _body_members(node: Node, kind: TypeKind, source: SourceText) -> tuple[list[FieldInfo], list[Node], list[str]]:
    """A type body's fields, method-like member nodes and enum constant names."""
    fields: list[FieldInfo] = []
    member_nodes: list[Node] = []
    enum_constants: list[str] = []
    interface = kind in (TypeKind.INTERFACE, TypeKind.ANNOTATION)
    for child in _body_children(node.child_by_field_name("body")):
        if child.type in ("field_declaration", "constant_declaration"):
            fields.extend(_fields(child, interface=interface, source=source))
        elif child.type in _METHOD_NODES:
            member_nodes.append(child)
        elif child.type == "enum_constant":
            enum_constants.append(source.text(child.child_by_field_name("name")))
    return fields, member_nodes, enum_constants


def _body_children(body: Node | None) -> list[Node]:
    if body is None:
        return []
    children: list[Node] = []
    for child in body.named_children:
        if child.type == "enum_body_declarations":
            children.extend(child.named_children)
        else:
            children.append(child)
    return children


def _fields(node: Node, *, interface: bool, source: SourceText) -> list[FieldInfo]:
    modifiers, annotations = modifiers_of(node, source)
    if interface:
        # Interface fields are implicitly public static final.
        modifiers = tuple(dict.fromkeys((*modifiers, "public", "static", "final")))
    type_node = node.child_by_field_name("type")
    ref = type_ref(type_node, source) if type_node is not None else _UNKNOWN
    return [
        FieldInfo(
            name=source.text(declarator.child_by_field_name("name")),
            type=ref,
            modifiers=modifiers,
            annotations=annotations,
            initialized=declarator.child_by_field_name("value") is not None,
            line=declarator.start_point[0] + 1,
        )
        for declarator in node.children_by_field_name("declarator")
    ]


def _parameters(params: Node | None, source: SourceText) -> tuple[ParameterInfo, ...]:
    """Formal parameters, or a record's components (the same node shapes)."""
    if params is None:
        return ()
    result = []
    for child in params.named_children:
        if child.type == "formal_parameter":
            _, annotations = modifiers_of(child, source)
            type_node = child.child_by_field_name("type")
            result.append(ParameterInfo(
                name=source.text(child.child_by_field_name("name")),
                type=type_ref(type_node, source) if type_node is not None else _UNKNOWN,
                annotations=annotations,
            ))
        elif child.type == "spread_parameter":
            result.append(_varargs(child, source))
    return tuple(result)


def _varargs(node: Node, source: SourceText) -> ParameterInfo:
    _, annotations = modifiers_of(node, source)
    type_node = next((c for c in node.named_children if c.type not in ("modifiers", "variable_declarator")), None)
    declarator = next((c for c in node.named_children if c.type == "variable_declarator"), None)
    name = source.text(declarator.child_by_field_name("name")) if declarator is not None else ""
    ref = type_ref(type_node, source) if type_node is not None else _UNKNOWN
    return ParameterInfo(name=name, type=ref, annotations=annotations, varargs=True)


def _method_info(
    node: Node, components: tuple[ParameterInfo, ...], fields: list[FieldInfo], bodies: BodyFacts,
    source: SourceText,
) -> MethodInfo:
    modifiers, annotations = modifiers_of(node, source)
    is_constructor = node.type in ("constructor_declaration", "compact_constructor_declaration")
    if node.type == "compact_constructor_declaration":
        parameters = components
    else:
        parameters = _parameters(node.child_by_field_name("parameters"), source)
    return_node = None if is_constructor else node.child_by_field_name("type")
    throws = next((c for c in node.children if c.type == "throws"), None)
    index = bodies.members.index_of.get(node.id)
    calls: tuple[CallSite, ...] = ()
    compared: tuple[ComparedLiteral, ...] = ()
    creates: tuple[TypeRef, ...] = ()
    if index is not None:
        field_types = {f.name: f.type for f in fields} | {c.name: c.type for c in components}
        calls, compared, creates = _body(index, parameters, field_types, bodies, source)
    return MethodInfo(
        name=source.text(node.child_by_field_name("name")),
        kind="constructor" if is_constructor else "method",
        parameters=parameters,
        return_type=type_ref(return_node, source) if return_node is not None else None,
        throws=tuple(type_ref(c, source) for c in throws.named_children) if throws is not None else (),
        modifiers=modifiers,
        annotations=annotations,
        type_parameters=type_parameter_names(node, source),
        type_bounds=type_parameter_bounds(node, source),
        span=span_of(node),
        has_body=node.child_by_field_name("body") is not None,
        calls=calls,
        creates=creates,
        compared_literals=compared,
    )


def _body(
    index: int, parameters: tuple[ParameterInfo, ...], field_types: dict[str, TypeRef], bodies: BodyFacts,
    source: SourceText,
) -> tuple[tuple[CallSite, ...], tuple[ComparedLiteral, ...], tuple[TypeRef, ...]]:
    """The call sites, compared literals and created types in the body of member `index`."""
    param_types = {p.name: p.type for p in parameters}
    locals_ = bodies.locals.get(index, set())
    call_nodes = bodies.calls.get(index, [])
    calls = tuple(_call_site(c, param_types, field_types, locals_, source) for c in call_nodes)
    compared = compared_literals(bodies.compares.get(index, []), call_nodes, bodies.cases.get(index, []), source)
    creates = tuple(type_ref(n, source) for n in bodies.creates.get(index, []))
    return calls, tuple(compared), creates


def _call_site(
    node: Node, params: dict[str, TypeRef], fields: dict[str, TypeRef], locals_: set[str], source: SourceText
) -> CallSite:
    receiver_node = node.child_by_field_name("object")
    args = node.child_by_field_name("arguments")
    receiver: str | None = None
    receiver_kind: ReceiverKind = "none"
    receiver_type: TypeRef | None = None
    if receiver_node is not None:
        receiver, receiver_kind, receiver_type = _receiver(receiver_node, params, fields, locals_, source)
    return CallSite(
        method=source.text(node.child_by_field_name("name")),
        receiver=receiver,
        receiver_kind=receiver_kind,
        arguments=len(args.named_children) if args is not None else 0,
        line=node.start_point[0] + 1,
        receiver_type=receiver_type,
    )


def _receiver(
    node: Node, params: dict[str, TypeRef], fields: dict[str, TypeRef], locals_: set[str], source: SourceText
) -> tuple[str, ReceiverKind, TypeRef | None]:
    """What a call is made on: `this`, a local, a parameter or field (with its type), a type, or an expression."""
    receiver = source.compact(node)
    if node.type == "this":
        return receiver, "this", None
    if node.type == "identifier":
        if receiver in locals_:
            return receiver, "local", None
        if receiver in params:
            return receiver, "parameter", params[receiver]
        if receiver in fields:
            return receiver, "field", fields[receiver]
        if receiver[:1].isupper():
            return receiver, "type", TypeRef(text=receiver, name=receiver)
        return receiver, "expression", None
    if node.type == "field_access" and receiver.startswith("this.") and receiver[5:] in fields:
        return receiver[5:], "field", fields[receiver[5:]]
    if looks_like_type_path(receiver) and all(p.isidentifier() for p in receiver.split(".")):
        return receiver, "type", TypeRef(text=receiver, name=receiver)
    return receiver[:80], "expression", None


def _record_members(
    name: str, components: tuple[ParameterInfo, ...], constructors: list[MethodInfo], methods: list[MethodInfo]
) -> tuple[list[MethodInfo], list[MethodInfo]]:
    """Add what the compiler generates for a record: the canonical constructor and the accessors."""
    arity = len(components)
    component_types = [p.type.text for p in components]
    if not any(len(c.parameters) == arity and [p.type.text for p in c.parameters] == component_types
               for c in constructors):
        constructors = [MethodInfo(name=name, kind="constructor", parameters=components,
                                   modifiers=("public",), synthetic="record"), *constructors]
    declared = {m.name for m in methods if not m.parameters}
    accessors = [
        MethodInfo(name=c.name, return_type=c.type, modifiers=("public",), synthetic="record")
        for c in components if c.name not in declared
    ]
    return constructors, [*methods, *accessors]

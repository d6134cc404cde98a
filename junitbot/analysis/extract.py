"""Parse one Java file into FileFacts: its types and members, and the type names each type uses (pure)."""

from __future__ import annotations

import bisect
import re
import threading
from collections import defaultdict
from collections.abc import Sequence

from junitbot.analysis.guards import null_checked, throws_when
from junitbot.analysis.lombok import apply_lombok, detect_builder
from junitbot.analysis.models import (
    AnnotationInfo,
    CallSite,
    ClassInfo,
    ComparedLiteral,
    EdgeKind,
    FieldInfo,
    FileFacts,
    ImportInfo,
    MethodInfo,
    ParameterInfo,
    ParseProblem,
    RawRef,
    ReceiverKind,
    Span,
    TypeKind,
    TypeRef,
)
from junitbot.analysis.parser import (
    Node,
    Tree,
    capture_members,
    capture_nodes,
    capture_static_uses,
    identifier_nodes,
    parse_java,
    syntax_errors,
)

_TYPE_KINDS = {
    "class_declaration": TypeKind.CLASS,
    "interface_declaration": TypeKind.INTERFACE,
    "enum_declaration": TypeKind.ENUM,
    "record_declaration": TypeKind.RECORD,
    "annotation_type_declaration": TypeKind.ANNOTATION,
}
# A type declared directly in one of these is a member type; anywhere else it is local or anonymous
# and its usages count for the type that encloses it.
_MEMBER_CONTAINERS = {"program", "class_body", "interface_body", "enum_body_declarations", "annotation_type_body"}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
_LITERALS = {
    "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
    "decimal_floating_point_literal", "hex_floating_point_literal", "string_literal", "character_literal",
    "true", "false", "null_literal",
}
_LITERAL_METHODS = {"equals", "equalsIgnoreCase", "compareTo", "startsWith", "endsWith", "contains", "matches"}
# `10 < x` reads `x > 10` with the subject on the left.
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_SPACE = re.compile(r"\s+")
_REF_PREFIX = "ref."


def extract_file(source: bytes, path: str, *, is_test: bool = False, members: bool = True) -> FileFacts:
    """Everything one file declares and uses, with type names as written (resolution comes later).

    With `members=False` (what indexing needs) ClassInfo holds only the type's header: kind, modifiers,
    annotations, supertypes and span; fields, constructors, methods and body facts are left out.
    """
    _current.source = _Source(source)
    try:
        return _extract(source, path, is_test=is_test, members=members)
    finally:
        _current.source = None


def _extract(source: bytes, path: str, *, is_test: bool, members: bool) -> FileFacts:
    tree = parse_java(source)
    captured = capture_nodes(tree)
    imports = tuple(_import(node) for node in captured.get("import", ()))
    if members:
        captured.update(capture_members(tree))
    elif any(i.static for i in imports):
        captured.update(capture_static_uses(tree))
    problems = [
        ParseProblem(path=path, line=line, severity="error", message=message)
        for line, message in syntax_errors(tree)
    ]
    package = _text(captured["package"][0]) if "package" in captured else ""
    scopes = _TypeScopes(captured.get("type", ()), package)
    shadows = _Shadows(captured)
    refs = _raw_refs(captured, scopes, shadows)
    refs.extend(_static_import_refs(tree, imports, captured, scopes))
    type_params: dict[str, set[str]] = defaultdict(set)
    for node in captured.get("type_parameter", ()):
        declaration = _declaring_node(node)
        owner = scopes.owner_at(node.start_byte)
        if owner is not None and declaration is not None and declaration.type in _TYPE_KINDS:
            type_params[owner].add(_text(node))
    if members:
        bodies = _BodyFacts(captured, _MemberScopes(captured.get("method", ())))
        classes = detect_builder([_class_info(node, fqn, outer, package, path, is_test, scopes, bodies)
                                  for node, fqn, outer in scopes.types])
    else:
        classes = [_class_header(node, fqn, outer, package, path, is_test, scopes) for node, fqn, outer in scopes.types]
    return FileFacts(
        path=path,
        package=package,
        imports=imports,
        classes=tuple(classes),
        refs=tuple(sorted(set(refs), key=lambda r: (r.owner, r.kind, r.name))),
        type_parameters={owner: tuple(sorted(names)) for owner, names in sorted(type_params.items())},
        problems=tuple(problems),
        is_test=is_test,
    )


class _Source:
    """The file being extracted: node text is a slice of one decoded string, not a copy per node."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.text = data.decode("ascii") if data.isascii() else None

    def slice(self, start: int, end: int) -> str:
        if self.text is not None:
            return self.text[start:end]  # byte offsets are character offsets in ASCII
        return self.data[start:end].decode("utf-8", "replace")


_current = threading.local()


def _text(node: Node | None) -> str:
    if node is None:
        return ""
    source: _Source = _current.source
    return source.slice(node.start_byte, node.end_byte)


def _compact(node: Node | None) -> str:
    text = _text(node)
    return _SPACE.sub("", text) if " " in text or "\n" in text or "\t" in text else text


def _span(node: Node) -> Span:
    return Span(
        start_line=node.start_point[0] + 1,
        end_line=node.end_point[0] + 1,
        start_byte=node.start_byte,
        end_byte=node.end_byte,
    )


def _import(node: Node) -> ImportInfo:
    static = wildcard = False
    name = ""
    for child in node.children:
        if child.type == "static":
            static = True
        elif child.type == "asterisk":
            wildcard = True
        elif child.type in ("identifier", "scoped_identifier"):
            name = _compact(child)
    return ImportInfo(name=name, static=static, wildcard=wildcard)


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


class _TypeScopes(_Scopes):
    """The member types of a file with their FQNs; local and anonymous classes fold into their owner."""

    def __init__(self, nodes: Sequence[Node], package: str) -> None:
        super().__init__()
        self.types: list[tuple[Node, str, str | None]] = []
        prefix = f"{package}." if package else ""
        for node in nodes:
            if not _is_member_type(node):
                continue
            name = _text(node.child_by_field_name("name"))
            outer_index = self._innermost(node.start_byte)
            outer = self.types[outer_index][1] if outer_index is not None else None
            fqn = f"{outer}.{name}" if outer else f"{prefix}{name}"
            self._add(node.start_byte, node.end_byte, len(self.types))
            self.types.append((node, fqn, outer))

    def owner_at(self, position: int) -> str | None:
        if len(self.types) == 1:  # most files: one type, no search
            node = self.types[0][0]
            return self.types[0][1] if node.start_byte <= position < node.end_byte else None
        index = self._innermost(position)
        return None if index is None else self.types[index][1]


def _is_member_type(node: Node) -> bool:
    parent = node.parent
    if parent is None or parent.type not in _MEMBER_CONTAINERS:
        return False
    if parent.type == "class_body":
        grand = parent.parent
        return grand is not None and grand.type in _TYPE_KINDS
    if parent.type == "enum_body_declarations":
        return True
    return True


class _MemberScopes(_Scopes):
    """Methods and constructors by byte range, so body facts find the member they belong to."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        super().__init__()
        self.nodes = list(nodes)
        for index, node in enumerate(self.nodes):
            self._add(node.start_byte, node.end_byte, index)
        self.index_of = {node.id: index for index, node in enumerate(self.nodes)}

    def member_at(self, position: int) -> int | None:
        return self._innermost(position)


def _declaring_node(type_parameter_name: Node) -> Node | None:
    """The class, method or constructor that declares a type parameter (name → parameter → list → it)."""
    node: Node | None = type_parameter_name
    for _ in range(3):
        node = node.parent if node is not None else None
    return node


class _Shadows:
    """Names that hide repo types inside a range: type parameters, and local classes from their declaration on."""

    def __init__(self, captured: dict[str, list[Node]]) -> None:
        self._ranges: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for node in captured.get("type_parameter", ()):
            declaration = _declaring_node(node)
            if declaration is not None:
                self._ranges[_text(node)].append((declaration.start_byte, declaration.end_byte))
        for node in captured.get("type", ()):
            parent = node.parent
            if parent is not None and not _is_member_type(node) and parent.type not in ("class_body",):
                name = _text(node.child_by_field_name("name"))
                self._ranges[name].append((node.start_byte, parent.end_byte))

    def hides(self, name: str, position: int) -> bool:
        if not self._ranges:
            return False
        ranges = self._ranges.get(name.split(".", 1)[0])
        return ranges is not None and any(start <= position < end for start, end in ranges)


def _raw_refs(captured: dict[str, list[Node]], scopes: _TypeScopes, shadows: _Shadows) -> list[RawRef]:
    seen: set[tuple[str, EdgeKind, str]] = set()
    for capture, nodes in captured.items():
        if not capture.startswith(_REF_PREFIX):
            continue
        kind = EdgeKind(capture[len(_REF_PREFIX):])
        static = kind in (EdgeKind.STATIC_CALL, EdgeKind.STATIC_FIELD)
        for node in nodes:
            start = node.start_byte
            owner = scopes.owner_at(start)
            if owner is None:
                continue
            if static:
                name = _compact(node)
                if name[:1].islower() and "." not in name:
                    continue  # a variable (`order.total()`), the common case
                if _looks_like_type_path(name) and not shadows.hides(name, start):
                    seen.add((owner, kind, name))
            elif node.type == "type_identifier":
                name = _text(node)
                if not shadows.hides(name, start):
                    seen.add((owner, kind, name))
            else:
                for name, is_argument in _type_names(node):
                    if not shadows.hides(name, start):
                        seen.add((owner, EdgeKind.TYPE_ARGUMENT if is_argument else kind, name))
    return [RawRef(owner=owner, kind=kind, name=name) for owner, kind, name in sorted(seen)]


# Identifiers in these slots declare or select a name rather than use a statically imported member.
_NOT_A_USE = {
    ("variable_declarator", "name"), ("formal_parameter", "name"), ("method_declaration", "name"),
    ("catch_formal_parameter", "name"), ("enhanced_for_statement", "name"), ("field_access", "field"),
    ("field_access", "object"), ("method_invocation", "object"), ("element_value_pair", "key"),
    ("enum_constant", "name"), ("record_pattern_component", "name"), ("type_pattern", "name"),
    ("instanceof_expression", "name"), ("lambda_expression", "parameters"), ("method_reference", None),
    ("labeled_statement", None), ("break_statement", None), ("continue_statement", None),
}


def _static_import_refs(
    tree: Tree, imports: Sequence[ImportInfo], captured: dict[str, list[Node]], scopes: _TypeScopes
) -> list[RawRef]:
    """Uses of statically imported members depend on the type that declares them."""
    members = {i.name.rpartition(".")[2]: i.name.rpartition(".")[0] for i in imports if i.static and not i.wildcard}
    wildcards = [i.name for i in imports if i.static and i.wildcard]
    if not members and not wildcards:
        return []
    refs: list[RawRef] = []
    declared_methods = {_text(n.child_by_field_name("name")) for n in captured.get("method", ())}
    for call in captured.get("call", ()):
        if call.child_by_field_name("object") is not None:
            continue
        name = _text(call.child_by_field_name("name"))
        owner = scopes.owner_at(call.start_byte)
        if owner is None:
            continue
        if name in members:
            refs.append(RawRef(owner=owner, kind=EdgeKind.STATIC_CALL, name=members[name]))
        elif name not in declared_methods:
            refs.extend(RawRef(owner=owner, kind=EdgeKind.STATIC_CALL, name=w) for w in wildcards)
    if members:
        for node in identifier_nodes(tree):
            name = _text(node)
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


def _looks_like_type_path(name: str) -> bool:
    """`Money.of`, `com.acme.Util.x`: some segment starts upper-case and no `this`/`super` in it."""
    parts = name.split(".")
    return "this" not in parts and "super" not in parts and any(p[:1].isupper() for p in parts)


def _type_names(node: Node, is_argument: bool = False) -> list[tuple[str, bool]]:
    """The type names in a type node: its head, and its generic arguments flagged as arguments."""
    kind = node.type
    if kind in ("type_identifier", "identifier"):
        return [(_text(node), is_argument)]
    if kind == "scoped_type_identifier" or kind == "scoped_identifier":
        return [(_dotted_name(node), is_argument)]
    names: list[tuple[str, bool]] = []
    if kind == "generic_type":
        for child in node.named_children:
            names.extend(_type_names(child, is_argument or child.type == "type_arguments"))
    elif kind in ("array_type", "annotated_type", "wildcard", "type_arguments", "dimensions"):
        for child in node.named_children:
            if child.type not in ("annotation", "marker_annotation", "dimensions"):
                names.extend(_type_names(child, is_argument))
    return names


def _dotted_name(node: Node) -> str:
    """`com.acme.Outer.Inner` from a scoped name, without annotations or generic arguments."""
    parts: list[str] = []
    for child in node.named_children:
        if child.type in ("scoped_type_identifier", "scoped_identifier", "generic_type"):
            parts.append(_dotted_name(child))
        elif child.type in ("type_identifier", "identifier"):
            parts.append(_text(child))
    return ".".join(p for p in parts if p)


def type_ref(node: Node) -> TypeRef:
    """A TypeRef for a type node: the text as written, its head name, generic arguments, arrays."""
    kind = node.type
    if kind == "array_type":
        element = node.child_by_field_name("element")
        inner = type_ref(element) if element is not None else TypeRef(text="?", name="?")
        return inner.model_copy(update={"text": _compact(node), "array": True})
    if kind == "generic_type":
        head = node.named_children[0]
        args = next((c for c in node.named_children if c.type == "type_arguments"), None)
        arguments = tuple(type_ref(c) for c in args.named_children) if args is not None else ()
        return TypeRef(text=_compact(node), name=type_ref(head).name, arguments=arguments)
    if kind == "scoped_type_identifier":
        return TypeRef(text=_compact(node), name=_dotted_name(node))
    if kind == "annotated_type":
        unannotated = [c for c in node.named_children if c.type not in ("annotation", "marker_annotation")]
        return type_ref(unannotated[0]) if unannotated else TypeRef(text=_compact(node), name=_compact(node))
    if kind == "wildcard":
        bound = next((c for c in node.named_children if c.type not in ("annotation", "marker_annotation")), None)
        if bound is None:
            return TypeRef(text="?", name="?")
        inner = type_ref(bound)
        return inner.model_copy(update={"text": _compact(node)})
    text = _compact(node)
    return TypeRef(text=text, name=text)


class _BodyFacts:
    """Calls, locals, comparisons and creations grouped by the member they occur in."""

    def __init__(self, captured: dict[str, list[Node]], members: _MemberScopes) -> None:
        self.members = members
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
                self.locals[index].add(_text(node))


def _class_info(
    node: Node,
    fqn: str,
    outer: str | None,
    package: str,
    path: str,
    is_test: bool,
    scopes: _TypeScopes,
    bodies: _BodyFacts,
) -> ClassInfo:
    kind = _TYPE_KINDS[node.type]
    body = node.child_by_field_name("body")
    field_infos: list[FieldInfo] = []
    member_nodes: list[Node] = []
    enum_constants: list[str] = []
    for child in _body_members(body):
        if child.type in ("field_declaration", "constant_declaration"):
            field_infos.extend(_fields(child, interface=kind in (TypeKind.INTERFACE, TypeKind.ANNOTATION)))
        elif child.type in ("method_declaration", "constructor_declaration", "compact_constructor_declaration",
                            "annotation_type_element_declaration"):
            member_nodes.append(child)
        elif child.type == "enum_constant":
            enum_constants.append(_text(child.child_by_field_name("name")))
    components = _record_components(node) if kind is TypeKind.RECORD else ()
    field_names = {f.name for f in field_infos} | {c.name for c in components}
    constructors: list[MethodInfo] = []
    methods: list[MethodInfo] = []
    for member in member_nodes:
        member_info = _method_info(member, components, field_names, field_infos, bodies)
        (constructors if member_info.kind == "constructor" else methods).append(member_info)
    if kind is TypeKind.RECORD:
        name = _text(node.child_by_field_name("name"))
        constructors, methods = _record_members(name, components, constructors, methods)
    elif kind in (TypeKind.CLASS, TypeKind.ENUM) and not constructors:
        # The compiler's default constructor: public for classes, private for enums.
        visibility = ("public",) if kind is TypeKind.CLASS else ("private",)
        constructors = [MethodInfo(name=_text(node.child_by_field_name("name")), kind="constructor",
                                   modifiers=visibility, synthetic="default")]
    header = _class_header(node, fqn, outer, package, path, is_test, scopes)
    return apply_lombok(header.model_copy(update={
        "fields": tuple(field_infos),
        "constructors": tuple(constructors),
        "methods": tuple(methods),
        "record_components": components,
        "enum_constants": tuple(enum_constants),
    }))


def _class_header(
    node: Node, fqn: str, outer: str | None, package: str, path: str, is_test: bool, scopes: _TypeScopes
) -> ClassInfo:
    """What the graph needs of a type: no members, so indexing stays as cheap as parsing."""
    modifiers, annotations = _modifiers(node)
    extends, implements = _supertypes(node)
    return ClassInfo(
        fqn=fqn,
        name=_text(node.child_by_field_name("name")),
        package=package,
        kind=_TYPE_KINDS[node.type],
        file=path,
        outer=outer,
        modifiers=modifiers,
        annotations=annotations,
        type_parameters=_type_parameter_names(node),
        extends=extends,
        implements=implements,
        permits=_permits(node),
        nested=tuple(n_fqn for _, n_fqn, n_outer in scopes.types if n_outer == fqn),
        is_test=is_test,
        span=_span(node),
    )


def _body_members(body: Node | None) -> list[Node]:
    if body is None:
        return []
    members: list[Node] = []
    for child in body.named_children:
        if child.type == "enum_body_declarations":
            members.extend(child.named_children)
        else:
            members.append(child)
    return members


def _modifiers(node: Node) -> tuple[tuple[str, ...], tuple[AnnotationInfo, ...]]:
    modifiers_node = next((c for c in node.children if c.type == "modifiers"), None)
    if modifiers_node is None:
        return (), ()
    keywords: list[str] = []
    annotations: list[AnnotationInfo] = []
    for child in modifiers_node.children:
        if child.type in ("annotation", "marker_annotation"):
            annotations.append(_annotation(child))
        else:
            keywords.append(_text(child))
    return tuple(keywords), tuple(annotations)


def _annotation(node: Node) -> AnnotationInfo:
    name_node = node.child_by_field_name("name")
    name = _compact(name_node) if name_node is not None else ""
    arguments: dict[str, str] = {}
    args = node.child_by_field_name("arguments")
    if args is not None:
        for child in args.named_children:
            if child.type == "element_value_pair":
                arguments[_text(child.child_by_field_name("key"))] = _text(child.child_by_field_name("value"))
            else:
                arguments["value"] = _text(child)
    return AnnotationInfo(name=name, arguments=arguments)


def _type_parameter_names(node: Node) -> tuple[str, ...]:
    params = node.child_by_field_name("type_parameters")
    if params is None:
        return ()
    names = []
    for child in params.named_children:
        ident = next((c for c in child.named_children if c.type in ("type_identifier", "identifier")), None)
        if ident is not None:
            names.append(_text(ident))
    return tuple(names)


def _supertypes(node: Node) -> tuple[tuple[TypeRef, ...], tuple[TypeRef, ...]]:
    extends: list[TypeRef] = []
    implements: list[TypeRef] = []
    for child in node.children:
        if child.type == "superclass":
            extends.extend(type_ref(c) for c in child.named_children)
        elif child.type == "extends_interfaces":
            for type_list in child.named_children:
                extends.extend(type_ref(c) for c in type_list.named_children)
        elif child.type == "super_interfaces":
            for type_list in child.named_children:
                implements.extend(type_ref(c) for c in type_list.named_children)
    return tuple(extends), tuple(implements)


def _permits(node: Node) -> tuple[TypeRef, ...]:
    clause = next((c for c in node.children if c.type == "permits"), None)
    if clause is None:
        return ()
    return tuple(type_ref(t) for types in clause.named_children if types.type == "type_list"
                 for t in types.named_children)


def _fields(node: Node, *, interface: bool) -> list[FieldInfo]:
    modifiers, annotations = _modifiers(node)
    if interface:
        # Interface fields are implicitly public static final.
        modifiers = tuple(dict.fromkeys((*modifiers, "public", "static", "final")))
    type_node = node.child_by_field_name("type")
    ref = type_ref(type_node) if type_node is not None else TypeRef(text="?", name="?")
    fields = []
    for declarator in node.children_by_field_name("declarator"):
        fields.append(
            FieldInfo(
                name=_text(declarator.child_by_field_name("name")),
                type=ref,
                modifiers=modifiers,
                annotations=annotations,
                initialized=declarator.child_by_field_name("value") is not None,
                line=declarator.start_point[0] + 1,
            )
        )
    return fields


def _parameters(params: Node | None) -> tuple[ParameterInfo, ...]:
    if params is None:
        return ()
    result = []
    for child in params.named_children:
        if child.type == "formal_parameter":
            _, annotations = _modifiers(child)
            type_node = child.child_by_field_name("type")
            result.append(
                ParameterInfo(
                    name=_text(child.child_by_field_name("name")),
                    type=type_ref(type_node) if type_node is not None else TypeRef(text="?", name="?"),
                    annotations=annotations,
                )
            )
        elif child.type == "spread_parameter":
            _, annotations = _modifiers(child)
            type_node = next(
                (c for c in child.named_children if c.type not in ("modifiers", "variable_declarator")), None)
            declarator = next((c for c in child.named_children if c.type == "variable_declarator"), None)
            name = _text(declarator.child_by_field_name("name")) if declarator is not None else ""
            ref = type_ref(type_node) if type_node is not None else TypeRef(text="?", name="?")
            result.append(ParameterInfo(name=name, type=ref, annotations=annotations, varargs=True))
    return tuple(result)


def _record_components(node: Node) -> tuple[ParameterInfo, ...]:
    return _parameters(node.child_by_field_name("parameters"))


def _method_info(
    node: Node,
    components: tuple[ParameterInfo, ...],
    field_names: set[str],
    fields: list[FieldInfo],
    bodies: _BodyFacts,
) -> MethodInfo:
    modifiers, annotations = _modifiers(node)
    is_constructor = node.type in ("constructor_declaration", "compact_constructor_declaration")
    parameters = components if node.type == "compact_constructor_declaration" else _parameters(
        node.child_by_field_name("parameters")
    )
    return_node = None if is_constructor else node.child_by_field_name("type")
    throws = next((c for c in node.children if c.type == "throws"), None)
    body = node.child_by_field_name("body")
    index = bodies.members.index_of.get(node.id)
    calls: tuple[CallSite, ...] = ()
    compared: list[ComparedLiteral] = []
    creates: tuple[TypeRef, ...] = ()
    if index is not None:
        param_types = {p.name: p.type for p in parameters}
        field_types = {f.name: f.type for f in fields} | {c.name: c.type for c in components}
        locals_ = bodies.locals.get(index, set())
        call_nodes = bodies.calls.get(index, [])
        calls = tuple(_call_site(c, param_types, field_types, locals_) for c in call_nodes)
        compared.extend(_compared(n) for n in bodies.compares.get(index, []) if _is_literal_comparison(n))
        compared.extend(_literal_call(c) for c in call_nodes if _is_literal_call(c))
        compared.extend(_null_check(c) for c in call_nodes if null_checked(c) is not None)
        compared.extend(_case_label(n) for n in bodies.cases.get(index, []))
        creates = tuple(type_ref(n) for n in bodies.creates.get(index, []))
    return MethodInfo(
        name=_text(node.child_by_field_name("name")),
        kind="constructor" if is_constructor else "method",
        parameters=parameters,
        return_type=type_ref(return_node) if return_node is not None else None,
        throws=tuple(type_ref(c) for c in throws.named_children) if throws is not None else (),
        modifiers=modifiers,
        annotations=annotations,
        type_parameters=_type_parameter_names(node),
        span=_span(node),
        has_body=body is not None,
        calls=calls,
        creates=creates,
        compared_literals=tuple(compared),
    )


def _call_site(
    node: Node, params: dict[str, TypeRef], fields: dict[str, TypeRef], locals_: set[str]
) -> CallSite:
    receiver_node = node.child_by_field_name("object")
    args = node.child_by_field_name("arguments")
    receiver: str | None = None
    receiver_kind: ReceiverKind = "none"
    receiver_type: TypeRef | None = None
    if receiver_node is not None:
        receiver = _compact(receiver_node)
        if receiver_node.type == "this":
            receiver_kind = "this"
        elif receiver_node.type == "identifier":
            if receiver in locals_:
                receiver_kind = "local"
            elif receiver in params:
                receiver_kind, receiver_type = "parameter", params[receiver]
            elif receiver in fields:
                receiver_kind, receiver_type = "field", fields[receiver]
            elif receiver[:1].isupper():
                receiver_kind, receiver_type = "type", TypeRef(text=receiver, name=receiver)
            else:
                receiver_kind = "expression"
        elif receiver_node.type == "field_access" and receiver.startswith("this.") and receiver[5:] in fields:
            receiver = receiver[5:]
            receiver_kind, receiver_type = "field", fields[receiver]
        elif _looks_like_type_path(receiver) and all(p.isidentifier() for p in receiver.split(".")):
            receiver_kind, receiver_type = "type", TypeRef(text=receiver, name=receiver)
        else:
            receiver_kind = "expression"
            receiver = receiver[:80]
    return CallSite(
        method=_text(node.child_by_field_name("name")),
        receiver=receiver,
        receiver_kind=receiver_kind,
        arguments=len(args.named_children) if args is not None else 0,
        line=node.start_point[0] + 1,
        receiver_type=receiver_type,
    )


def _is_literal(node: Node | None) -> bool:
    if node is None:
        return False
    if node.type == "unary_expression":
        operand = node.child_by_field_name("operand")
        return operand is not None and operand.type in _LITERALS
    return node.type in _LITERALS


def _is_literal_comparison(node: Node) -> bool:
    operator = node.child_by_field_name("operator")
    if operator is None or operator.type not in _COMPARISONS:
        return False
    return _is_literal(node.child_by_field_name("left")) or _is_literal(node.child_by_field_name("right"))


def _compared(node: Node) -> ComparedLiteral:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    operator = node.child_by_field_name("operator")
    literal, subject = (right, left) if _is_literal(right) else (left, right)
    written = operator.type if operator is not None else ""
    return ComparedLiteral(
        subject=_compact(subject)[:80] if subject is not None else "",
        operator=written if literal is right else _MIRRORED.get(written, written),
        literal=_text(literal),
        line=node.start_point[0] + 1,
        throws_when=throws_when(node),
    )


def _literal_argument(node: Node) -> Node | None:
    """The literal in `x.equals("a")`, `x.compareTo(new BigDecimal("100"))` or `BigDecimal.valueOf(5)`."""
    args = node.child_by_field_name("arguments")
    if args is None or len(args.named_children) != 1:
        return None
    arg = args.named_children[0]
    if _is_literal(arg):
        return arg
    if arg.type in ("object_creation_expression", "method_invocation"):
        inner = arg.child_by_field_name("arguments")
        if inner is not None and len(inner.named_children) == 1 and _is_literal(inner.named_children[0]):
            return inner.named_children[0]
    return None


def _is_literal_call(node: Node) -> bool:
    name = node.child_by_field_name("name")
    return name is not None and _text(name) in _LITERAL_METHODS and _literal_argument(node) is not None


def _literal_call(node: Node) -> ComparedLiteral:
    receiver = node.child_by_field_name("object")
    return ComparedLiteral(
        subject=_compact(receiver)[:80] if receiver is not None else "this",
        operator=_text(node.child_by_field_name("name")),
        literal=_text(_literal_argument(node)),
        line=node.start_point[0] + 1,
        throws_when=throws_when(node),
    )


def _null_check(node: Node) -> ComparedLiteral:
    """`Objects.requireNonNull(x, ..)` as the comparison it makes: it throws when `x == null`."""
    return ComparedLiteral(subject=null_checked(node) or "", operator="==", literal="null",
                           line=node.start_point[0] + 1, throws_when=True)


def _case_label(node: Node) -> ComparedLiteral:
    subject = ""
    switch = node.parent
    while switch is not None and switch.type not in ("switch_expression", "switch_statement"):
        switch = switch.parent
    if switch is not None:
        condition = switch.child_by_field_name("condition")
        if condition is not None and condition.type == "parenthesized_expression" and condition.named_children:
            condition = condition.named_children[0]
        subject = _compact(condition)[:80]
    return ComparedLiteral(subject=subject, operator="case", literal=_compact(node), line=node.start_point[0] + 1)


def _record_members(
    name: str,
    components: tuple[ParameterInfo, ...], constructors: list[MethodInfo], methods: list[MethodInfo]
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

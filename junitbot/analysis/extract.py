"""Parse one Java file into FileFacts: its types and members, and the type names each type uses (pure)."""

from __future__ import annotations

from collections import defaultdict

from junitbot.analysis.doc_samples import doc_call_samples
from junitbot.analysis.headers import class_header
from junitbot.analysis.lombok import add_builder_types, detect_builder, lombok_names
from junitbot.analysis.members import BodyFacts, class_info
from junitbot.analysis.models import ClassInfo, FileFacts, ImportInfo, ParseProblem, RawRef
from junitbot.analysis.parser import (
    Node,
    capture_members,
    capture_nodes,
    capture_static_uses,
    parse_java,
    syntax_errors,
)
from junitbot.analysis.refs import raw_refs, static_import_refs
from junitbot.analysis.samples import raw_call_samples
from junitbot.analysis.scopes import TYPE_KINDS, Shadows, TypeScopes, declaring_node
from junitbot.analysis.source import SourceText


def extract_file(source: bytes, path: str, *, is_test: bool = False, members: bool = True) -> FileFacts:
    """Everything one file declares and uses, with type names as written (resolution comes later).

    With `members=False` (what indexing needs) ClassInfo holds only the type's header: kind, modifiers,
    annotations, supertypes and span; fields, constructors, methods and body facts are left out.
    """
    text = SourceText(source)
    tree = parse_java(source)
    captured = capture_nodes(tree)
    imports = tuple(_import(node, text) for node in captured.get("import", ()))
    if members:
        captured.update(capture_members(tree))
    elif any(i.static for i in imports):
        captured.update(capture_static_uses(tree))
    package = text.text(captured["package"][0]) if "package" in captured else ""
    scopes = TypeScopes(captured.get("type", ()), package, text)
    shadows = Shadows(captured, text)
    refs = raw_refs(captured, scopes, shadows, text)
    refs.extend(static_import_refs(tree, imports, captured, scopes, text))
    lombok = lombok_names(imports)
    classes = _classes(captured, scopes, package=package, path=path, is_test=is_test, members=members, source=text,
                       lombok=lombok)
    return FileFacts(
        path=path,
        package=package,
        imports=imports,
        classes=tuple(classes),
        refs=tuple(sorted(set(refs), key=_ref_order)),
        call_samples=(*raw_call_samples(captured, scopes, shadows, imports, text),
                      *(doc_call_samples(text, scopes, imports) if not is_test else ())),
        type_parameters=_type_parameters(captured, scopes, text),
        problems=tuple(ParseProblem(path=path, line=line, severity="error", message=message)
                       for line, message in syntax_errors(tree)),
        is_test=is_test,
    )


def _classes(
    captured: dict[str, list[Node]], scopes: TypeScopes, *, package: str, path: str, is_test: bool, members: bool,
    source: SourceText, lombok: frozenset[str],
) -> list[ClassInfo]:
    """Every member type of the file (Lombok's builders included): full ClassInfo with members, or headers only."""
    if not members and not lombok and b"lombok." not in source.data:
        return [class_header(node, fqn, outer, package=package, path=path, is_test=is_test, scopes=scopes,
                             source=source) for node, fqn, outer in scopes.types]
    # Headers of a Lombok file need its members too: `@Builder` on a constructor adds a nested type.
    bodies = BodyFacts(captured if members else {}, source)
    full = add_builder_types([
        class_info(node, fqn, outer, package=package, path=path, is_test=is_test, scopes=scopes, bodies=bodies,
                   source=source, lombok=lombok)
        for node, fqn, outer in scopes.types
    ], lombok)
    if members:
        return detect_builder(full)
    return [_header_of(c) for c in full]


def _header_of(info: ClassInfo) -> ClassInfo:
    """The class without its members, as `class_header` makes it."""
    return info.model_copy(update={"fields": (), "constructors": (), "methods": (), "record_components": (),
                                   "enum_constants": (), "builder": None})


def _ref_order(ref: RawRef) -> tuple[str, str, str]:
    return ref.owner, ref.kind, ref.name


def _import(node: Node, source: SourceText) -> ImportInfo:
    static = wildcard = False
    name = ""
    for child in node.children:
        if child.type == "static":
            static = True
        elif child.type == "asterisk":
            wildcard = True
        elif child.type in ("identifier", "scoped_identifier"):
            name = source.compact(child)
    return ImportInfo(name=name, static=static, wildcard=wildcard)


def _type_parameters(
    captured: dict[str, list[Node]], scopes: TypeScopes, source: SourceText
) -> dict[str, tuple[str, ...]]:
    """The type parameters each member type declares (method type parameters are left out)."""
    names: dict[str, set[str]] = defaultdict(set)
    for node in captured.get("type_parameter", ()):
        declaration = declaring_node(node)
        owner = scopes.owner_at(node.start_byte)
        if owner is not None and declaration is not None and declaration.type in TYPE_KINDS:
            names[owner].add(source.text(node))
    return {owner: tuple(sorted(found)) for owner, found in sorted(names.items())}

"""The one parser and editor of test-class source: members, annotations, spans and imports (pure).

`parse_test_class(source)` reads a test class into a `JavaTestClass`: its package and imports, the
top-level class and the members of it and of its nested classes, each with its annotations, modifiers
and spans. A syntax error is a value (`syntax_errors`), never an exception. The editing functions return
new source text, edited at the byte offsets the parse found, never by searching the text; an edit the
source cannot take (no complete top-level class) raises `ClassEditError`.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Collection, Iterable, Iterator, Sequence

from junitbot.analysis.models import ClassMember, JavaImport, JavaTestClass, MemberKind, Span
from junitbot.analysis.parser import Node, Tree, node_text, parse_java, syntax_errors
from junitbot.errors import ClassEditError

_MEMBER_KINDS: dict[str, MemberKind] = {
    "method_declaration": "method",
    "constructor_declaration": "constructor",
    "compact_constructor_declaration": "constructor",
    "field_declaration": "field",
    "class_declaration": "class",
    "interface_declaration": "class",
    "enum_declaration": "class",
    "record_declaration": "class",
    "annotation_type_declaration": "class",
    "static_initializer": "initializer",
    "block": "initializer",
}
_ANNOTATIONS = ("marker_annotation", "annotation")
_STATEMENT = re.compile(r"^\s*import\s+(static\s+)?([\w$]+(?:\s*\.\s*[\w$]+)*?)(\s*\.\s*\*)?\s*;\s*$")
_INDENT = "    "

Edit = tuple[int, int, str]  # (start byte, end byte, replacement)


# -- parsing -----------------------------------------------------------------------------------------


def parse_test_class(source: str) -> JavaTestClass:
    """Parse a test class's source; syntax errors are listed in the result, never raised."""
    return parse_test_class_tree(source)[0]


def parse_test_class_tree(source: str) -> tuple[JavaTestClass, Tree]:
    """The parsed test class and the syntax tree it was read from, for passes that work on nodes (one parse)."""
    data = source.encode("utf-8")
    tree = parse_java(data)
    root = tree.root_node
    top = _top_class(root)
    name = node_text(top.child_by_field_name("name")) if top is not None else ""
    parsed = JavaTestClass(
        source=source,
        package=_package(root),
        imports=tuple(_import(c) for c in root.named_children if c.type == "import_declaration"),
        class_name=name or None,
        span=_span(top) if top is not None else None,
        members=tuple(_members(top, name, data)) if top is not None and name else (),
        syntax_errors=tuple(syntax_errors(tree)),
    )
    return parsed, tree


def member_node(tree: Tree, member: ClassMember) -> Node:
    """The declaration node of `member` in the tree it was parsed from (`parse_test_class_tree`)."""
    span = member.span
    node: Node | None = tree.root_node.descendant_for_byte_range(span.start_byte, span.end_byte)
    while node is not None and not (node.type in _MEMBER_KINDS and node.start_byte == span.start_byte
                                    and node.end_byte == span.end_byte):
        node = node.parent
    if node is None:
        raise ValueError(f"member {member.name or member.kind} is not in this tree")  # a bug: another tree
    return node


def _top_class(root: Node) -> Node | None:
    return next((c for c in root.named_children if c.type == "class_declaration"), None)


def _package(root: Node) -> str | None:
    declaration = next((c for c in root.named_children if c.type == "package_declaration"), None)
    return _compact(_qualified_name(declaration)) if declaration is not None else None


def _import(node: Node) -> JavaImport:
    return JavaImport(name=_compact(_qualified_name(node)), static=any(c.type == "static" for c in node.children),
                      wildcard=any(c.type == "asterisk" for c in node.children), span=_span(node))


def _qualified_name(node: Node | None) -> Node | None:
    children = node.named_children if node is not None else []
    return next((c for c in children if c.type in ("identifier", "scoped_identifier")), None)


def _members(owner_node: Node, owner: str, data: bytes) -> Iterator[ClassMember]:
    """The members of a class body in source order, each nested class followed by its own members."""
    body = owner_node.child_by_field_name("body")
    for node in body.named_children if body is not None else []:
        kind = _MEMBER_KINDS.get(node.type)
        if kind is None:
            continue
        member = _member(node, kind, owner, data)
        yield member
        if node.type == "class_declaration" and member.name:
            yield from _members(node, f"{owner}.{member.name}", data)


def _member(node: Node, kind: MemberKind, owner: str, data: bytes) -> ClassMember:
    annotations, modifiers = _modifiers(node)
    start, first = _extent_start(node, data)
    extent = Span(start_line=first, end_line=node.end_point[0] + 1, start_byte=start, end_byte=node.end_byte)
    return ClassMember(
        kind=kind, names=_names(node, kind), owner=owner, annotations=annotations, modifiers=modifiers,
        span=_span(node), extent=extent, body=_body(node),
        source=textwrap.dedent(data[start:node.end_byte].decode("utf-8", "replace")).strip("\n"),
    )


def _names(node: Node, kind: MemberKind) -> tuple[str, ...]:
    if kind == "field":
        return tuple(node_text(d.child_by_field_name("name")) for d in node.children_by_field_name("declarator"))
    if kind == "initializer":
        return ()
    return (node_text(node.child_by_field_name("name")),)


def _modifiers(node: Node) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(annotations by simple name, modifier keywords) of a declaration."""
    if node.type == "static_initializer":
        return (), ("static",)
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    children = modifiers.children if modifiers is not None else []
    annotations = tuple(_compact(c.child_by_field_name("name")).rsplit(".", 1)[-1]
                        for c in children if c.type in _ANNOTATIONS)
    return annotations, tuple(c.type for c in children if not c.is_named)


def _body(node: Node) -> Span | None:
    if node.type == "block":
        return _span(node)
    body = node.child_by_field_name("body")
    if body is None and node.type == "static_initializer":
        body = next((c for c in node.named_children if c.type == "block"), None)
    return _span(body) if body is not None else None


def _extent_start(node: Node, data: bytes) -> tuple[int, int]:
    """(byte, 1-based line) where the member's text begins: its javadoc right above, and the indentation before."""
    first = node
    previous = node.prev_named_sibling
    if previous is not None and previous.type == "block_comment" and data[previous.start_byte:].startswith(b"/**"):
        first = previous
    start = first.start_byte
    line_start = data.rfind(b"\n", 0, start) + 1
    if not data[line_start:start].strip():
        start = line_start
    return start, first.start_point[0] + 1


def _span(node: Node) -> Span:
    return Span(start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1, start_byte=node.start_byte,
                end_byte=node.end_byte)


def _compact(node: Node | None) -> str:
    return re.sub(r"\s+", "", node_text(node))


# -- editing -----------------------------------------------------------------------------------------


def remove_methods(source: str, names: Collection[str], *, tests_only: bool = True) -> str:
    """The source without the named methods, each with its annotations and the javadoc right above.

    Nested classes' methods count too. By default only test methods go: a helper that shares a test's
    name (an overload) stays.
    """
    removed = [m for m in parse_test_class(source).methods if m.name in names and (m.is_test or not tests_only)]
    return remove_members(source, removed)


def remove_members(source: str, members: Collection[ClassMember]) -> str:
    """The source without `members` (as `parse_test_class(source)` found them), each with its javadoc."""
    data = source.encode("utf-8")
    return _apply(data, [_removal(data, m) for m in members])


def _removal(data: bytes, member: ClassMember) -> Edit:
    """The edit that removes a member: its own lines whole (indentation and line end), and the blank line that set
    it apart, so no run of empty or indented-empty lines is left where it was."""
    start, end = member.extent.start_byte, member.span.end_byte
    line_start = data.rfind(b"\n", 0, start) + 1
    if data[line_start:start].strip() == b"":
        start = line_start
        before = data.rfind(b"\n", 0, max(line_start - 1, 0)) + 1
        if line_start > 0 and data[before:line_start].strip() == b"":
            start = before
    if data[end:end + 1] == b"\n":
        end += 1
    return start, end, ""


def insert_members(source: str, members: Sequence[str], *, imports: Iterable[str | JavaImport] = ()) -> str:
    """`members` (Java text, unindented) before the closing brace of the top-level class, and `imports` added.

    The brace is the class body's last child in the syntax tree, so nothing lands after the class, even
    behind a comment. Imports go as `add_imports` places them.
    """
    parsed, tree = parse_test_class_tree(source)
    top = _top_class(tree.root_node)
    body = top.child_by_field_name("body") if top is not None else None
    brace = body.children[-1] if body is not None and body.children else None
    if brace is None or brace.type != "}" or brace.is_missing:
        raise ClassEditError("the source has no complete top-level class to insert into")
    data = source.encode("utf-8")
    edits = _import_edits(parsed, tree.root_node, imports)
    if members:
        head = data[:brace.start_byte].decode("utf-8").rstrip()
        block = "".join(f"\n{_indented(m)}\n" for m in members)
        edits.append((len(head.encode("utf-8")), brace.start_byte, f"\n{block}"))
    return _apply(data, edits)


def add_imports(source: str, imports: Iterable[str | JavaImport]) -> str:
    """The source with the imports it lacks, each sorted into its group of the import block.

    Static imports come first, then a blank line and the others, each group sorted (as the generated
    shells write them); an import the source has, or one given twice, is left out. `imports` are
    statements (`import static a.B.c;`) or `JavaImport` records.
    """
    parsed, tree = parse_test_class_tree(source)
    return _apply(source.encode("utf-8"), _import_edits(parsed, tree.root_node, imports))


def remove_imports(source: str, imports: Iterable[str | JavaImport]) -> str:
    """The source without the given import declarations; the import block keeps its groups, one blank
    line between them, and no blank-line run is left where a group or the whole block went."""
    drop = {i.statement for i in map(_as_import, imports)}
    parsed = parse_test_class(source)
    spans = [i.span for i in parsed.imports if i.span is not None]
    if not spans or not any(i.statement in drop for i in parsed.imports):
        return source
    data = source.encode("utf-8")
    start = data.rfind(b"\n", 0, spans[0].start_byte) + 1
    end = spans[-1].end_byte
    kept: list[str] = []
    for line in data[start:end].decode("utf-8").split("\n"):
        match = _STATEMENT.match(line)
        if match is not None and _as_import(line).statement in drop:
            continue
        if line.strip() or (kept and kept[-1].strip()):
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    head, tail = data[:start].decode("utf-8"), data[end:].decode("utf-8")
    if kept:
        return head + "\n".join(kept) + tail
    return (head.rstrip("\n") + "\n\n" if head.strip() else "") + tail.lstrip("\n")


def check_statements(source: str) -> dict[str, tuple[Span, ...]]:
    """Each test method's checking statements (`assert...(..)`, `assertThat(..)...`, `verify(..)...`, `fail(..)`
    as statements of its body), in source order."""
    parsed, tree = parse_test_class_tree(source)
    found: dict[str, tuple[Span, ...]] = {}
    for member in parsed.test_methods:
        body = member_node(tree, member).child_by_field_name("body")
        statements = body.named_children if body is not None else []
        found[member.name] = tuple(_span(s) for s in statements if s.type == "expression_statement" and _checks(s))
    return found


def remove_statements(source: str, spans: Iterable[Span]) -> str:
    """The source without the statements at `spans` (from `check_statements`), each with its own line when it
    stood alone on it."""
    data = source.encode("utf-8")
    edits = []
    for span in spans:
        start, end = span.start_byte, span.end_byte
        line_start = data.rfind(b"\n", 0, start) + 1
        line_end = data.find(b"\n", end)
        if not data[line_start:start].strip() and line_end >= 0 and not data[end:line_end].strip():
            start, end = line_start, line_end + 1
        edits.append((start, end, ""))
    return _apply(data, edits)


def _checks(statement: Node) -> bool:
    """Whether an expression statement is a check: its call chain starts with an assert, verify or fail."""
    node = statement.named_children[0] if statement.named_children else None
    while node is not None and node.type == "method_invocation":
        inner = node.child_by_field_name("object")
        if inner is None or inner.type not in ("method_invocation", "identifier"):
            name = node_text(node.child_by_field_name("name"))
            return name.startswith(("assert", "verify", "fail"))
        if inner.type == "identifier":  # `Assertions.assertEquals(..)`, `Mockito.verify(..)`
            name = node_text(node.child_by_field_name("name"))
            return name.startswith(("assert", "verify", "fail"))
        node = inner
    return False


def rename_class(source: str, name: str) -> str:
    """The source with its top-level class, and that class's constructors, renamed to `name`.

    References to the old name inside bodies (`OldTest.class`) are left as they are.
    """
    parsed, tree = parse_test_class_tree(source)
    top = _top_class(tree.root_node)
    old = top.child_by_field_name("name") if top is not None else None
    if old is None or parsed.class_name is None:
        raise ClassEditError("the source declares no top-level class to rename")
    names = [old]
    for member in parsed.top_members:
        if member.kind == "constructor" and member.name == parsed.class_name:
            constructor = member_node(tree, member).child_by_field_name("name")
            names += [constructor] if constructor is not None else []
    return _apply(source.encode("utf-8"), [(n.start_byte, n.end_byte, name) for n in names])


def _import_edits(parsed: JavaTestClass, root: Node, imports: Iterable[str | JavaImport]) -> list[Edit]:
    """Insertions of the imports `parsed` lacks, static ones first: before the first import of their group
    that sorts after them, else after the group's last; a new group where `ImportSet.lines` puts it."""
    have = {i.statement for i in parsed.imports}
    wanted = sorted({i.statement: i for i in map(_as_import, imports) if i.statement not in have}.values(),
                    key=lambda i: (not i.static, _sort_key(i)))
    if not wanted:
        return []
    spans = [i.span for i in parsed.imports if i.span is not None]
    if not spans:
        return [_new_block(root, wanted)]
    edits: list[Edit] = []
    for static in (True, False):
        new = [i for i in wanted if i.static == static]
        group = [(i, i.span) for i in parsed.imports if i.static == static and i.span is not None]
        if new and not group:  # a group of its own: statics before the others, the others after the statics
            block = "\n".join(i.statement for i in new)
            at = spans[0].start_byte if static else spans[-1].end_byte
            edits.append((at, at, f"{block}\n\n" if static else f"\n\n{block}"))
        for item in new if group else []:
            later = next((span for i, span in group if _sort_key(i) > _sort_key(item)), None)
            if later is not None:
                edits.append((later.start_byte, later.start_byte, f"{item.statement}\n"))
            else:
                edits.append((group[-1][1].end_byte, group[-1][1].end_byte, f"\n{item.statement}"))
    return edits


def _new_block(root: Node, wanted: Sequence[JavaImport]) -> Edit:
    """The whole import block, right after the package declaration (or at the top without one)."""
    static = [i.statement for i in wanted if i.static]
    regular = [i.statement for i in wanted if not i.static]
    block = "\n".join([*static, *([""] if static and regular else []), *regular])
    package = next((c for c in root.named_children if c.type == "package_declaration"), None)
    if package is None:
        return 0, 0, f"{block}\n\n"
    return package.end_byte, package.end_byte, f"\n\n{block}"


def _as_import(item: str | JavaImport) -> JavaImport:
    if isinstance(item, JavaImport):
        return item
    match = _STATEMENT.match(item)
    if match is None:
        raise ClassEditError(f"not an import declaration: {item!r}")
    return JavaImport(name=re.sub(r"\s+", "", match[2]), static=bool(match[1]), wildcard=bool(match[3]))


def _sort_key(item: JavaImport) -> str:
    return f"{item.name}.*" if item.wildcard else item.name


def _indented(member: str) -> str:
    return "\n".join(f"{_INDENT}{line}" if line.strip() else "" for line in member.splitlines())


def _apply(data: bytes, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits; insertions at one offset keep the order they were made in."""
    ordered = sorted(enumerate(edits), key=lambda e: (e[1][0], e[0]))
    out: list[bytes] = []
    at = 0
    for _, (start, end, text) in ordered:
        out += [data[at:start], text.encode("utf-8")]
        at = max(at, end)
    out.append(data[at:])
    return b"".join(out).decode("utf-8")

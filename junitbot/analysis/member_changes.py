"""Which members of which Java types differ between two versions of a file (issue 15: method-level impact).

Members are compared as tree-sitter token sequences, so comments, whitespace and layout never count, and the
parameters and locals a member declares are compared by position rather than by name (a rename refactoring
gives no change). Types are matched by FQN, members by name and arity, overloads by parameter types.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from junitbot.analysis.changes import open_checkout
from junitbot.analysis.extract import extract_file
from junitbot.analysis.models import ClassInfo, MemberChange, MemberChangeKind, MethodInfo
from junitbot.analysis.parser import Node, descendants, parse_java
from junitbot.analysis.scopes import TYPE_KINDS
from junitbot.analysis.visibility import type_visible
from junitbot.errors import GitError

_COMMENTS = frozenset({"line_comment", "block_comment"})
_METHOD_NODES = frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration",
                           "annotation_type_element_declaration"})
_FIELD_NODES = frozenset({"field_declaration", "constant_declaration"})
_INITIALIZERS = frozenset({"static_initializer", "block"})
# Nodes whose `name` child declares a variable local to the member (a parameter, a local, a pattern variable).
_NAMED_VARIABLES = frozenset({"formal_parameter", "catch_formal_parameter", "enhanced_for_statement",
                              "instanceof_expression", "resource"})
_TYPE = "<type>"

Token = tuple[str, str]  # (node type, text): the unit two versions are compared in


@dataclass(frozen=True)
class _Tokens:
    """A member's tokens and, for each, the 1-based lines it covers (to say which head lines changed)."""

    tokens: tuple[Token, ...] = ()
    rows: tuple[tuple[int, int], ...] = ()

    def __add__(self, other: _Tokens) -> _Tokens:
        return _Tokens(self.tokens + other.tokens, self.rows + other.rows)


@dataclass(frozen=True)
class _Member:
    """One comparable member of a type: a method or constructor, a field or enum constant, or the type itself."""

    name: str  # method name, `<init>`, field name or `<type>`
    arity: int | None  # None for fields and the type
    parameters: tuple[str, ...]  # parameter types as written, for overload matching
    signature: tuple[Token, ...]
    declared: tuple[str, ...]  # the signature as MethodInfo says it, to compare with a compiler-made member
    body: _Tokens
    whole: _Tokens  # signature and body, what changed lines are read from
    span: tuple[int, int] | None
    visible: bool

    def label(self) -> str:
        return self.name if self.arity is None else f"{self.name}/{self.arity}"


@dataclass(frozen=True)
class _Type:
    info: ClassInfo
    header: _Tokens  # the declaration without its body
    initializers: _Tokens
    members: tuple[_Member, ...]
    visible: bool


@dataclass(frozen=True)
class _Version:
    """One side of a file: its types by FQN, its whole token sequence and whether it parsed cleanly."""

    types: dict[str, _Type]
    tokens: tuple[Token, ...]
    broken: bool
    lines: tuple[str, ...]


def member_changes(path: str, base_source: str | None, head_source: str | None) -> list[MemberChange]:
    """The members that differ between two versions of the Java file at `path` (None: the file is absent).

    A formatting- or comment-only edit gives no change; a file that does not parse on one side (tree-sitter
    recovers, but its structure cannot be trusted) gives a `<type>` change of every type either side declares.
    """
    base = _version(path, base_source) if base_source is not None else None
    head = _version(path, head_source) if head_source is not None else None
    if base is None and head is None:
        return []
    if base is None or head is None:
        present = head or base
        assert present is not None  # one side is there
        kind: MemberChangeKind = "added" if head is not None else "removed"
        return [MemberChange(owner=fqn, member=_TYPE, kind=kind, file=path, visible=t.visible,
                             lines=_span_lines(t.info) if head is not None else ())
                for fqn, t in sorted(present.types.items())]
    if base.tokens == head.tokens:
        return []
    if base.broken or head.broken:
        return _whole_file_changes(path, base, head)
    changes: list[MemberChange] = []
    for fqn in sorted(base.types.keys() | head.types.keys()):
        old, new = base.types.get(fqn), head.types.get(fqn)
        if old is None or new is None:
            present_type = new or old
            assert present_type is not None
            changes.append(MemberChange(owner=fqn, member=_TYPE, kind="added" if new else "removed", file=path,
                                        lines=_span_lines(new.info) if new else (), visible=present_type.visible))
        else:
            changes.extend(_type_changes(path, old, new))
    return changes


def changed_members(repo_root: Path, base: str, head: str | None, paths: Iterable[str]) -> list[MemberChange]:
    """`member_changes` of each `.java` path (relative to `repo_root`) between commit `base` and `head`
    (None: the work tree); a blob that cannot be read counts as absent."""
    checkout = open_checkout(repo_root)
    if checkout is None:
        raise GitError(f"{repo_root} is not inside a git work tree: cannot read the versions of changed files")
    changes: list[MemberChange] = []
    for path in sorted(set(paths)):
        if path.endswith(".java"):
            changes.extend(member_changes(path, _decoded(checkout.read_at(path, base)),
                                          _decoded(checkout.read_at(path, head))))
    return changes


def _decoded(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "replace")


# -- one version of a file ---------------------------------------------------------------------------------------


def _version(path: str, source: str) -> _Version:
    data = source.encode("utf-8")
    tree = parse_java(data)
    facts = extract_file(data, path, members=True)
    type_nodes = {(n.start_byte, n.end_byte): n for n in descendants(tree.root_node) if n.type in TYPE_KINDS}
    types: dict[str, _Type] = {}
    for info in facts.classes:
        node = type_nodes.get((info.span.start_byte, info.span.end_byte)) if info.span is not None else None
        if node is not None:  # Lombok's builder types have no node: their annotated source is compared instead
            types[info.fqn] = _type(info, node, visible=type_visible(info, {c.fqn: c for c in facts.classes}.get))
    return _Version(types=types, tokens=_leaves(tree.root_node).tokens, broken=tree.root_node.has_error,
                    lines=tuple(source.splitlines()))


def _type(info: ClassInfo, node: Node, *, visible: bool) -> _Type:
    body = node.child_by_field_name("body")
    header = _Tokens()
    for child in node.children:
        if body is None or child.id != body.id:
            header += _leaves(child)
    methods = {(m.span.start_byte, m.span.end_byte): m for m in (*info.constructors, *info.methods)
               if m.span is not None}
    members: list[_Member] = []
    initializers = _Tokens()
    for child in _body_children(body):
        if child.type in _METHOD_NODES:
            method = methods.get((child.start_byte, child.end_byte))
            if method is not None:
                members.append(_method(method, child, visible=visible))
        elif child.type in _FIELD_NODES:
            members.extend(_fields(child, visible=visible))
        elif child.type == "enum_constant":
            members.append(_field_member(_text(child.child_by_field_name("name")), _leaves(child), child,
                                         visible=visible))
        elif child.type in _INITIALIZERS:
            initializers += _leaves(child)
    members.extend(_method(m, None, visible=visible) for m in (*info.constructors, *info.methods) if m.span is None)
    return _Type(info=info, header=header, initializers=initializers, members=tuple(members), visible=visible)


def _body_children(body: Node | None) -> Iterator[Node]:
    for child in body.named_children if body is not None else ():
        if child.type == "enum_body_declarations":
            yield from child.named_children
        else:
            yield child


def _method(info: MethodInfo, node: Node | None, *, visible: bool) -> _Member:
    name = "<init>" if info.kind == "constructor" else info.name
    parameters = tuple(p.type.text + ("..." if p.varargs else "") for p in info.parameters)
    visible = visible and "private" not in info.modifiers
    declared = (*sorted(info.modifiers), *parameters, info.return_type.text if info.return_type else "")
    if node is None:  # made by the compiler or Lombok: only what MethodInfo says can differ
        return _Member(name, len(parameters), parameters, (), declared, _Tokens(), _Tokens(), None, visible)
    variables = _declared_variables(node)
    body_node = node.child_by_field_name("body")
    signature = _Tokens()
    for child in node.children:
        if body_node is None or child.id != body_node.id:
            signature += _leaves(child, variables)
    body = _leaves(body_node, variables) if body_node is not None else _Tokens()
    return _Member(name, len(parameters), parameters, signature.tokens, declared, body, signature + body,
                   (node.start_point[0] + 1, node.end_point[0] + 1), visible)


def _fields(node: Node, *, visible: bool) -> Iterator[_Member]:
    """One member per declarator of a field declaration: its modifiers and type with that declarator's tokens."""
    declarators = node.children_by_field_name("declarator")
    shared = _Tokens()
    for child in node.children:
        if child.type != "variable_declarator":
            shared += _leaves(child)
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    private = modifiers is not None and any(c.type == "private" for c in modifiers.children)
    for declarator in declarators:
        yield _field_member(_text(declarator.child_by_field_name("name")), shared + _leaves(declarator), node,
                            visible=visible and not private)


def _field_member(name: str, tokens: _Tokens, node: Node, *, visible: bool) -> _Member:
    return _Member(name, None, (), (), (), tokens, tokens, (node.start_point[0] + 1, node.end_point[0] + 1),
                   visible)


# -- tokens ------------------------------------------------------------------------------------------------------




def _leaves(node: Node, variables: dict[str, str] | None = None) -> _Tokens:
    """The node's tokens without comments; declared variables (`variables`) read by their position's name."""
    tokens: list[Token] = []
    rows: list[tuple[int, int]] = []
    for leaf in descendants(node):
        if leaf.child_count or leaf.type in _COMMENTS:
            continue
        text = _text(leaf)
        if variables and leaf.type == "identifier" and text in variables and not _member_name(leaf):
            text = variables[text]
        tokens.append(("MISSING " + leaf.type, "") if leaf.is_missing else (leaf.type, text))
        rows.append((leaf.start_point[0] + 1, leaf.end_point[0] + 1))
    return _Tokens(tuple(tokens), tuple(rows))


def _member_name(identifier: Node) -> bool:
    """An identifier naming a method or field of something (`x.size()`, `p.x`, `A::b`), never a variable."""
    parent = identifier.parent
    if parent is None:
        return False
    if parent.type == "method_invocation":
        name = parent.child_by_field_name("name")
        return name is not None and name.id == identifier.id
    if parent.type == "field_access":
        field = parent.child_by_field_name("field")
        return field is not None and field.id == identifier.id
    previous = identifier.prev_sibling
    return parent.type == "method_reference" and previous is not None and previous.type == "::"


def _declared_variables(member: Node) -> dict[str, str]:
    """The parameters and locals a member declares, each mapped to `$n` by order of declaration."""
    names: dict[str, str] = {}
    for node in descendants(member):
        for identifier in _variable_names(node):
            names.setdefault(_text(identifier), f"${len(names)}")
    return names


def _variable_names(node: Node) -> list[Node]:
    if node.type in _NAMED_VARIABLES:
        name = node.child_by_field_name("name")
        return [name] if name is not None and name.type == "identifier" else []
    if node.type == "variable_declarator" and node.parent is not None and node.parent.type in (
            "local_variable_declaration", "spread_parameter"):
        name = node.child_by_field_name("name")
        return [name] if name is not None else []
    if node.type == "lambda_expression":
        parameters = node.child_by_field_name("parameters")
        if parameters is not None and parameters.type == "identifier":
            return [parameters]
        if parameters is not None and parameters.type == "inferred_parameters":
            return [c for c in parameters.named_children if c.type == "identifier"]
    return []


def _text(node: Node | None) -> str:
    return "" if node is None or node.text is None else node.text.decode("utf-8", "replace")


# -- comparing two versions --------------------------------------------------------------------------------------


def _type_changes(path: str, old: _Type, new: _Type) -> list[MemberChange]:
    changes: list[MemberChange] = []
    if old.header.tokens != new.header.tokens or old.initializers.tokens != new.initializers.tokens:
        kind: MemberChangeKind = "type" if old.header.tokens != new.header.tokens else "body"
        lines = _changed_lines(old.header + old.initializers, new.header + new.initializers, None)
        changes.append(MemberChange(owner=new.info.fqn, member=_TYPE, kind=kind, file=path, lines=lines,
                                    visible=new.visible))
    for before, after in _paired(old.members, new.members):
        change = _member_change(path, new.info.fqn, before, after)
        if change is not None:
            changes.append(change)
    return changes


def _member_change(path: str, owner: str, before: _Member | None, after: _Member | None) -> MemberChange | None:
    if after is None:
        assert before is not None
        return MemberChange(owner=owner, member=before.label(), kind="removed", file=path, visible=before.visible)
    if before is None:
        lines = tuple(range(after.span[0], after.span[1] + 1)) if after.span else ()
        return MemberChange(owner=owner, member=after.label(), kind="added", file=path, lines=lines,
                            visible=after.visible)
    kind: MemberChangeKind
    if after.arity is None:
        if before.body.tokens == after.body.tokens:
            return None
        kind = "field"
    elif before.arity != after.arity or (before.signature != after.signature if before.span and after.span
                                         else before.declared != after.declared):
        kind = "signature"
    elif before.body.tokens != after.body.tokens:
        kind = "body"
    else:
        return None
    return MemberChange(owner=owner, member=before.label(), kind=kind, file=path,
                        lines=_changed_lines(before.whole, after.whole, after.span),
                        visible=before.visible or after.visible)


def _paired(old: Sequence[_Member], new: Sequence[_Member]) -> Iterator[tuple[_Member | None, _Member | None]]:
    """Members of two versions of a type, paired: the same name and parameter types, else the same name and
    arity, else the one member of a name on each side (an overload that changed its arity)."""
    left, right = list(old), list(new)
    for key in (_overload, _name_and_arity):
        for a in list(left):
            match = [b for b in right if key(a) == key(b)]
            if len(match) == 1 and len([x for x in left if key(x) == key(a)]) == 1:
                left.remove(a)
                right.remove(match[0])
                yield a, match[0]
    for a in list(left):
        others = [x for x in left if x.name == a.name and (a.arity is None) == (x.arity is None)]
        match = [b for b in right if b.name == a.name and (a.arity is None) == (b.arity is None)]
        if len(others) == 1 and len(match) == 1:
            left.remove(a)
            right.remove(match[0])
            yield a, match[0]
    yield from ((a, None) for a in left)
    yield from ((None, b) for b in right)


def _overload(member: _Member) -> tuple[str, int | None, tuple[str, ...]]:
    return member.name, member.arity, member.parameters


def _name_and_arity(member: _Member) -> tuple[str, int | None, tuple[str, ...]]:
    return member.name, member.arity, ()


def _changed_lines(before: _Tokens, after: _Tokens, span: tuple[int, int] | None) -> tuple[int, ...]:
    """The head lines of the tokens that differ (for a deletion, the token after it, else the one before)."""
    lines: set[int] = set()
    matcher = difflib.SequenceMatcher(None, before.tokens, after.tokens, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        picked = range(j1, j2) if j2 > j1 else [min(j1, len(after.rows) - 1)] if after.rows else []
        for index in picked:
            first, last = after.rows[index]
            lines.update(range(first, last + 1))
    if span is not None:
        lines = {line for line in lines if span[0] <= line <= span[1]}
    return tuple(sorted(lines))


def _span_lines(info: ClassInfo) -> tuple[int, ...]:
    return tuple(range(info.span.start_line, info.span.end_line + 1)) if info.span is not None else ()


def _whole_file_changes(path: str, base: _Version, head: _Version) -> list[MemberChange]:
    """A `<type>` change of every type of a file that does not parse on one side, with the file's changed lines
    inside each head type."""
    changed: set[int] = set()
    matcher = difflib.SequenceMatcher(None, base.lines, head.lines, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            changed.update(range(j1 + 1, max(j2, j1 + 1) + 1))
    changes = []
    for fqn in sorted(base.types.keys() | head.types.keys()):
        present = head.types.get(fqn) or base.types[fqn]
        span = _span_lines(head.types[fqn].info) if fqn in head.types else ()
        lines = tuple(line for line in span if line in changed)
        changes.append(MemberChange(owner=fqn, member=_TYPE, kind="type", file=path, lines=lines,
                                    visible=present.visible))
    return changes

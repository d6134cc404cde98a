"""Which types use the members a change touched, and through which of their own members (issue 15).

A use is found in the graph's ClassInfo (call sites, created types) and, where those cannot say it (method
references, field reads, type names in a body), in the identifiers of the user's source. When unsure, a use
is counted: a missed user would miss a behaviour change, an extra one only costs running its tests.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from junitbot.analysis.graph import CodeGraph, TypeRow
from junitbot.analysis.models import CallSite, ClassInfo, MemberChange, MemberUse, MethodInfo
from junitbot.analysis.parser import Node, parse_java
from junitbot.analysis.scopes import TYPE_KINDS
from junitbot.analysis.visibility import type_visible

_TYPE = "<type>"
_METHOD_NODES = frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration",
                           "annotation_type_element_declaration"})
_NAMES = frozenset({"identifier", "type_identifier"})
_DECLARATIONS = frozenset({"variable_declarator", "enum_constant", "formal_parameter", "catch_formal_parameter",
                           "enhanced_for_statement", "resource", "method_declaration", "constructor_declaration",
                           "compact_constructor_declaration"})
_CREATES = "new "  # a mention `new Owner(..)` or `Owner::new` counts as this prefix and the type's simple name

Category = Literal["method", "constructor", "field", "type"]


@dataclass(frozen=True)
class _Reached:
    """A member whose behaviour may differ: a changed one, or one that uses it (`origin` is the changed one)."""

    owner: str
    name: str  # method name, `<init>`, field name or `<type>`
    arity: int | None  # None: any arity (a removed or re-signed member, which callers name at another arity)
    category: Category
    visible: bool
    origin: str


def users_of(graph: CodeGraph, changes: Sequence[MemberChange], *, depth: int = 3) -> dict[str, tuple[MemberUse, ...]]:
    """The production types that use the changed members, directly or through up to `depth` hops of members
    that use them, with each use; keyed by the using type's FQN. Test types are not users."""
    return change_impact(graph, changes, depth=depth)[0]


def change_impact(graph: CodeGraph, changes: Sequence[MemberChange], *,
                  depth: int = 3) -> tuple[dict[str, tuple[MemberUse, ...]], dict[str, tuple[str, ...]]]:
    """`users_of`, and by type the names of the methods whose behaviour the changes may alter: the changed ones,
    those of their own type that call them (a public method over a fixed private helper), and the users' methods
    that do (`<init>` for a constructor). One walk gives both."""
    return _Users(graph).of(changes, depth)


class _Users:
    def __init__(self, graph: CodeGraph) -> None:
        self.graph = graph
        self._infos: dict[str, ClassInfo | None] = {}
        self._mentions: dict[str, dict[str, Counter[str]]] = {}

    @cached_property
    def rows(self) -> dict[str, TypeRow]:
        return {row.fqn: row for row in self.graph.types()}

    @cached_property
    def supertypes(self) -> dict[str, tuple[str, ...]]:
        return self.graph.supertype_map()

    @cached_property
    def subtypes(self) -> dict[str, set[str]]:
        below: dict[str, set[str]] = {}
        for fqn, supers in self.supertypes.items():
            for parent in supers:
                below.setdefault(parent, set()).add(fqn)
        return below

    def info(self, fqn: str) -> ClassInfo | None:
        if fqn not in self._infos:
            self._infos[fqn] = self.graph.class_info(fqn)
        return self._infos[fqn]

    def of(self, changes: Sequence[MemberChange],
           depth: int) -> tuple[dict[str, tuple[MemberUse, ...]], dict[str, tuple[str, ...]]]:
        found: dict[str, dict[tuple[str, str], MemberUse]] = {}
        queue: deque[tuple[_Reached, int]] = deque((_reached(c), 0) for c in changes)
        seen = {item for item, _ in queue}
        while queue:
            item, hops = queue.popleft()
            for user, via, line in self._uses(item):
                following = hops if user == item.owner else hops + 1
                if following > depth:
                    continue
                if user != item.owner:
                    found.setdefault(user, {}).setdefault((item.origin, via), MemberUse(
                        user=user, member=item.origin, via=via, line=line))
                nxt = self._as_reached(user, via, item.origin)
                if nxt is not None and nxt not in seen and (following < depth or user == item.owner):
                    seen.add(nxt)
                    queue.append((nxt, following))
        methods: dict[str, set[str]] = {}
        for item in seen:
            if item.category in ("method", "constructor"):
                methods.setdefault(item.owner, set()).add(item.name)
        for user, uses in found.items():
            methods.setdefault(user, set()).update(u.via.rpartition("/")[0] for u in uses.values() if "/" in u.via)
        return ({user: tuple(sorted(uses.values(), key=lambda u: (u.member, u.via)))
                 for user, uses in sorted(found.items())},
                {owner: tuple(sorted(names)) for owner, names in sorted(methods.items())})

    def _as_reached(self, user: str, via: str, origin: str) -> _Reached | None:
        info = self.info(user)
        if info is None:
            return None
        visible = type_visible(info, self.info)
        if via == _TYPE:
            return _Reached(user, _TYPE, None, "type", visible, origin)
        name, _, arity = via.rpartition("/")
        method = next((m for m in (*info.constructors, *info.methods) if _label(m) == via), None)
        visible = visible and method is not None and "private" not in method.modifiers
        category: Category = "constructor" if name == "<init>" else "method"
        return _Reached(user, name, int(arity), category, visible, origin)

    # -- who may use a member, and how ----------------------------------------------------------------------

    def _uses(self, item: _Reached) -> Iterator[tuple[str, str, int | None]]:
        """(user, the user's member that uses `item`, line) for each use, the owner's own included."""
        family = self._family(item.owner)
        dependents = {source for fqn in (self._related(item.owner) if item.category == "method" else {item.owner})
                      for source, _ in self.graph.dependents(fqn)} if item.visible else set()
        for user in sorted(family | dependents):
            info = self.info(user)
            row = self.rows.get(user)
            if info is None or row is None or row.is_test:
                continue
            uses = list(self._uses_in(item, info))
            if not uses and item.category == "type" and user in dependents and user != item.owner:
                uses = [(_TYPE, None)]  # it depends on the type, somewhere we cannot point at
            for via, line in uses:
                yield user, via, line

    def _family(self, fqn: str) -> set[str]:
        """The types of `fqn`'s top-level type (they see each other's private members), `fqn` included."""
        top = self._top(fqn)
        return {row.fqn for row in self.rows.values() if self._top(row.fqn) == top} | {fqn}

    def _top(self, fqn: str) -> str:
        row = self.rows.get(fqn)
        while row is not None and row.outer:
            fqn, row = row.outer, self.rows.get(row.outer)
        return fqn

    def _related(self, fqn: str) -> set[str]:
        """`fqn` with its repo supertypes and subtypes, transitively: a call through any of them may dispatch to
        `fqn`'s member."""
        related = {fqn}
        for links in (self.supertypes, self.subtypes):
            frontier = [fqn]
            while frontier:
                nxt = [t for current in frontier for t in links.get(current, ()) if t not in related]
                related.update(nxt)
                frontier = nxt
        return related

    def _uses_in(self, item: _Reached, user: ClassInfo) -> Iterator[tuple[str, int | None]]:
        mentions = self._mentions_of(user)
        simple = item.owner.rsplit(".", 1)[-1]
        # Overloads of one arity share a label, and so their mentions: they are judged together.
        overloads: dict[str, list[MethodInfo]] = {}
        for method in (*user.constructors, *user.methods):
            overloads.setdefault(_label(method), []).append(method)
        for label, methods in overloads.items():
            if user.fqn == item.owner and label == f"{item.name}/{item.arity}":
                continue  # the member itself
            used = self._use_in_methods(item, user, methods, mentions.get(label, Counter()), simple)
            if used is not None:
                yield label, used if used > 0 else None
        word = {"type": simple, "constructor": _CREATES + simple}.get(item.category, item.name)
        if mentions.get(_TYPE, Counter())[word] and not (user.fqn == item.owner and item.category == "type"):
            yield _TYPE, None  # in a field's initializer, or the header

    def _use_in_methods(self, item: _Reached, user: ClassInfo, methods: Sequence[MethodInfo], mentions: Counter[str],
                        simple: str) -> int | None:
        """The line of the use of `item` by `methods` (overloads of one label, whose `mentions` are shared; 0 when no
        single line says it), or None for no use."""
        if item.category == "method":
            calls = [c for method in methods for c in method.calls if c.method == item.name]
            for call in calls:
                if self._arity_fits(item, call.arguments) and self._receiver_fits(item, user, call):
                    return call.line
            return 0 if mentions[item.name] > len(calls) else None  # a method reference, `Owner::name`
        if item.category == "constructor":
            created = any(t.fqn == item.owner or (t.fqn is None and t.name.rsplit(".", 1)[-1] == simple)
                          for method in methods for t in method.creates)
            inherits = methods[0].kind == "constructor" and item.owner in self._ancestors(user.fqn)
            return 0 if created or inherits else None
        if item.category == "field":
            return 0 if mentions[item.name] else None
        return 0 if mentions[simple] else None

    def _arity_fits(self, item: _Reached, arguments: int) -> bool:
        if item.arity is None or item.arity == arguments:
            return True
        owner = self.info(item.owner)
        varargs = owner is not None and any(
            m.name == item.name and len(m.parameters) == item.arity and m.parameters and m.parameters[-1].varargs
            for m in owner.methods)
        return varargs and arguments >= item.arity - 1

    def _receiver_fits(self, item: _Reached, user: ClassInfo, call: CallSite) -> bool:
        """Whether the call may be made on `item`'s owner: its type is related, unknown, or the call is
        unqualified where the owner's members are in scope (or the user declares no such method itself)."""
        receiver = call.receiver_type
        if receiver is not None:
            related = self._related(item.owner)
            if receiver.fqn is not None:
                return receiver.fqn in related
            return receiver.name.rsplit(".", 1)[-1] in {fqn.rsplit(".", 1)[-1] for fqn in related}
        if call.receiver_kind in ("local", "expression"):
            return True
        inside = user.fqn in self._family(item.owner) or item.owner in self._ancestors(user.fqn)
        if call.receiver_kind == "this" or inside:
            return inside
        return not any(m.name == item.name for m in user.methods)  # a static import, or an outer type's

    def _ancestors(self, fqn: str) -> set[str]:
        found: set[str] = set()
        frontier = [fqn]
        while frontier:
            frontier = [s for current in frontier for s in self.supertypes.get(current, ()) if s not in found]
            found.update(frontier)
        return found

    # -- identifiers in a user's source -------------------------------------------------------------------

    def _mentions_of(self, info: ClassInfo) -> dict[str, Counter[str]]:
        """The identifiers each member of `info` names, by member label; `<type>` for the rest of the type."""
        if info.fqn not in self._mentions:
            source = self.graph.source(info.file)
            self._mentions[info.fqn] = _mentions(source, info) if source is not None and info.span else {}
        return self._mentions[info.fqn]


def _mentions(source: bytes, info: ClassInfo) -> dict[str, Counter[str]]:
    assert info.span is not None
    tree = parse_java(source)
    node = tree.root_node.descendant_for_byte_range(info.span.start_byte, info.span.end_byte)
    while node is not None and not (node.type in TYPE_KINDS and node.start_byte == info.span.start_byte):
        node = node.parent
    if node is None:
        return {}
    labels = {(m.span.start_byte, m.span.end_byte): _label(m) for m in (*info.constructors, *info.methods)
              if m.span is not None}
    found: dict[str, Counter[str]] = {_TYPE: Counter()}
    body = node.child_by_field_name("body")
    for child in node.children:
        if body is None or child.id != body.id:
            found[_TYPE].update(_names(child))
    for child in _members(body):
        if child.type in TYPE_KINDS:
            continue  # a nested type is its own ClassInfo
        label = labels.get((child.start_byte, child.end_byte)) if child.type in _METHOD_NODES else None
        found.setdefault(label or _TYPE, Counter()).update(_names(child))
    return found


def _members(body: Node | None) -> Iterator[Node]:
    for child in body.named_children if body is not None else ():
        if child.type == "enum_body_declarations":
            yield from child.named_children
        else:
            yield child


def _names(node: Node) -> Iterator[str]:
    """The identifiers under `node` that name something, not the ones that declare a variable or constant."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _NAMES and current.text is not None and not _declares(current):
            yield current.text.decode("utf-8", "replace")
        created = _created(current)
        if created:
            yield _CREATES + created
        stack.extend(current.children)


def _created(node: Node) -> str:
    """The simple name of the type `new T(..)` or `T::new` creates; "" for any other node."""
    if node.type == "object_creation_expression":
        created = node.child_by_field_name("type")
    elif node.type == "method_reference" and node.children and node.children[-1].type == "new":
        created = node.children[0]
    else:
        return ""
    text = created.text.decode("utf-8", "replace") if created is not None and created.text else ""
    return text.split("<", 1)[0].rsplit(".", 1)[-1].strip()


def _declares(identifier: Node) -> bool:
    """The name a declaration gives (a variable, parameter, record component, constant or method), not a use."""
    parent = identifier.parent
    if parent is None or parent.type not in _DECLARATIONS:
        return False
    name = parent.child_by_field_name("name")
    return name is not None and name.id == identifier.id


def _label(method: MethodInfo) -> str:
    return f"{'<init>' if method.kind == 'constructor' else method.name}/{len(method.parameters)}"


def _reached(change: MemberChange) -> _Reached:
    """What a change makes differ, and how a user would name it."""
    name, slash, arity = change.member.rpartition("/")
    any_arity = change.kind in ("signature", "removed")
    if change.member == _TYPE:
        return _Reached(change.owner, _TYPE, None, "type", change.visible, change.key)
    if slash and arity.isdigit():
        category: Category = "constructor" if name == "<init>" else "method"
        return _Reached(change.owner, name, None if any_arity else int(arity), category, change.visible, change.key)
    return _Reached(change.owner, change.member, None, "field", change.visible, change.key)

"""A generated test class once the methods validation dropped are gone: what is left there for them alone (pure).

The named-fixtures pass gives a value built by two or more tests one helper (`csvInstance()`), and numbers the names
of further ones (`csvInstance2()`); the set-up builds the instance most tests use. After validation drops what adds
nothing, a helper may serve one test alone, a number may stand where nothing else is left, and a set-up may build what
every test left builds again before using it; a maintainer would write none of these. `tidy_generated` puts a helper
used once back where it is used, gives a numbered helper the lowest number still free (none for the first), and
removes a `@BeforeEach` whose every assignment each test overwrites before reading. Each edit keeps what the tests
check: a helper goes only where it is a private static method without parameters whose body returns one expression,
called once and named nowhere else (no `@MethodSource`), as the whole value of an assignment or of a declared (not
`var`) local; a name changes only where every use of it is a plain call; a set-up goes only where it does nothing but
assign fields of the class, from values that read no field (a mock's), and no other member reads them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from junitbot.analysis.models import ClassMember
from junitbot.analysis.parser import Node, Tree, node_text
from junitbot.analysis.testclass import member_node, parse_test_class_tree, remove_members

_NUMBERED = re.compile(r"^(.*[^\d])(\d+)$")
# What stands as a value without parentheses wherever a call stood.
_PRIMARY = frozenset({
    "method_invocation", "object_creation_expression", "array_creation_expression", "field_access", "identifier",
    "string_literal", "character_literal", "decimal_integer_literal", "hex_integer_literal",
    "decimal_floating_point_literal", "true", "false", "null_literal", "parenthesized_expression", "class_literal",
    "array_access", "this",
})


@dataclass(frozen=True)
class _Helper:
    member: ClassMember
    returned: Node  # the expression the body returns
    calls: tuple[Node, ...]  # every `name()` in the file outside the helper


def tidy_generated(source: str) -> str:
    """`source` with each value helper called once inlined where it is called, numbered helper names made the lowest
    free, and a set-up every test overwrites removed (see the module's docstring); unchanged where it does not
    parse."""
    return _without_dead_set_up(_renumbered(_inline_single_uses(source)))


def _without_dead_set_up(source: str) -> str:
    parsed, tree = parse_test_class_tree(source)
    if parsed.syntax_errors or any(m.kind == "class" for m in parsed.members):
        return source  # a nested (`@Nested`) class's tests run the outer set-up too: not judged here
    fields = {name for m in parsed.top_members if m.kind == "field" for name in m.names}
    tests = [m for m in parsed.top_members if m.is_test]
    others = [m for m in parsed.top_members if m.kind != "field" and not m.is_test]
    dead = []
    for set_up in (m for m in others if "BeforeEach" in m.annotations):
        assigned = _assigned_fields(member_node(tree, set_up), fields)
        if not assigned or any(_mentions(member_node(tree, m), assigned) for m in others if m is not set_up):
            continue
        if tests and all(_overwritten_first(member_node(tree, t), assigned) for t in tests):
            dead.append(set_up)
    return remove_members(source, dead) if dead else source


def _assigned_fields(method: Node, fields: set[str]) -> set[str]:
    """The fields a method's body does nothing but assign (`field = ...;` or `this.field = ...;` statements whose
    values read no field: a value built from a mock could have told the mock something a test verifies); empty where
    it does anything else."""
    body = method.child_by_field_name("body")
    assigned: set[str] = set()
    for statement in body.named_children if body is not None else []:
        name = _assigned(statement)
        right = statement.named_children[0].child_by_field_name("right") if name is not None else None
        if name is None or name not in fields or right is None or _mentions(right, fields):
            return set()
        assigned.add(name)
    return assigned


def _assigned(statement: Node) -> str | None:
    """The field or local a statement `x = value;` (or `this.x = value;`) assigns; None for any other statement."""
    expression = statement.named_children[0] if statement.type == "expression_statement" else None
    if expression is None or expression.type != "assignment_expression" or node_text(
            expression.child_by_field_name("operator")) != "=":
        return None
    left = expression.child_by_field_name("left")
    if left is not None and left.type == "field_access" and node_text(left.child_by_field_name("object")) == "this":
        left = left.child_by_field_name("field")
    return node_text(left) if left is not None and left.type == "identifier" else None


def _overwritten_first(test: Node, fields: set[str]) -> bool:
    """Whether the test reads none of `fields` before it assigns it, in a statement of its body's top level."""
    body = test.child_by_field_name("body")
    pending = set(fields)
    for statement in body.named_children if body is not None else []:
        mentioned = {name for name in pending if _mentions(statement, {name})}
        if not mentioned:
            continue
        name = _assigned(statement)
        right = statement.named_children[0].child_by_field_name("right") if name is not None else None
        if name is None or mentioned != {name} or right is None or _mentions(right, {name}):
            return False
        pending.discard(name)
    return True


def _mentions(node: Node, names: set[str]) -> bool:
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == "identifier" and node_text(current) in names:
            return True
        pending.extend(current.children)
    return False


def _inline_single_uses(source: str) -> str:
    parsed, tree = parse_test_class_tree(source)
    if parsed.syntax_errors:
        return source
    data = source.encode("utf-8")
    inlined = [h for h in _helpers(parsed.members, tree, data)
               if len(h.calls) == 1 and _inlinable_at(h.calls[0]) and _only_called(h, data)]
    if not inlined:
        return source
    edits = [(h.calls[0].start_byte, h.calls[0].end_byte, _as_value(h.returned)) for h in inlined]
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text.encode("utf-8") + data[end:]
    edited = data.decode("utf-8")
    # The helpers' own spans moved with the edits above them: parse again to remove them.
    names = {h.member.name for h in inlined}
    again, _ = parse_test_class_tree(edited)
    return remove_members(edited, [m for m in again.top_members if m.kind == "method" and m.name in names])


def _renumbered(source: str) -> str:
    parsed, tree = parse_test_class_tree(source)
    if parsed.syntax_errors:
        return source
    data = source.encode("utf-8")
    declared = {name for m in parsed.members for name in m.names}
    groups: dict[str, list[tuple[int, _Helper]]] = {}
    for helper in _helpers(parsed.members, tree, data):
        match = _NUMBERED.match(helper.member.name)
        base, number = (match[1], int(match[2])) if match else (helper.member.name, 1)
        groups.setdefault(base, []).append((number, helper))
    edits: list[tuple[int, int, str]] = []
    for base, helpers in groups.items():
        for wanted, (number, helper) in enumerate(sorted(helpers, key=lambda pair: pair[0]), 1):
            name = base if wanted == 1 else f"{base}{wanted}"
            if wanted == number or name in declared or not _only_called(helper, data):
                continue
            declared.add(name)
            node = member_node(tree, helper.member).child_by_field_name("name")
            edits += [(n.start_byte, n.end_byte, name) for n in (node, *(c.child_by_field_name("name")
                                                                         for c in helper.calls)) if n is not None]
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text.encode("utf-8") + data[end:]
    return data.decode("utf-8")


def _helpers(members: tuple[ClassMember, ...], tree: Tree, data: bytes) -> Iterator[_Helper]:
    """The top-level class's private static methods without parameters whose body is `return <expression>;`."""
    top = [m for m in members if "." not in m.owner]
    calls = _plain_calls(tree.root_node)  # one walk of the file for every helper
    for member in top:
        if member.kind != "method" or member.is_test or not {"private", "static"} <= set(member.modifiers):
            continue
        node = member_node(tree, member)
        parameters = node.child_by_field_name("parameters")
        body = node.child_by_field_name("body")
        if parameters is None or parameters.named_child_count or body is None:
            continue
        statements = body.named_children
        if len(statements) != 1 or statements[0].type != "return_statement" or not statements[0].named_children:
            continue
        outside = tuple(c for c in calls.get(member.name, ()) if not node.start_byte <= c.start_byte < node.end_byte)
        yield _Helper(member=member, returned=statements[0].named_children[0], calls=outside)


def _plain_calls(root: Node) -> dict[str, list[Node]]:
    """The calls without a receiver or arguments (`name()`) in the file, by name, in source order (iterative: a
    generated expression nests as deep as it likes)."""
    found: dict[str, list[Node]] = {}
    pending = [root]
    while pending:
        node = pending.pop()
        if node.type == "method_invocation" and node.child_by_field_name("object") is None:
            arguments = node.child_by_field_name("arguments")
            if arguments is not None and not arguments.named_child_count:
                found.setdefault(node_text(node.child_by_field_name("name")), []).append(node)
        pending.extend(reversed(node.children))
    return found


def _inlinable_at(call: Node) -> bool:
    """Whether the call is the whole value of an assignment or of a local whose type is written (not `var`)."""
    parent = call.parent
    if parent is None:
        return False
    if parent.type == "assignment_expression":
        return parent.child_by_field_name("right") == call
    if parent.type == "variable_declarator" and parent.child_by_field_name("value") == call:
        declaration = parent.parent
        written = declaration.child_by_field_name("type") if declaration is not None else None
        return written is not None and node_text(written) != "var"
    return False


def _as_value(expression: Node) -> str:
    text = node_text(expression)
    return text if expression.type in _PRIMARY else f"({text})"


def _only_called(helper: _Helper, data: bytes) -> bool:
    """Whether the helper's name appears nowhere but in its declaration and its plain calls (no method reference,
    no `@MethodSource` string, no field or local of that name)."""
    words = len(re.findall(rb"(?<![\w$])" + re.escape(helper.member.name.encode()) + rb"(?![\w$])", data))
    return words == 1 + len(helper.calls)

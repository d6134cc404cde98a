"""What a test class shares between its test methods: its fixtures and one-line helpers (pure, over one parse).

A fixture is a value the tests use without building it: a field with an initializer (`static final ProductId BOOK
= ProductId.of("book")`), a field assigned in a set-up method (`order = new Order(..)` in `@BeforeEach`), or a
set-up method's own local; with the set-up's later calls that configure it (`formatter.setWidth(80)`). A helper
is a method whose body is one `return <expression>;` (`line(product, 2, "12.50")`): a setup mined from a test
(`analysis.setups`) inlines it, so the statements stand without the test class.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from junitbot.analysis.parser import Node
from junitbot.analysis.source import SourceText

TYPES = {"class_declaration", "enum_declaration", "record_declaration", "interface_declaration"}
_SET_UPS = {"BeforeEach", "Before", "BeforeAll", "BeforeClass"}
_TESTS = {"Test", "ParameterizedTest", "RepeatedTest", "TestTemplate", "TestFactory"}
_COMMENTS = {"line_comment", "block_comment"}


@dataclass(frozen=True)
class Fixture:
    """A value tests use by name: its type as written, the expression that builds it, and the set-up's calls that
    configure it afterwards; `order` ranks fixtures as the file builds them."""

    name: str
    type_text: str
    value: Node
    order: int
    configure: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Helper:
    """A method whose body is one `return <expression>;`, with its parameters' names."""

    parameters: tuple[str, ...]
    returns: Node


@dataclass(frozen=True)
class Shared:
    """What a test file's classes share: field types, fixtures, one-line helpers, every method's name."""

    fields: dict[str, str] = field(default_factory=dict)
    fixtures: dict[str, Fixture] = field(default_factory=dict)
    helpers: dict[str, Helper] = field(default_factory=dict)
    methods: frozenset[str] = frozenset()


def shared_of(root: Node, text: SourceText) -> Shared:
    """The fixtures and helpers of every class of a parsed test file."""
    fields: dict[str, str] = {}
    fixtures: dict[str, Fixture] = {}
    helpers: dict[str, Helper] = {}
    methods: set[str] = set()
    set_ups: list[Node] = []
    for member in members(root):
        if member.type == "field_declaration":
            written = text.compact(member.child_by_field_name("type"))
            for declarator in member.children_by_field_name("declarator"):
                name, value = text.text(declarator.child_by_field_name("name")), declarator.child_by_field_name("value")
                fields[name] = written
                if value is not None and value.type != "array_initializer":
                    fixtures[name] = Fixture(name, written, value, len(fixtures))
        elif member.type == "method_declaration":
            methods.add(text.text(member.child_by_field_name("name")))
            annotations = _annotations(member, text)
            if annotations & _SET_UPS:
                set_ups.append(member)
            elif not annotations:
                helper = _helper(member, text)
                if helper is not None:
                    helpers[text.text(member.child_by_field_name("name"))] = helper
    for method in set_ups:
        _read_set_up(method, text, fields, fixtures)
    return Shared(fields=fields, fixtures=fixtures, helpers=helpers, methods=frozenset(methods))


def test_methods(root: Node, text: SourceText) -> Iterator[Node]:
    """The file's test methods: JUnit 4 and 5's annotated ones, and JUnit 3's `testX()`."""
    for member in members(root):
        if member.type != "method_declaration":
            continue
        if _annotations(member, text) & _TESTS or text.text(member.child_by_field_name("name")).startswith("test"):
            yield member


def members(root: Node) -> Iterator[Node]:
    """The members of every class in the file (a nested class's too), none of a local or anonymous class."""
    pending = [c for c in root.named_children if c.type in TYPES]
    while pending:
        owner = pending.pop()
        body = owner.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type in TYPES:
                pending.append(member)
            else:
                yield member


def _read_set_up(method: Node, text: SourceText, fields: dict[str, str], fixtures: dict[str, Fixture]) -> None:
    """A set-up method's assignments of fields and its locals become fixtures; its calls on them configure them."""
    body = method.child_by_field_name("body")
    for statement in (c for c in (body.named_children if body is not None else ()) if c.type not in _COMMENTS):
        if statement.type == "local_variable_declaration":
            written = text.compact(statement.child_by_field_name("type"))
            for declarator in statement.children_by_field_name("declarator"):
                value = declarator.child_by_field_name("value")
                if value is not None and written != "var":
                    name = text.text(declarator.child_by_field_name("name"))
                    fixtures[name] = Fixture(name, written, value, len(fixtures))
            continue
        expression = statement.named_children[0] if statement.type == "expression_statement" else None
        if expression is None:
            continue
        if expression.type == "assignment_expression":
            left, right = expression.child_by_field_name("left"), expression.child_by_field_name("right")
            name = text.text(left.child_by_field_name("field") if left is not None and left.type == "field_access"
                             else left)
            if name in fields and right is not None:
                fixtures[name] = Fixture(name, fields[name], right, len(fixtures))
            continue
        owner = receiver_name(expression, text)
        if owner in fixtures:
            found = fixtures[owner]
            fixtures[owner] = Fixture(found.name, found.type_text, found.value, found.order,
                                      (*found.configure, statement))


def receiver_name(expression: Node, text: SourceText) -> str | None:
    """The variable a call chain starts from (`options` of `options.addOption(..).setX(..)`), if any."""
    while expression.type in ("method_invocation", "field_access"):
        inner = expression.child_by_field_name("object")
        if inner is None:
            return None
        if inner.type == "this" and expression.type == "field_access":
            return text.text(expression.child_by_field_name("field"))
        expression = inner
    return text.text(expression) if expression.type == "identifier" else None


def _helper(method: Node, text: SourceText) -> Helper | None:
    body = method.child_by_field_name("body")
    statements = [c for c in (body.named_children if body is not None else ()) if c.type not in _COMMENTS]
    if len(statements) != 1 or statements[0].type != "return_statement" or not statements[0].named_children:
        return None
    if method.child_by_field_name("type_parameters") is not None:
        return None
    parameters = method.child_by_field_name("parameters")
    names = []
    for parameter in parameters.named_children if parameters is not None else ():
        if parameter.type != "formal_parameter":
            return None  # varargs, receiver parameters
        names.append(text.text(parameter.child_by_field_name("name")))
    return Helper(parameters=tuple(names), returns=statements[0].named_children[0])


def _annotations(method: Node, text: SourceText) -> set[str]:
    modifiers = next((c for c in method.children if c.type == "modifiers"), None)
    found = set()
    for child in modifiers.named_children if modifiers is not None else ():
        if child.type in ("marker_annotation", "annotation"):
            found.add(text.text(child.child_by_field_name("name")).rsplit(".", 1)[-1])
    return found

"""Wrong expected literals of `assertEquals`, replaced by the value JUnit reported the code returned (pure).

A model often gets the call right and the value wrong: `assertEquals(15, tier.discountPercent())` fails
with `expected: <15> but was: <10>`. When the dropped method's reason is exactly that mismatch, the
expected argument is a literal (number, boolean, string, null) whose printed value is the reported one,
and the actual argument reads no mock, the literal is rewritten to the reported actual value. Whether
that value is deterministic is settled by validating the corrected class again (every repetition, under
changed time zone, locale and test order); a correction that fails there is thrown away by the caller.
A failing `assertTrue(x)` (JUnit: `expected: <true> but was: <false>`) becomes `assertFalse(x)` the same way, and
`assertFalse` `assertTrue`: a 1.5B model's `assertTrue(context.isError())` after a parse that succeeds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from junitbot.analysis import JavaTestClass, Node, Tree, member_node, node_text, parse_test_class_tree
from junitbot.generation.literals import java_string
from junitbot.generation.models import Correction

# `_short` in validation keeps the first line of the first failing run: "failed: [msg ==> ]expected: <X> but was: <Y>".
_MISMATCH = re.compile(r"^failed: (?:.* ==> )?expected: <(?P<expected>.*)> but was: <(?P<actual>.*)>$")
_INTEGER = re.compile(r"^-?\d+$")
_DECIMAL = re.compile(r"^-?\d+(?:\.\d+)?(?:E-?\d+)?$")
_INTEGER_NODES = frozenset({"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
                            "binary_integer_literal"})
_FLOAT_NODES = frozenset({"decimal_floating_point_literal"})
_INT_RANGE = (-(2**31), 2**31 - 1)
_MOCK_ANNOTATIONS = frozenset({"Mock", "Spy"})


def mismatch(reason: str | None) -> tuple[str, str] | None:
    """(expected, actual) as JUnit printed them, when a dropped method failed only on `assertEquals`."""
    match = _MISMATCH.match(reason or "")
    return (match["expected"], match["actual"]) if match else None


def correct_expected(source: str, failures: Mapping[str, str | None]) -> tuple[str, tuple[Correction, ...]]:
    """`source` with the expected literal of each failing method's mismatched `assertEquals` replaced.

    `failures` maps test method names to the reasons validation dropped them. A method is corrected only
    when exactly one `assertEquals` in it has a literal expected argument printing as the reported
    expected value, and its actual argument names no mock (a field or local of `mock(...)`).
    """
    data = source.encode("utf-8")
    parsed, tree = parse_test_class_tree(source)
    mocks = _mock_names(parsed, tree)
    edits: list[tuple[int, int, str]] = []
    corrections: list[Correction] = []
    for member in parsed.top_members:
        found = mismatch(failures.get(member.name)) if member.kind == "method" and member.name in failures else None
        if found is None:
            continue
        name, method = member.name, member_node(tree, member)
        expected, actual = found
        flipped = _flipped_condition(method, expected, actual, mocks | _local_mocks(method))
        if flipped is not None:
            call_name, flipped_name = flipped
            edits.append((call_name.start_byte, call_name.end_byte, flipped_name))
            corrections.append(Correction(method=name, line=call_name.start_point[0] + 1, expected=expected,
                                          actual=actual))
            continue
        calls = [c for c in _assert_equals(method) if _prints_as(c[0], expected)]
        if len(calls) != 1 or _names(calls[0][1]) & (mocks | _local_mocks(method)):
            continue
        literal = calls[0][0]
        replacement = _literal(literal, actual)
        if replacement is None:
            continue
        edits.append((literal.start_byte, literal.end_byte, replacement))
        corrections.append(Correction(method=name, line=literal.start_point[0] + 1, expected=node_text(literal),
                                      actual=replacement))
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text.encode("utf-8") + data[end:]
    return data.decode("utf-8"), tuple(corrections)


def _calls(method: Node, name: str) -> Iterator[tuple[Node, list[Node]]]:
    """(name node, argument nodes) of every `name(...)` / `Assertions.name(...)` call in `method`."""
    stack = [method]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        called = node.child_by_field_name("name") if node.type == "method_invocation" else None
        if called is not None and node_text(called) == name:
            arguments = node.child_by_field_name("arguments")
            yield called, arguments.named_children if arguments is not None else []


def _assert_equals(method: Node) -> Iterator[tuple[Node, Node]]:
    """(expected, actual) argument nodes of every `assertEquals(...)` / `Assertions.assertEquals(...)` call."""
    return ((args[0], args[1]) for _, args in _calls(method, "assertEquals") if len(args) >= 2)


def _flipped_condition(method: Node, expected: str, actual: str, mocks: set[str]) -> tuple[Node, str] | None:
    """(the name node of the one failing `assertTrue`/`assertFalse`, the other name) when JUnit reported a boolean
    condition the other way round and the condition reads no mock; else None."""
    wrong = {("true", "false"): "assertTrue", ("false", "true"): "assertFalse"}.get((expected, actual))
    if wrong is None:
        return None
    matching = list(_calls(method, wrong))
    if len(matching) != 1:
        return None
    name_node, args = matching[0]
    if not args or _names(args[0]) & mocks:
        return None
    return name_node, "assertFalse" if wrong == "assertTrue" else "assertTrue"


def _mock_names(parsed: JavaTestClass, tree: Tree) -> set[str]:
    """Fields annotated `@Mock` (or `@Spy`) and fields initialised with `mock(...)` in the test class."""
    names: set[str] = set()
    for field in (m for m in parsed.members if m.kind == "field"):
        annotated = not _MOCK_ANNOTATIONS.isdisjoint(field.annotations)
        for declarator in member_node(tree, field).children_by_field_name("declarator"):
            if annotated or _is_mock_call(declarator.child_by_field_name("value")):
                names.add(node_text(declarator.child_by_field_name("name")))
    return names


def _local_mocks(method: Node) -> set[str]:
    names: set[str] = set()
    stack = [method]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type == "variable_declarator" and _is_mock_call(node.child_by_field_name("value")):
            names.add(node_text(node.child_by_field_name("name")))
    return names


def _is_mock_call(node: Node | None) -> bool:
    return node is not None and node.type == "method_invocation" and \
        node_text(node.child_by_field_name("name")) in ("mock", "spy")


def _names(node: Node) -> set[str]:
    """Every identifier in an expression."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            found.add(node_text(current))
        stack.extend(current.named_children)
    return found


def _kind(node: Node) -> tuple[str, str] | None:
    """(kind, literal text) of a literal expression: int, long, double, float, boolean, string or null."""
    if node.type == "unary_expression" and node_text(node.child_by_field_name("operator")) == "-":
        inner = _kind(node.child_by_field_name("operand") or node)
        return (inner[0], "-" + inner[1]) if inner and inner[0] in ("int", "long", "double", "float") else None
    text = node_text(node)
    if node.type in _INTEGER_NODES:
        return ("long" if text[-1:] in "lL" else "int"), text
    if node.type in _FLOAT_NODES:
        return ("float" if text[-1:] in "fF" else "double"), text
    if node.type in ("true", "false"):
        return "boolean", text
    if node.type == "string_literal":
        return "string", text
    if node.type == "null_literal":
        return "null", text
    return None


def _prints_as(node: Node, printed: str) -> bool:
    """Whether the literal's value prints as `printed` (JUnit prints `String.valueOf(expected)`)."""
    kind = _kind(node)
    if kind is None:
        return False
    what, text = kind
    if what in ("int", "long"):
        try:
            return _INTEGER.match(printed) is not None and int(text.rstrip("lL").replace("_", ""), 0) == int(printed)
        except ValueError:
            return False
    if what in ("double", "float"):
        try:
            return float(text.rstrip("dDfF").replace("_", "")) == float(printed)
        except ValueError:
            return False
    if what == "string":
        return java_string(printed) == text or _unquoted(text) == printed
    return text == printed


def _literal(node: Node, actual: str) -> str | None:
    """The Java literal of the reported actual value, of the expected literal's kind; None when it is none."""
    kind = _kind(node)
    if kind is None or kind[0] == "null":
        return None  # the actual value's type is unknown
    what = kind[0]
    if what == "int" and _INTEGER.match(actual) and _INT_RANGE[0] <= int(actual) <= _INT_RANGE[1]:
        return actual
    if what == "long" and _INTEGER.match(actual):
        return f"{actual}L"
    if what in ("double", "float") and _DECIMAL.match(actual):
        return actual + ("f" if what == "float" else "")
    if what == "boolean" and actual in ("true", "false"):
        return actual
    if what == "string":
        return "null" if actual == "null" else java_string(actual)
    return None


def _unquoted(text: str) -> str | None:
    """The value of a string literal without escapes; None when it has escapes (compared via `java_string`)."""
    inner = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else None
    return inner if inner is not None and "\\" not in inner else None


"""Expected exceptions: whether a call in a test is one the test expects to throw (pure).

`assertThrows(X.class, () -> Sku.of("TOOL-123"))`, AssertJ's `isThrownBy(() -> ..)` and
`assertThatThrownBy(() -> ..)`, `catchThrowable(() -> ..)`: the call a lambda handed to such an assertion runs
is expected to throw, so its arguments are ones the callee rejects. Inside such a lambda, JUnit 4's
`try { ..; fail(); } catch` or a `@Test(expected = ..)` method, which call throws is not known.
"""

from __future__ import annotations

import re

from junitbot.analysis.parser import Node

# `assertThrows`, `isThrownBy`, `assertThatThrownBy`, `catchThrowable`, ...; `assertDoesNotThrow` is the opposite.
# A project's own helper named for the exception it expects counts too (commons-lang's
# `assertIllegalArgumentException(() -> ..)`, `assertNullPointerException`).
_THROWING_CALL = re.compile(r"(?<!Not)Throw|^assert\w*(?:Exception|Error)$")
_TYPE_BODIES = {"class_body", "enum_body", "enum_body_declarations", "interface_body"}
_MEMBERS = {"method_declaration", "constructor_declaration", "compact_constructor_declaration"}
_COMMENTS = {"line_comment", "block_comment"}


def expected_to_throw(call: Node) -> bool | None:
    """True for the call an expected-exception lambda runs; None for any other call inside code expected to
    throw (which of its calls is rejected is unknown); False elsewhere."""
    node = call.parent
    while node is not None and node.type not in _MEMBERS and node.type not in _TYPE_BODIES:
        if node.type == "lambda_expression" and _in_throwing_call(node):
            return True if _lambda_runs_only(node, call) else None
        if node.type == "try_statement" and _ends_in_fail(node.child_by_field_name("body")):
            return None
        node = node.parent
    if node is not None and node.type in _MEMBERS and _expects_exception(node):
        return None
    return False


def _lambda_runs_only(lambda_node: Node, call: Node) -> bool:
    """`() -> call` or `() -> { call; }`."""
    body = lambda_node.child_by_field_name("body")
    if body is None or body.id == call.id:
        return body is not None
    statements = _named(body) if body.type == "block" else []
    if len(statements) != 1 or statements[0].type != "expression_statement":
        return False
    expression = _named(statements[0])
    return len(expression) == 1 and expression[0].id == call.id


def _in_throwing_call(lambda_node: Node) -> bool:
    args = lambda_node.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    name = call.child_by_field_name("name") if call is not None and call.type == "method_invocation" else None
    return name is not None and _THROWING_CALL.search((name.text or b"").decode()) is not None


def _ends_in_fail(block: Node | None) -> bool:
    """A try block whose last statement is `fail(..)` (JUnit 4's way of expecting an exception)."""
    statements = _named(block)
    if not statements or statements[-1].type != "expression_statement":
        return False
    expression = _named(statements[-1])
    name = expression[0].child_by_field_name("name") if expression and expression[0].type == "method_invocation" \
        else None
    return name is not None and name.text == b"fail"


def _expects_exception(member: Node) -> bool:
    """JUnit 4's `@Test(expected = X.class)` on the method."""
    modifiers = next((c for c in member.children if c.type == "modifiers"), None)
    for annotation in _named(modifiers):
        name = annotation.child_by_field_name("name")
        arguments = annotation.child_by_field_name("arguments")
        if name is not None and name.text == b"Test" and arguments is not None and b"expected" in (
                arguments.text or b""):
            return True
    return False


def _named(node: Node | None) -> list[Node]:
    return [] if node is None else [c for c in node.named_children if c.type not in _COMMENTS]

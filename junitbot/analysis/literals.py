"""Compared literals: the constants a member's code compares against (`x > 100`, `s.equals("A")`, `case B`)."""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.analysis.guards import null_checked, throws_when
from junitbot.analysis.models import ComparedLiteral
from junitbot.analysis.parser import Node
from junitbot.analysis.source import SourceText

_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
_LITERALS = {
    "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
    "decimal_floating_point_literal", "hex_floating_point_literal", "string_literal", "character_literal",
    "true", "false", "null_literal",
}
_LITERAL_METHODS = {"equals", "equalsIgnoreCase", "compareTo", "startsWith", "endsWith", "contains", "matches"}
# `10 < x` reads `x > 10` with the subject on the left.
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def compared_literals(
    compares: Sequence[Node], calls: Sequence[Node], cases: Sequence[Node], source: SourceText
) -> list[ComparedLiteral]:
    """One member's literal comparisons, literal-argument calls, null checks and case labels, in that order."""
    found = [_compared(n, source) for n in compares if _is_literal_comparison(n)]
    found.extend(_literal_call(c, source) for c in calls if _is_literal_call(c, source))
    found.extend(_null_check(c) for c in calls if null_checked(c) is not None)
    found.extend(_case_label(n, source) for n in cases)
    return found


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


def _compared(node: Node, source: SourceText) -> ComparedLiteral:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    operator = node.child_by_field_name("operator")
    literal, subject = (right, left) if _is_literal(right) else (left, right)
    written = operator.type if operator is not None else ""
    return ComparedLiteral(
        subject=source.compact(subject)[:80] if subject is not None else "",
        operator=written if literal is right else _MIRRORED.get(written, written),
        literal=source.text(literal),
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


def _is_literal_call(node: Node, source: SourceText) -> bool:
    name = node.child_by_field_name("name")
    return name is not None and source.text(name) in _LITERAL_METHODS and _literal_argument(node) is not None


def _literal_call(node: Node, source: SourceText) -> ComparedLiteral:
    receiver = node.child_by_field_name("object")
    return ComparedLiteral(
        subject=source.compact(receiver)[:80] if receiver is not None else "this",
        operator=source.text(node.child_by_field_name("name")),
        literal=source.text(_literal_argument(node)),
        line=node.start_point[0] + 1,
        throws_when=throws_when(node),
    )


def _null_check(node: Node) -> ComparedLiteral:
    """`Objects.requireNonNull(x, ..)` as the comparison it makes: it throws when `x == null`."""
    return ComparedLiteral(subject=null_checked(node) or "", operator="==", literal="null",
                           line=node.start_point[0] + 1, throws_when=True)


def _case_label(node: Node, source: SourceText) -> ComparedLiteral:
    subject = ""
    switch = node.parent
    while switch is not None and switch.type not in ("switch_expression", "switch_statement"):
        switch = switch.parent
    if switch is not None:
        condition = switch.child_by_field_name("condition")
        if condition is not None and condition.type == "parenthesized_expression" and condition.named_children:
            condition = condition.named_children[0]
        subject = source.compact(condition)[:80]
    return ComparedLiteral(
        subject=subject, operator="case", literal=source.compact(node), line=node.start_point[0] + 1
    )

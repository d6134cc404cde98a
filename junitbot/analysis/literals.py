"""Compared literals: the constants a member's code compares against (`x > 100`, `s.equals("A")`, `case B`).

Patterns count too: `s.matches("re")`, `Pattern.matches("re", s)` and, through a `static final Pattern P =
Pattern.compile("re")` of the class, `P.matcher(s).matches()`; where `s` is a local derived from a
parameter by `trim()`, `strip()`, `toUpperCase()` or `toLowerCase()`, the subject is that derivation
(`code.trim().toUpperCase()`), so a value for the parameter can be checked as the code checks it.
`s.isEmpty()` and `s.isBlank()` are comparisons with `""` (issue 14: blank and malformed values).
"""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.analysis.declarations import declaration_of
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
_EMPTINESS = {"isEmpty", "isBlank"}
# What a value may go through before a pattern reads it, by the method's name.
_NORMALIZERS = {"trim", "strip", "toUpperCase", "toLowerCase"}
_CASE_INSENSITIVE = "CASE_INSENSITIVE"


def compared_literals(
    compares: Sequence[Node], calls: Sequence[Node], cases: Sequence[Node], source: SourceText
) -> list[ComparedLiteral]:
    """One member's literal comparisons, literal-argument calls, null checks and case labels, in that order."""
    found = [_compared(n, source) for n in compares if _is_literal_comparison(n)]
    found.extend(_literal_call(c, source) for c in calls if _is_literal_call(c, source))
    found.extend(_null_check(c) for c in calls if null_checked(c) is not None)
    found.extend(p for p in (_pattern_check(c, source) for c in calls) if p is not None)
    found.extend(e for e in (_emptiness_check(c, source) for c in calls) if e is not None)
    found.extend(u for u in (_utility_null_check(c, source) for c in calls) if u is not None)
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


def _pattern_check(node: Node, source: SourceText) -> ComparedLiteral | None:
    """`P.matcher(s).matches()` with a `static final Pattern P = Pattern.compile("re")` of the class, or
    `Pattern.matches("re", s)`, as `s matches "re"`."""
    name = source.text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("object")
    args = [a for a in (node.child_by_field_name("arguments") or node).named_children] if name == "matches" else []
    if receiver is None or name != "matches":
        return None
    if source.text(receiver) == "Pattern" and len(args) == 2 and args[0].type == "string_literal":
        regex, subject = source.text(args[0]), args[1]
    elif not args and receiver.type == "method_invocation" and source.text(
            receiver.child_by_field_name("name")) == "matcher":
        inner = (receiver.child_by_field_name("arguments") or receiver).named_children
        constant = receiver.child_by_field_name("object")
        found = _compiled_pattern(constant, source) if constant is not None and len(inner) == 1 else None
        if found is None:
            return None
        regex, subject = found, inner[0]
    else:
        return None
    return ComparedLiteral(subject=_derivation(subject, source)[:80], operator="matches", literal=regex,
                           line=node.start_point[0] + 1, throws_when=throws_when(node))


def _compiled_pattern(constant: Node, source: SourceText) -> str | None:
    """The regex literal of `static final Pattern P = Pattern.compile("re")` that `P` (or `this.P`, `Owner.P`)
    names in this file; `(?i)` leads it for `Pattern.CASE_INSENSITIVE`; None for other flags or forms."""
    name = source.text(constant) if constant.type == "identifier" else source.text(
        constant.child_by_field_name("field")) if constant.type == "field_access" else ""
    declaration = declaration_of(name, constant, source, fields_only=constant.type == "field_access") if name else None
    value = declaration.value if declaration is not None and declaration.static_final else None
    if value is None or value.type != "method_invocation" or source.compact(value).split("(", 1)[0] not in (
            "Pattern.compile", "java.util.regex.Pattern.compile"):
        return None
    args = (value.child_by_field_name("arguments") or value).named_children
    if not args or args[0].type != "string_literal" or source.text(args[0]).startswith('"""'):
        return None
    regex = source.text(args[0])
    if len(args) == 1:
        return regex
    flags = source.compact(args[1])
    return '"(?i)' + regex[1:] if len(args) == 2 and flags.rsplit(".", 1)[-1] == _CASE_INSENSITIVE else None


def _derivation(subject: Node, source: SourceText) -> str:
    """`code` for a parameter, `code.trim().toUpperCase()` for `code.trim().toUpperCase(Locale.ROOT)` or for a
    local initialized so; any other expression as written."""
    chain: list[str] = []
    node = subject
    for _ in range(8):
        if node.type == "identifier" and not chain:
            declaration = declaration_of(source.text(node), node, source)
            value = declaration.value if declaration is not None and not declaration.static_final else None
            if value is None or value.type != "method_invocation":
                break
            node = value
            continue
        name = source.text(node.child_by_field_name("name")) if node.type == "method_invocation" else ""
        receiver = node.child_by_field_name("object") if name in _NORMALIZERS else None
        if receiver is None:
            break
        chain.append(name)
        node = receiver
    if node.type != "identifier":
        return source.compact(subject)
    return source.text(node) + "".join(f".{method}()" for method in reversed(chain))


def _emptiness_check(node: Node, source: SourceText) -> ComparedLiteral | None:
    """`s.isEmpty()` and `s.isBlank()` (on a string: the comparison `s equals ""`, trimmed for isBlank)."""
    name = source.text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("object")
    args = node.child_by_field_name("arguments")
    if name not in _EMPTINESS or receiver is None or (args is not None and args.named_children):
        return None
    return ComparedLiteral(subject=source.compact(receiver)[:80], operator=name, literal='""',
                           line=node.start_point[0] + 1, throws_when=throws_when(node))


# A utility's test of its one argument that is true for null: `StringUtils.isEmpty(s)`, `ArrayUtils.isEmpty(a)`,
# `Objects.isNull(x)`, `CollectionUtils.isEmpty(c)`.
_NULL_TRUE = {"isEmpty", "isBlank", "isNull"}


def _utility_null_check(node: Node, source: SourceText) -> ComparedLiteral | None:
    """`ArrayUtils.isEmpty(chars)` (a static call on a type name) as the comparison `chars == null` it makes first:
    StrTokenizer's `tokenize(null, 0, 1)` returns the empty list there, where without the check it would throw."""
    name = source.text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("object")
    args = node.child_by_field_name("arguments")
    if (name not in _NULL_TRUE or receiver is None or receiver.type != "identifier"
            or not source.text(receiver)[:1].isupper() or args is None or len(args.named_children) != 1
            or args.named_children[0].type != "identifier"):
        return None
    return ComparedLiteral(subject=source.text(args.named_children[0]), operator="==", literal="null",
                           line=node.start_point[0] + 1, throws_when=throws_when(node))


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

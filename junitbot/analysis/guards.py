"""Guards: whether a condition in a body makes the code throw when it holds, or when it does not (pure).

`if (code == null || !code.matches(RE)) throw ...` throws when `code == null` is true and when
`code.matches(RE)` is false; `checkArgument(n >= 0)` and `assert n >= 0` throw when `n >= 0` is false.
Value builders use this to pick arguments a validating constructor accepts, and scenarios to pick ones
it rejects.
"""

from __future__ import annotations

from junitbot.analysis.parser import Node

# Calls that throw when their first argument is false (Guava, Spring, Commons Lang, JUnit-style asserts).
_CHECKS = frozenset({"checkArgument", "checkState", "isTrue", "state", "validState", "require", "assertTrue"})
_NULL_CHECKS = frozenset({"requireNonNull", "checkNotNull", "notNull"})
_THROWING = frozenset({"throw_statement"})


def throws_when(node: Node) -> bool | None:
    """The value of the boolean expression `node` that makes its member throw; None when neither is known."""
    # outcome[v]: what the enclosing expression evaluates to when `node` is v (None: not determined by it).
    outcome: dict[bool, bool | None] = {True: True, False: False}
    current = node
    while current.parent is not None:
        parent = current.parent
        kind = parent.type
        if kind == "parenthesized_expression":
            current = parent
        elif kind == "unary_expression" and _operator(parent) == "!":
            outcome = {v: None if o is None else not o for v, o in outcome.items()}
            current = parent
        elif kind == "binary_expression" and _operator(parent) in ("||", "&&"):
            kept = _operator(parent) == "||"  # true || x is true; false && x is false
            outcome = {v: o if o is kept else None for v, o in outcome.items()}
            current = parent
        else:
            return _at_statement(parent, current, outcome)
    return None


def _at_statement(parent: Node, condition: Node, outcome: dict[bool, bool | None]) -> bool | None:
    """Where the condition ends: an `if` that throws on one side, a check call, or an assert."""
    throws_if: bool | None = None
    if parent.type == "if_statement" and parent.child_by_field_name("condition") == condition:
        if _throws(parent.child_by_field_name("consequence")):
            throws_if = True
        elif _throws(parent.child_by_field_name("alternative")):
            throws_if = False
    elif parent.type == "assert_statement" and parent.named_children[:1] == [condition]:
        throws_if = False
    elif parent.type == "argument_list" and parent.named_children[:1] == [condition]:
        call = parent.parent
        name = call.child_by_field_name("name") if call is not None and call.type == "method_invocation" else None
        if name is not None and (name.text or b"").decode() in _CHECKS:
            throws_if = False
    if throws_if is None:
        return None
    found = [value for value, result in outcome.items() if result is throws_if]
    return found[0] if len(found) == 1 else None


def _throws(statement: Node | None) -> bool:
    """A statement that is a `throw`, or a block that ends in one."""
    if statement is None:
        return False
    if statement.type == "block":
        named = [c for c in statement.named_children if c.type not in ("line_comment", "block_comment")]
        return bool(named) and named[-1].type in _THROWING
    return statement.type in _THROWING


def _operator(node: Node) -> str:
    operator = node.child_by_field_name("operator")
    return (operator.text or b"").decode() if operator is not None else ""


def null_checked(call: Node) -> str | None:
    """The variable `Objects.requireNonNull(x, ..)` (or Guava's and Spring's like) rejects when null."""
    name = call.child_by_field_name("name")
    args = call.child_by_field_name("arguments")
    if name is None or args is None or (name.text or b"").decode() not in _NULL_CHECKS or not args.named_children:
        return None
    first = args.named_children[0]
    if first.type == "identifier":
        return (first.text or b"").decode()
    if first.type == "field_access" and (first.text or b"").decode().startswith("this."):
        return (first.text or b"").decode()[len("this."):]
    return None

"""What a test's name and inputs say: numbered siblings, and inputs that are only placeholders (pure).

A maintainer reads `applyThrowsIllegalArgument2` as "the second one of something", and a test whose every
input is "text" or 1 as exercising nothing in particular (issue 29: 71 names that said nothing, about half the
weak tests on placeholder inputs).
"""

from __future__ import annotations

import re

from junitbot.analysis import Node, descendants, member_node
from junitbot.validation.review.context import ReviewContext, finding
from junitbot.validation.review.models import ReviewFinding
from junitbot.validation.static import enclosing, text_of

# The values a generator writes when nothing says what an input should be: the no-model generator's ordinary
# string and number, and the fillers models write. Empty, blank and boundary values say something; these do not.
PLACEHOLDER_STRINGS = frozenset({"text", "a longer text with several words", "test", "foo", "bar", "abc", "string",
                                 "value", "example", "dummy"})
_NUMBERED = re.compile(r"^(?P<stem>\w*?[A-Za-z_])(?P<number>[2-9]|[1-9]\d)$")
_LITERALS = frozenset({"string_literal", "decimal_integer_literal", "decimal_floating_point_literal"})
# An empty collection, map, stream or array as the generator and people write one (`Map.of()`, `new char[0]`,
# `new ArrayList<>(List.of())`, `Collections.emptyList()`, `new HashMap<>()`): a boundary input, as "" is.
_EMPTY_CONTAINER = re.compile(
    r"(?:new [\w.]+(?:<[^()]*>)?\()?"
    r"(?:(?:[\w.]*\.)?(?:Map|List|Set|Stream)\.of\(\)|(?:[\w.]*\.)?Collections\.empty\w*\(\))\)?"
    r"|new [\w.]+(?:<[^()]*>)?\[0\](?:\[\])*"
    r"|new (?:[\w.]*\.)?\w*(?:Map|List|Set|Queue|Deque)(?:<[^()]*>)?\(\)")
_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")  # `MAX_VALUE`, `ROOT`, `EUR`: a constant's name
_LONGEST_CONTAINER = 200  # characters: a longer expression is no empty container
_CONTAINER_NODES = frozenset({"method_invocation", "object_creation_expression", "array_creation_expression"})


def is_empty_container(expression: str) -> bool:
    """Whether a Java expression is an empty collection, map, stream or array (`Map.of()`, `new char[0]`)."""
    text = expression.strip()
    return len(text) <= _LONGEST_CONTAINER and _EMPTY_CONTAINER.fullmatch(text) is not None


def flag_numbered_siblings(review: ReviewContext) -> list[ReviewFinding]:
    """`numbered-sibling`: a test named like another with a number added (`fooReturnsX2` beside `fooReturnsX`)."""
    methods = review.test.test_class.test_methods
    names = {m.name for m in methods}
    findings = []
    for member in methods:
        match = _NUMBERED.match(member.name)
        if match is None or match["stem"] not in names:
            continue
        node = member_node(review.test.tree, member)
        findings.append(finding("numbered-sibling", node.child_by_field_name("name") or node,
                                f"{member.name} is {match['stem']} with a number: name it after what its "
                                "scenario differs in"))
    return findings


def flag_placeholder_inputs(review: ReviewContext) -> list[ReviewFinding]:
    """`placeholder-inputs`: every literal a test passes (outside its checks) is a placeholder: at least one
    placeholder text, beside it at most unsigned numbers, and no empty container (`similarity(vector, Map.of())`
    says what it tests: the empty side), no null (`similarity(null, vector)` tests the null check) and no constant
    (`Integer.MAX_VALUE`, `Locale.ROOT`)."""
    findings = []
    for method in review.test.test_methods:
        # A check's whole statement: AssertJ's expected values sit in the chain above `assertThat(..)`.
        checks = [enclosing(c, "expression_statement") or c for c in review.checks(method)]
        body = method.child_by_field_name("body")
        inputs = [n for n in descendants(body) if not _inside(n, checks)] if body else []
        literals = [n for n in inputs if n.type in _LITERALS]
        # Sized before read: a 10,000-call chain is 10,000 nested invocations, and reading each one's text would be
        # quadratic.
        if any(n.type in _CONTAINER_NODES and n.end_byte - n.start_byte <= _LONGEST_CONTAINER
               and is_empty_container(text_of(n)) for n in inputs):
            continue
        if any(n.type == "null_literal" or (n.type == "field_access" and _CONSTANT.fullmatch(
                text_of(n.child_by_field_name("field") or n))) for n in inputs):
            continue  # a null or a constant is chosen: `Integer.MAX_VALUE` beside "text" is what the test is about
        if any(n.type == "string_literal" for n in literals) and all(_placeholder(n) for n in literals):
            findings.append(finding(
                "placeholder-inputs", method.child_by_field_name("name") or method,
                f"every input of {text_of(method.child_by_field_name('name'))} is a placeholder "
                f"({', '.join(sorted({text_of(n) for n in literals}))}): pass values the behaviour depends on"))
    return findings


def _placeholder(literal: Node) -> bool:
    if literal.type == "string_literal":
        return text_of(literal)[1:-1].lower() in PLACEHOLDER_STRINGS
    # A number is a placeholder only beside placeholder text: `addPoints(1)` asserting 1 says something.
    return literal.parent is None or literal.parent.type != "unary_expression"


def _inside(node: Node, containers: list[Node]) -> bool:
    return any(c.start_byte <= node.start_byte and node.end_byte <= c.end_byte for c in containers)

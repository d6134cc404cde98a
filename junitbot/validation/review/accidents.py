"""Accidents pinned as behaviour: an NPE or a null that only a mock's default answer produced (pure)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from junitbot.analysis import Node, descendants
from junitbot.validation.review.context import (
    ANSWERS,
    DESCRIBE,
    NOT_CALLED,
    ReviewContext,
    calls_named,
    chain_above,
    chain_root,
    finding,
    nulls,
)
from junitbot.validation.review.models import ReviewFinding
from junitbot.validation.static import (
    ParsedTest,
    Variable,
    arguments_of,
    compact,
    is_call,
    name_of,
    stubbed_mock,
    text_of,
    variable_name,
)

_NPE = frozenset({"NullPointerException.class", "java.lang.NullPointerException.class"})
_THROWS = frozenset({"thenThrow", "doThrow", "willThrow"})


def flag_npe_from_mock_default(review: ReviewContext) -> list[ReviewFinding]:
    """`npe-from-mock-default` (see the package docstring), once per test method."""
    if not review.has_mocks:
        return []
    findings = []
    for method in review.test.test_methods:
        reach = review.reach(method)
        if nulls(reach) or calls_named(review, reach, ANSWERS) or _throws_npe(review, reach):
            continue
        for at, act in _expected_npes(review.test, method):
            if review.touches_mocks(act) and not _unassigned_fields(review, act):
                findings.append(finding(
                    "npe-from-mock-default", at,
                    f"{name_of(method)} expects a NullPointerException though it passes no null: it comes from an "
                    "unstubbed mock's default answer; stub the collaborator or test a real null input", drops=True))
                break
    return findings


def _expected_npes(test: ParsedTest, method: Node) -> Iterator[tuple[Node, Node]]:
    """(the expectation, the act) for each NullPointerException the method expects."""
    for call in test.within("call", method):
        name, args = name_of(call), arguments_of(call)
        root = chain_root(call)
        root_args = arguments_of(root)
        if name in ("assertThrows", "assertThrowsExactly") and len(args) >= 2 and compact(args[0]) in _NPE:
            yield call, args[1]
        elif name in ("isInstanceOf", "isExactlyInstanceOf") and args and compact(args[0]) in _NPE \
                and name_of(root) == "assertThatThrownBy" and root_args:
            yield call, root_args[0]
        elif name == "isThrownBy" and args and (name_of(root) == "assertThatNullPointerException" or (
                name_of(root) == "assertThatExceptionOfType" and root_args and compact(root_args[0]) in _NPE)):
            yield call, args[0]
    for clause in test.within("catch", method):
        caught = next((c for c in clause.named_children if c.type == "catch_formal_parameter"), None)
        body = clause.parent.child_by_field_name("body") if clause.parent is not None else None
        if caught is not None and any(w.rsplit(".", 1)[-1] == "NullPointerException"
                                      for w in re.findall(r"[\w.]+", text_of(caught))) \
                and body is not None and any(name_of(c) == "fail" for c in test.within("call", body)):
            yield clause, body


def _throws_npe(review: ReviewContext, reach: Iterable[Node]) -> bool:
    return any("NullPointerException" in text_of(c) for c in calls_named(review, reach, _THROWS))


def _unassigned_fields(review: ReviewContext, act: Node) -> list[Variable]:
    """Plain fields the act reads that nothing ever assigns: null, and written so by the test."""
    found = []
    for node in descendants(act):
        var = review.test.var_at(text_of(node), node) if node.type == "identifier" else None
        if var is not None and var.scope is None and var.role is None and var.value is None:
            found.append(var)
    return found


def flag_null_from_unstubbed_mock(review: ReviewContext) -> list[ReviewFinding]:
    """`null-from-unstubbed-mock` (see the package docstring), once per test method."""
    if not review.has_mocks:
        return []
    findings = []
    for method in review.test.test_methods:
        reach = review.reach(method)
        asserted = [(call, actual) for call, actual in _null_assertions(review.test, method)
                    if _from_subject(review, actual)]
        if not asserted or nulls(reach, besides=[c for c, _ in asserted]) or calls_named(review, reach, ANSWERS):
            continue
        stubbed = _stubbed(review, reach)
        unstubbed = [v for v in _verified(review, reach) if v not in stubbed]
        if not unstubbed:
            continue
        mock, called = unstubbed[0]
        findings.append(finding(
            "null-from-unstubbed-mock", asserted[0][0],
            f"{name_of(method)} asserts null after calling {mock}.{called}() unstubbed: the null is the mock's "
            "default answer passed through; stub it with a value and assert what the code does with it", drops=True))
    return findings


def _null_assertions(test: ParsedTest, method: Node) -> Iterator[tuple[Node, Node]]:
    """(the assertion, its actual value) for each assertion that a value is null."""
    for call in test.within("call", method):
        name, args = name_of(call), arguments_of(call)
        if name == "assertNull" and args:
            yield call, args[0]
        elif name in ("assertEquals", "assertSame") and len(args) >= 2 and args[0].type == "null_literal":
            yield call, args[1]
        elif name == "isNull" and not args:
            root = chain_root(call)
            between = {name_of(c) for c in chain_above(root)} - {"isNull"}
            if name_of(root) == "assertThat" and len(arguments_of(root)) == 1 and between <= DESCRIBE:
                yield call, arguments_of(root)[0]


def _from_subject(review: ReviewContext, actual: Node) -> bool:
    """Whether a value is what a call on the subject returned: `subject.f(..)` or a local holding one."""
    var = review.test.var_at(text_of(actual), actual) if actual.type == "identifier" else None
    value = var.value if var is not None and var.scope is not None else actual
    if value is None or value.type != "method_invocation":
        return False
    root = chain_root(value)
    return review.is_subject(root.child_by_field_name("object"))


def _stubbed(review: ReviewContext, reach: Iterable[Node]) -> set[tuple[str, str]]:
    """(mock, method) pairs the reach stubs: `when(m.f(..))`, `given(m.f(..))`, `doReturn(x).when(m).f(..)`."""
    pairs = set()
    for node in reach:
        for call in review.test.within("call", node):
            mock = stubbed_mock(call)
            if mock is None:
                continue
            if is_call(call, ("when", "given")):
                method = name_of(arguments_of(call)[0])
            else:
                parent = call.parent
                method = name_of(parent) if parent is not None and parent.type == "method_invocation" else ""
            pairs.add((variable_name(mock) or compact(mock), method))
    return pairs


def _verified(review: ReviewContext, nodes: Iterable[Node]) -> list[tuple[str, str]]:
    """(mock, method) pairs verified as called: `verify(m[, mode]).f(..)`, `then(m).should([mode]).f(..)`,
    `never()` and `times(0)` left out."""
    pairs = []
    for node in nodes:
        for call in review.test.within("call", node):
            args = arguments_of(call)
            if not is_call(call, ("verify", "then")) or not args or not review.is_mock(args[0]):
                continue
            chain, modes = chain_above(call), args[1:]
            if name_of(call) == "then" and chain and name_of(chain[0]) == "should":
                chain, modes = chain[1:], arguments_of(chain[0])
            if chain and not any(compact(m).endswith(NOT_CALLED) for m in modes):
                pairs.append((variable_name(args[0]) or compact(args[0]), name_of(chain[0])))
    return pairs

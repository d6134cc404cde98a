"""Oracles that say little: a mock's own return asserted, or checks that tell nothing about values (pure)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from junitbot.analysis import Node, descendants
from junitbot.validation.review.context import (
    DESCRIBE,
    NOT_CALLED,
    ReviewContext,
    calls_named,
    chain_above,
    chain_root,
    finding,
)
from junitbot.validation.review.models import ReviewFinding
from junitbot.validation.static import ParsedTest, arguments_of, compact, is_call, name_of, text_of

_RETURNS = frozenset({"thenReturn", "doReturn", "willReturn"})
_WRAPPERS = frozenset({"of", "ofNullable", "asList", "singletonList", "singleton", "just", "completedFuture"})
_EXPECTS = frozenset({"assertThrows", "assertThrowsExactly", "assertThatThrownBy", "assertThatExceptionOfType",
                      "catchThrowable", "catchThrowableOfType", "catchException", "isThrownBy"})
_CLIENT_EXPECTS = frozenset({"andExpect", "andExpectAll", "expectStatus", "expectBody", "expectHeader",
                             "expectCookie", "expectAll"})
_ANY = re.compile(r"(?:ArgumentMatchers\.|Mockito\.)?(?:any\w*|isA|notNull|isNotNull)\(")


def flag_asserts_mock_return(review: ReviewContext) -> list[ReviewFinding]:
    """`asserts-mock-return` (see the package docstring), once per such assertion."""
    findings = []
    for method in review.test.test_methods:
        reach = review.reach(method)
        returned = _stub_returns(review, reach)
        expects = bool(calls_named(review, [method], _EXPECTS))
        flagged = []
        for call, expected, actual in _assertions(review.test, method):
            why = _mock_value(review, actual, expected, returned, expects=expects)
            if why is not None:
                flagged.append((call, why))
        checks = review.checks(method)
        whole = bool(flagged) and len(flagged) >= len(checks)
        findings += [finding("asserts-mock-return", call, f"{why}: the code under test did not produce it",
                              drops=whole) for call, why in flagged]
    return findings


def _assertions(test: ParsedTest, method: Node) -> Iterator[tuple[Node, Node | None, Node]]:
    """(the assertion, its expected value or None, its actual value) for the method's own assertions."""
    for call in test.within("call", method):
        name, args = name_of(call), arguments_of(call)
        if name in ("assertEquals", "assertNotEquals", "assertSame", "assertNotSame", "assertArrayEquals",
                    "assertIterableEquals") and len(args) >= 2:
            yield call, args[0], args[1]
        elif name in ("assertTrue", "assertFalse", "assertNull", "assertNotNull") and args:
            yield call, None, args[0]
        elif name == "assertThat" and args:
            chain = chain_above(call)
            expected = next((arguments_of(c)[0] for c in chain if name_of(c) in ("isEqualTo", "isSameAs")
                             and arguments_of(c)), None)
            yield call, expected, args[0]


def _stub_returns(review: ReviewContext, reach: Iterable[Node]) -> dict[str, Node]:
    """Variables a stub returns (`thenReturn(x)`, `doReturn(Optional.of(x))`), each with the value it holds."""
    found: dict[str, Node] = {}
    for call in calls_named(review, reach, _RETURNS):
        for arg in arguments_of(call):
            inner = arguments_of(arg) if arg.type == "method_invocation" and name_of(arg) in _WRAPPERS else [arg]
            for node in inner:
                var = review.test.var_at(text_of(node), node) if node.type == "identifier" else None
                if var is not None and var.value is not None and var.role is None:
                    found[var.name] = var.value
    return found


def _mock_value(review: ReviewContext, actual: Node, expected: Node | None, returned: dict[str, Node], *,
                expects: bool) -> str | None:
    """Why an actual value is a mock's return rather than the code's, or None when it is not."""
    var = review.test.var_at(text_of(actual), actual) if actual.type == "identifier" else None
    value = var.value if var is not None and var.scope is not None and var.role is None else actual
    if value is None or value.type != "method_invocation":
        return None
    root = chain_root(value)
    receiver = root.child_by_field_name("object")
    if review.is_mock(receiver) and not is_call(root, ("mock",)):
        return f"asserts what mock {text_of(receiver)} returns ({compact(value)})"
    built = returned.get(text_of(receiver)) if receiver is not None and receiver.type == "identifier" else None
    if built is None or expected is None or expects:
        return None
    wanted = compact(expected)
    if any(compact(n) == wanted for n in descendants(built) if n.is_named):
        return f"reads back {compact(value)} of the object a stub returns, as it was built"
    return None


def flag_weak_oracles(review: ReviewContext) -> list[ReviewFinding]:
    """`weak-oracle` (see the package docstring), once per test method, at its name."""
    findings = []
    for method in review.test.test_methods:
        checks = [c for c in review.checks(method) if not _is_bdd_should(c)]
        own = [c for c in checks if method.start_byte <= c.start_byte < method.end_byte]
        identity = {call.id for call, expected, actual in _assertions(review.test, method)
                    if _holds_for_identity(review, expected, actual)}
        # A method with no check of its own, or with expectations of a fluent test client (MockMvc's
        # `andExpect`, WebTestClient's `expectStatus`), checks in ways this rule does not read.
        if own and all(_is_weak(c) or c.id in identity for c in checks) and not calls_named(
                review, [method], _CLIENT_EXPECTS):
            findings.append(finding(
                "weak-oracle", method.child_by_field_name("name") or method,
                f"{name_of(method)} only checks that something is not null, did not throw, was called with "
                "anything or came back as it was passed: assert the values the code produced or passed on, on "
                "an input it changes"))
    return findings


def _holds_for_identity(review: ReviewContext, expected: Node | None, actual: Node) -> bool:
    """`assertEquals(input, result)` where `result = f(input)`, or `assertEquals(input, f(input))`: a check any
    method returning its argument passes (`escapeCsv("text")` is "text"). A round trip (`decode(encode(input))`)
    passes its argument through another call first, so it is not one."""
    if expected is None or expected.type != "identifier":
        return False
    value: Node | None = actual
    if actual.type == "identifier":
        var = review.test.var_at(text_of(actual), actual)
        value = var.value if var is not None else None
    if value is None or value.type != "method_invocation":
        return False
    return any(arg.type == "identifier" and text_of(arg) == text_of(expected) for arg in arguments_of(value))


def _is_bdd_should(call: Node) -> bool:
    holder = call.child_by_field_name("object")
    return name_of(call) == "should" and holder is not None and is_call(holder, ("then",))


def _is_weak(call: Node) -> bool:
    name, args = name_of(call), arguments_of(call)
    if name in ("assertNotNull", "assertDoesNotThrow"):
        return True
    if name in ("assertTrue", "assertFalse") and args:
        return re.fullmatch(r".+!=null|null!=.+" if name == "assertTrue" else r".+==null|null==.+",
                            compact(args[0])) is not None
    chain = [name_of(c) for c in chain_above(call)]
    if name == "assertThat" and len(args) == 1:
        said = [n for n in chain if n not in DESCRIBE]
        return bool(said) and set(said) == {"isNotNull"}
    if name in ("assertThatCode", "assertThatNoException"):
        return bool(chain) and chain[-1] in ("doesNotThrowAnyException", "isThrownBy")
    if is_call(call, ("verify", "then")):
        return _verifies_anything(call)
    return False


def _verifies_anything(call: Node) -> bool:
    """`verify(m).f(any(), anyString())`: called, with anything. `never()` and calls without arguments say all."""
    chain = chain_above(call)
    modes = arguments_of(call)[1:]
    if name_of(call) == "then" and chain and name_of(chain[0]) == "should":
        modes, chain = arguments_of(chain[0]), chain[1:]
    if not chain or any(compact(m).endswith(NOT_CALLED) for m in modes):
        return False
    verified = arguments_of(chain[0])
    return bool(verified) and all(_ANY.match(compact(a)) for a in verified)

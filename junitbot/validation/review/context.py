"""What the review rules share: the parsed class, its mocks and subject, a test's reach, node helpers (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from junitbot.analysis import Node, descendants
from junitbot.validation.review.models import ReviewFinding, ReviewRule
from junitbot.validation.static import (
    ParsedTest,
    Variable,
    annotation_names,
    arguments_of,
    assertion_calls,
    enclosing,
    is_call,
    line_of,
    name_of,
    variable_name,
)

DESCRIBE = frozenset({"as", "describedAs", "withFailMessage", "overridingErrorMessage"})
"""AssertJ calls that describe an assertion without asserting anything."""
ANSWERS = frozenset({"thenAnswer", "doAnswer", "willAnswer", "answer"})
"""Stubs whose answer is code: what they return cannot be read from the source."""
NOT_CALLED = ("never()", "times(0)")
"""How a verification mode that says "never called" ends."""
_SETUP = frozenset({"BeforeEach", "BeforeAll"})


@dataclass(frozen=True)
class ReviewContext:
    """The parsed class and the facts several rules read: mocks, the subject, set-up methods."""

    test: ParsedTest

    @cached_property
    def has_mocks(self) -> bool:
        """Whether the class makes any mock (a spy does not count: it runs real code)."""
        return any(v.role == "mock" for v in self.test.all_vars()) or any(
            is_call(c, ("mock",)) for c in self.test.nodes("call"))

    @cached_property
    def injects(self) -> bool:
        """Whether an `@InjectMocks` field hands the mocks over by type."""
        return any(v.role == "inject" for v in self.test.all_vars())

    @cached_property
    def setups(self) -> list[Node]:
        """The `@BeforeEach`/`@BeforeAll` methods (every class's: more reach only makes the rules quieter)."""
        return [m for m in self.test.nodes("method") if not _SETUP.isdisjoint(annotation_names(m))]

    def is_mock(self, node: Node | None) -> bool:
        """A mock variable (`repo`, `this.repo`) or an inline `mock(X.class)`."""
        if node is None:
            return False
        if is_call(node, ("mock",)):
            return True
        var = self._var(node)
        return var is not None and var.role == "mock"

    def is_subject(self, node: Node | None) -> bool:
        """A variable of the class under test fed with mocks, or such a value built inline."""
        var = self._var(node) if node is not None else None
        if var is not None:
            return (var.role == "inject" and self.has_mocks) or (var.role is None and self._fed(var.value))
        return self._fed(node)

    def _var(self, node: Node) -> Variable | None:
        name = variable_name(node)
        return self.test.var_at(name, node) if name is not None else None

    def _fed(self, value: Node | None, depth: int = 0) -> bool:
        """Whether a value is built from mocks: `new S(repo)`, `S.of(mock(R.class))`, `S.builder().repo(r).build()`."""
        if value is None or depth > 4 or value.type not in ("object_creation_expression", "method_invocation"):
            return False
        if is_call(value, ("mock", "spy", "when", "given", "verify")):
            return False
        parts = [*arguments_of(value), value.child_by_field_name("object")]
        return any(p is not None and (self.is_mock(p) or self._fed(p, depth + 1)) for p in parts)

    def reach(self, method: Node) -> list[Node]:
        """The method, the helpers it calls (transitively) and the set-up methods."""
        found = {method.id: method} | {s.id: s for s in self.setups}
        pending = [method]
        while pending:
            for call in self.test.within("call", pending.pop()):
                if call.child_by_field_name("object") is None:
                    for helper in self.test.helpers.get(name_of(call), []):
                        if helper.id not in found:
                            found[helper.id] = helper
                            pending.append(helper)
        return list(found.values())

    def touches_mocks(self, node: Node) -> bool:
        """Whether an expression mentions a mock or the subject (so what it runs can reach a mock)."""
        return any(self.is_mock(n) or self.is_subject(n) for n in descendants(node)
                   if n.type in ("identifier", "field_access", "object_creation_expression", "method_invocation"))

    def checks(self, method: Node) -> list[Node]:
        """The assertion, verification and fail calls of a test, its helpers' included."""
        return assertion_calls(self.test, method, self.is_subject)




def nulls(nodes: Iterable[Node], *, besides: Sequence[Node] = ()) -> list[Node]:
    """The `null` literals inside `nodes`, leaving out those inside `besides`."""
    return [n for node in nodes for n in descendants(node) if n.type == "null_literal"
            and not any(b.start_byte <= n.start_byte and n.end_byte <= b.end_byte for b in besides)]


def calls_named(review: ReviewContext, nodes: Iterable[Node], names: frozenset[str]) -> list[Node]:
    """The calls of one of `names` inside `nodes`."""
    return [c for node in nodes for c in review.test.within("call", node) if name_of(c) in names]


def chain_root(call: Node) -> Node:
    """The first call of a fluent chain: `assertThat(x)` in `assertThat(x).as("..").isNull()`."""
    while (inner := call.child_by_field_name("object")) is not None and inner.type == "method_invocation":
        call = inner
    return call


def chain_above(call: Node) -> list[Node]:
    """The calls chained on `call`, nearest first: `[as(..), isNull()]` for `assertThat(x)`."""
    chain = []
    while (parent := call.parent) is not None and parent.type == "method_invocation" \
            and parent.child_by_field_name("object") == call:
        chain.append(parent)
        call = parent
    return chain


def _method_name(node: Node) -> str | None:
    method = node if node.type == "method_declaration" else enclosing(node, "method_declaration")
    return name_of(method) if method is not None else None


def finding(rule: ReviewRule, at: Node, message: str, *, drops: bool = False) -> ReviewFinding:
    """A finding at a node: its line, and the method it lies in (None outside methods)."""
    return ReviewFinding(rule=rule, method=_method_name(at), line=line_of(at), message=message, drops_method=drops)

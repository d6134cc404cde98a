"""The answers a scenario gives its mocks: `when(mock.method(..)).thenReturn(value)` per call, or the call failing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from junitbot.analysis import CallSite, TypeRef
from junitbot.generation.template.assertions import find_method, matcher_for
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.jdk_values import COLLECTIONS
from junitbot.generation.template.naming import camel, singular
from junitbot.generation.template.values import value_expression

NUMERIC = frozenset({"int", "long", "short", "byte", "double", "float", "Integer", "Long", "Short", "Double"})


@dataclass(frozen=True)
class Stub:
    """One collaborator call to answer: `when(mock.method(matchers))`, with what it returns."""

    mock: str
    method: str
    matchers: str
    value: str | None  # None: a void method
    arguments: int = 0
    returns: str = "object"  # what kind of value: optional, collection, boolean, number or object

    def answer(self) -> str | None:
        """The stub statement returning the built value; None for a void method."""
        if self.value is None:
            return None
        return f"when({self.mock}.{self.method}({self.matchers})).thenReturn({self.value});"

    def failure(self, error: str = 'new IllegalStateException("collaborator failed")') -> str:
        """The stub statement making the call throw `error`."""
        if self.value is None:
            return f"doThrow({error}).when({self.mock}).{self.method}({self.matchers});"
        return f"when({self.mock}.{self.method}({self.matchers})).thenThrow({error});"

    @property
    def title(self) -> str:
        """The call as a name says it: `customersFindById`."""
        return camel(self.mock) + camel(self.method)

    @property
    def nothing(self) -> str:
        """The condition of a scenario where this call answers nothing: `whenCustomerNotFound`, `whenNoProducts`."""
        if self.returns == "optional":
            by = self.method.split("By", 1)[1] if "By" in self.method else ""
            return f"when{camel(singular(self.mock))}NotFound" + (f"By{by}" if by and by != "Id" else "")
        if self.returns == "collection":
            return f"whenNo{camel(self.mock)}"
        if self.returns in ("boolean", "number"):
            return f"when{self.title}Is{'False' if self.returns == 'boolean' else 'Zero'}"
        return f"when{self.title}ReturnsNull"


def call_stubs(context: ClassContext, calls: Sequence[CallSite]) -> list[Stub]:
    """A stub per distinct call of one of the class's mock fields whose method is known (and whose value, if it
    returns one, can be built), in the order of `calls`."""
    found: list[Stub] = []
    seen: set[tuple[str, str, int]] = set()
    for call in calls:
        mock = call.receiver
        if call.receiver_kind != "field" or mock is None or mock not in context.mocks:
            continue
        key = (mock, call.method, call.arguments)
        owner = context.mocks[mock]
        method = find_method(owner, call.method, call.arguments, context.lookup) if owner else None
        if key in seen or method is None:
            continue
        seen.add(key)
        signature, bindings = method
        matchers = ", ".join(matcher_for(p.type, bindings, context.imports) for p in signature.parameters)
        returned = signature.return_type
        if returned is None or returned.text == "void":
            found.append(Stub(mock, call.method, matchers, None, call.arguments))
            continue
        built = value_expression(returned, context.scope, bindings=bindings)
        if built is not None:
            found.append(Stub(mock, call.method, matchers, built.text, call.arguments, _kind(returned)))
    return found


def answer_stub(context: ClassContext, mock: str, method: str, arguments: int) -> str | None:
    """`when(mock.method(matchers)).thenReturn(built value);` for one call of a mock field, or None."""
    call = CallSite(method=method, receiver=mock, receiver_kind="field", arguments=arguments, line=0)
    found = call_stubs(context, [call])
    return found[0].answer() if found else None


def _kind(ref: TypeRef) -> str:
    fqn = ref.fqn or ""
    if fqn == "java.util.Optional":
        return "optional"
    if fqn in COLLECTIONS or ref.array:
        return "collection"
    if ref.text in ("boolean", "Boolean"):
        return "boolean"
    return "number" if ref.text in NUMERIC else "object"

"""Compensation paths: collaborator calls whose exception the method catches, and what its handler does (pure).

`try { receipt = payments.charge(..); } catch (PaymentDeclinedException e) { order.cancel(); ... }`: when
`PaymentGateway.charge` declares or documents that it throws PaymentDeclinedException, a scenario makes the
mock throw it, and the test asserts what the code does then (its result, the exception it rethrows, the calls
it makes to undo what it did).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from junitbot.analysis import CallSite, ClassInfo, MethodInfo, TypeRef
from junitbot.generation.template.access import ClassLookup
from junitbot.generation.template.assertions import find_method
from junitbot.generation.template.catches import Handler, documented_throws, handlers
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.naming import camel, third_person

_GETTERS = ("get", "is", "has", "to")


@dataclass(frozen=True)
class Compensation:
    """A collaborator call inside a `try` whose `catch` handles an exception that collaborator says it throws:
    a scenario makes the call throw it, so the handler runs. `handled_by` says what the handler does."""

    mock: str
    method: str
    arguments: int
    exception: TypeRef
    handled_by: str | None = None


def compensations(context: ClassContext, method: MethodInfo, *, source: Callable[[str], str | None],
                  resolve: Callable[[str], str | None]) -> list[Compensation]:
    """The collaborator calls of `method` (and the helpers it calls) inside a `try` whose `catch` names an
    exception the collaborator's method throws by its declaration or its Javadoc.

    `source(path)` gives a repo file's text; `resolve(simple name)` the FQN of a caught exception.
    """
    subject, mocks, lookup = context.subject, context.mocks, context.lookup
    text = source(subject.file)
    found = handlers(text) if text else []
    if not found:
        return []
    members = sorted((c for m in (*subject.methods, *subject.constructors) for c in m.calls), key=lambda c: c.line)
    result: list[Compensation] = []
    seen: set[tuple[str, str, int, str]] = set()
    for call in reachable_calls(subject, method):
        owner = mocks.get(call.receiver or "") if call.receiver_kind == "field" else None
        thrown = _thrown(owner, call, lookup, source) if owner else {}
        for handler in found:
            if not handler.guards(call.line):
                continue
            for caught in handler.caught:
                simple = caught.rsplit(".", 1)[-1]
                fqn = thrown.get(simple) or (resolve(simple) if simple in thrown else None)
                key = (call.receiver or "", call.method, call.arguments, simple)
                if fqn is None or key in seen:
                    continue
                seen.add(key)
                exception = TypeRef(text=simple, name=simple, fqn=fqn, in_repo=lookup(fqn) is not None)
                result.append(Compensation(mock=call.receiver or "", method=call.method, arguments=call.arguments,
                                           exception=exception, handled_by=_handled_by(members, handler)))
    return result


def _thrown(owner: str, call: CallSite, lookup: ClassLookup, source: Callable[[str], str | None]) -> dict[str, str]:
    """The exceptions the called method says it throws: simple name → FQN (empty where only its Javadoc knows)."""
    found = find_method(owner, call.method, call.arguments, lookup)
    if found is None:
        return {}
    signature, _ = found
    thrown = {t.name.rsplit(".", 1)[-1]: t.fqn or "" for t in signature.throws}
    declaring = _declaring(owner, signature, lookup, set())
    text = source(declaring.file) if declaring is not None else None
    if text is not None and signature.span is not None:
        for simple in documented_throws(text, signature.span.start_byte):
            thrown.setdefault(simple, "")
    return thrown


def _declaring(fqn: str, method: MethodInfo, lookup: ClassLookup, seen: set[str]) -> ClassInfo | None:
    info = lookup(fqn)
    if info is None or fqn in seen:
        return None
    seen.add(fqn)
    if any(m is method or m == method for m in info.methods):
        return info
    for parent in (*info.extends, *info.implements):
        found = _declaring(parent.fqn, method, lookup, seen) if parent.in_repo and parent.fqn else None
        if found is not None:
            return found
    return None


def _handled_by(calls: list[CallSite], handler: Handler) -> str | None:
    """What the handler does first, as a test name says it: `order.cancel()` → `cancelsOrder`."""
    for call in calls:
        if not handler.handles(call.line) or call.receiver_kind in ("type", "expression"):
            continue
        words = _words(call.method)
        if not words or words[0] in _GETTERS:
            continue
        if len(words) > 1 or call.receiver_kind in ("this", "none") or not call.receiver:
            return third_person(call.method)
        return third_person(call.method) + camel(call.receiver)
    return None


def _words(name: str) -> list[str]:
    """`releaseStock` → [`release`, `stock`]."""
    out: list[str] = []
    current = ""
    for char in name:
        if char.isupper() and current:
            out.append(current.lower())
            current = char
        else:
            current += char
    return [*out, current.lower()] if current else out


def reachable_calls(subject: ClassInfo, method: MethodInfo) -> list[CallSite]:
    """The method's calls and those of the class's own methods it calls (helpers), in order, once each."""
    by_name: dict[str, list[MethodInfo]] = {}
    for member in (*subject.methods, *subject.constructors):
        by_name.setdefault(member.name, []).append(member)
    calls: list[CallSite] = []
    visited: set[int] = set()
    pending = [method]
    while pending:
        current = pending.pop(0)
        if id(current) in visited:
            continue
        visited.add(id(current))
        for call in current.calls:
            calls.append(call)
            if call.receiver_kind in ("none", "this"):
                pending.extend(m for m in by_name.get(call.method, ()) if len(m.parameters) == call.arguments)
    return calls

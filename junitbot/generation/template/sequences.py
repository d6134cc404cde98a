"""Call sequences: state-changing calls in a row reach the behaviour one call alone cannot (pure).

An order is placed only once it has a line, paid only once placed, shipped only once paid. Feedback-directed:
a sequence of calls that ran without an exception and changed the object's state is extended with a call of a
method that threw when called alone; what succeeds becomes a test of that method `after` the sequence
(`ship_afterAddLinePlaceAndMarkPaid_changesStatusToShipped`) and a prefix for the next round. Once, the first
calls that changed state are also followed by each query that answered on a fresh object: what it answers on the
state they built is tested too, where it adds a branch or a killed mutant (the keep rule decides).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from junitbot.generation.template.bodies import accidental
from junitbot.generation.template.observations import Observation
from junitbot.generation.template.probe import Scenario

MAX_DEPTH = 4  # calls in one sequence, the last one included
MAX_PER_ROUND = 24  # new sequences per class and round
MAX_QUERIES = 12  # queries after one state-changing call, per class
DECLARED = re.compile(r"^[\w.<>\[\]?, ]+?\s+(\w+)\s*=")


# An iterator's cursor moves where no accessor shows it (StrTokenizer's `tokenPos`): its `next()` changes state.
ITERATORS = frozenset({"java.util.Iterator", "java.util.ListIterator"})
_ADVANCING = frozenset({"next"})


def prefixes(scenarios: Sequence[Scenario], observations: Mapping[str, Observation], *,
             void_too: bool = False, own_type: str | None = None, iterator: bool = False) -> list[Scenario]:
    """Scenarios a sequence may start with: an instance method's call that returned normally, not by accident,
    and changed its object's state (`void_too`: or returned nothing or the object itself, as a builder's setter
    does, a change its accessors may not show), or returned another object of the subject's class `own_type` (an
    immutable object's `withScale(2)`: such a start's call is the subject's assignment, `style =
    style.withScale(scale)`, so the sequence goes on with that object), or, on an `iterator`, moved its cursor
    (`next()`, after which `previous()` answers); one per method and sequence before it, the plainest first."""
    found: dict[tuple[tuple[str, ...], str], Scenario] = {}
    for scenario in scenarios:
        observed = observations.get(scenario.id)
        if (scenario.subject is None or scenario.constructor or observed is None
                or observed.outcome not in ("void", "returned") or accidental(scenario, observed)
                or len(scenario.after) + 1 >= MAX_DEPTH):
            continue
        if fluent(scenario, observed, own_type):
            scenario = scenario.model_copy(update={"call": f"{scenario.subject} = {scenario.call}"})
        elif not (observed.changed_state() or (void_too and (observed.outcome == "void" or observed.itself))
                  or (iterator and scenario.method in _ADVANCING and observed.outcome == "returned")):
            continue
        key = (scenario.after, scenario.method)
        if key not in found or (scenario.hint == "" and found[key].hint != ""):
            found[key] = scenario
    return list(found.values())


def fluent(scenario: Scenario, observed: Observation, own_type: str | None) -> bool:
    """Whether the call returned a new object of the subject's own class (not the subject itself): an immutable
    object's way to change, which a sequence continues by calling on what it returned."""
    value = observed.value
    return (own_type is not None and scenario.returns == own_type and observed.outcome == "returned"
            and not observed.itself and value is not None and value.cls is not None
            and value.cls.replace("$", ".") == own_type)


def locked(scenarios: Sequence[Scenario], observations: Mapping[str, Observation]) -> list[Scenario]:
    """The plain scenario of each instance method that threw when called on a fresh object: the calls a
    sequence may unlock."""
    succeeded = {s.method for s in scenarios if (o := observations.get(s.id)) is not None
                 and o.outcome in ("void", "returned") and not accidental(s, o)}
    return [s for s in scenarios if s.subject is not None and not s.constructor and not s.after and s.hint == ""
            and s.base is None and (o := observations.get(s.id)) is not None and o.outcome == "threw"
            and s.method not in succeeded]


def queries(scenarios: Sequence[Scenario], observations: Mapping[str, Observation]) -> list[Scenario]:
    """The plain scenario of each instance method that returned a value on a fresh object, not by accident: asked
    again after calls that changed the object (Randoop's feedback-directed extension), it reads the state they
    built (`indexOf("x")` after `append("x")`), which a fresh object never has."""
    return [s for s in scenarios if s.subject is not None and not s.constructor and not s.after and s.hint == ""
            and s.base is None and not s.returns_void and (o := observations.get(s.id)) is not None
            and o.outcome == "returned" and not accidental(s, o)]


def extend(starts: Sequence[Scenario], targets: Sequence[Scenario], *, prefix: str,
           limit: int = MAX_PER_ROUND) -> list[Scenario]:
    """Each start followed by each target (of another method, with no clashing local), as a new scenario; at most
    `limit`."""
    found: list[Scenario] = []
    for start in starts:
        for target in targets:
            if target.method == start.method or target.method in start.after or target.subject != start.subject:
                continue
            arrange = _joined(start, target)
            if arrange is None:
                continue
            after = (*start.after, start.method)
            found.append(target.model_copy(update={
                "id": f"{prefix}_{len(found)}", "hint": "after" + joined_names(after), "arrange": arrange,
                "after": after, "base": None, "withheld": None}))
            if len(found) >= limit:
                return found
    return found


def _joined(start: Scenario, target: Scenario) -> tuple[str, ...] | None:
    """The start's arrange step and call, then the target's arrange step (locals declared once), or None when
    both declare a local of the same name differently."""
    declared = {m[1]: line for line in start.arrange if (m := DECLARED.match(line)) is not None}
    lines = [*start.arrange, f"{start.call};"]
    for line in target.arrange:
        match = DECLARED.match(line)
        if match is not None and match[1] in declared:
            if declared[match[1]] != line:
                return None
            continue
        if line not in lines:
            lines.append(line)
    return tuple(lines)


def joined_names(methods: Sequence[str]) -> str:
    """`addLine`, `place`, `markPaid` → `AddLinePlaceAndMarkPaid`."""
    titled = [m[:1].upper() + m[1:] for m in methods]
    return titled[0] if len(titled) == 1 else "".join(titled[:-1]) + "And" + titled[-1]

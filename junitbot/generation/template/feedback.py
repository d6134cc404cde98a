"""What a first probe run teaches the scenarios: a second run of better ones (pure).

Two lessons. A scenario that died on a mock's default answer (an NPE, or a null handed back, because no stub
answered a call) is run again with that call stubbed to return a built value: the dead scenario becomes a real
one. A stub whose answer the code ignores (the outcome is the same without it: `orders.save(order)` whose
return value nobody reads) is dropped from the scenario it came from, so the final test stubs only what
matters and verifies the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from junitbot.generation.template.bodies import accidental
from junitbot.generation.template.observations import Observation, ObservedCall
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.stubs import stubbed_call

StubFor = Callable[[ObservedCall], str | None]
"""An unstubbed call → the `when(..).thenReturn(built value);` statement answering it, or None."""


@dataclass(frozen=True)
class Refinement:
    """The scenarios to probe again, and how the final tests use them.

    `simplified` maps a scenario's id to the id of the same scenario without the stubs that did not matter
    (used when both behave the same); `redundant` are variants that behaved exactly like their base;
    `superseded` are scenarios that returned a text input unchanged where a variant's input came back changed
    (`identity.superseded`).
    """

    scenarios: tuple[Scenario, ...] = ()
    simplified: Mapping[str, str] = field(default_factory=dict, hash=False)
    redundant: frozenset[str] = frozenset()
    superseded: frozenset[str] = frozenset()


def refine(scenarios: Sequence[Scenario], observations: Mapping[str, Observation], *,
           stub_for: StubFor) -> Refinement:
    """The second round for one class's scenarios, from what the first observed."""
    again: list[Scenario] = []
    simplified: dict[str, str] = {}
    redundant: set[str] = set()
    known = {_key(s.arrange) for s in scenarios}
    for scenario in scenarios:
        observed = observations.get(scenario.id)
        stubbed = _stubbed(scenario, observed, stub_for) if observed is not None and accidental(
            scenario, observed) else None
        if stubbed is not None and _key(stubbed.arrange) not in known:  # else: what it came from, already probed
            known.add(_key(stubbed.arrange))
            again.append(stubbed)
    by_id = {s.id: s for s in scenarios}
    variants: dict[str, list[Scenario]] = {}
    for scenario in scenarios:
        if scenario.base is not None and scenario.withheld is not None:
            variants.setdefault(scenario.base, []).append(scenario)
    for base_id, group in variants.items():
        base, observed = by_id.get(base_id), observations.get(base_id)
        if base is None or observed is None or observed.outcome == "missing" or accidental(base, observed):
            continue
        alike = [v for v in group if same_behaviour(observed, observations.get(v.id))]
        redundant.update(v.id for v in alike)
        ignored = {v.withheld for v in alike}
        if len(alike) == 1:
            simplified[base_id] = alike[0].id
        # The same method's other scenarios (a compensation path, a boundary input) go without those stubs too,
        # where they behave the same without them.
        for scenario in scenarios:
            if scenario.call != base.call or scenario.id in redundant or scenario.id in simplified:
                continue
            arrange = tuple(line for line in scenario.arrange if line not in ignored)
            if arrange != scenario.arrange:
                simpler = scenario.model_copy(update={"id": f"{scenario.id}x", "arrange": arrange})
                again.append(simpler)
                simplified[scenario.id] = simpler.id
    return Refinement(tuple(again), simplified, frozenset(redundant))


def same_behaviour(first: Observation, second: Observation | None) -> bool:
    """Whether two runs of a method did the same: outcome, result, exception and message, state changed."""
    if second is None or second.outcome == "missing":
        return False
    return (first.outcome, first.value, first.exception, first.message, first.changed_state()) == (
        second.outcome, second.value, second.exception, second.message, second.changed_state())


def _stubbed(scenario: Scenario, observed: Observation, stub_for: StubFor) -> Scenario | None:
    """The scenario again with the calls a mock's default answer broke stubbed, or None when none can be."""
    stubbed = {stubbed_call(line) for line in scenario.arrange} - {None}
    added = [stub for call in observed.calls if call.defaulted_to_null and call.key not in stubbed
             for stub in [stub_for(call)] if stub is not None]
    if not added:
        return None
    arrange = (*scenario.arrange, *dict.fromkeys(added))
    return scenario.model_copy(update={"id": f"{scenario.id}s", "arrange": arrange, "base": None, "withheld": None})


def _key(arrange: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(arrange))

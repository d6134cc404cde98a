"""The feedback round: dead scenarios stubbed again, stubs that did not matter dropped, sequences extended."""

from __future__ import annotations

from junitbot.generation.template.feedback import refine
from junitbot.generation.template.observations import Observation, ObservedCall, ObservedValue
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.sequences import extend, locked, prefixes

_FIND = "when(customers.find(any(String.class))).thenReturn(new Customer(\"jane\"));"
_SAVE = "when(customers.save(any(Customer.class))).thenReturn(new Customer(\"jane\"));"


def _returned(scenario: str, value: str) -> Observation:
    return Observation(scenario=scenario, outcome="returned", value=ObservedValue(t="Integer", v=value))


def test_a_scenario_dead_on_a_default_answer_is_probed_again_with_the_call_stubbed() -> None:
    scenario = Scenario(id="a", method="points", hint="", arrange=('String name = "jane";',), call="s.points(name)")
    npe = Observation(scenario="a", outcome="threw", exception="java.lang.NullPointerException", calls=(
        ObservedCall(mock="customers", method="find", arguments=1, returned=ObservedValue(t="null"),
                     default_answer=True),))
    found = refine([scenario], {"a": npe}, stub_for=lambda call: _FIND)
    (again,) = found.scenarios
    assert again.id == "as" and again.arrange == ('String name = "jane";', _FIND)


def test_stubs_whose_answers_do_not_matter_are_dropped_from_the_method_s_scenarios() -> None:
    base = Scenario(id="b", method="register", hint="", arrange=(_FIND, _SAVE), call="s.register(name)")
    without_save = Scenario(id="b1", method="register", hint="whenCustomersSaveReturnsNull", arrange=(_FIND,),
                            call="s.register(name)", base="b", withheld=_SAVE)
    without_find = Scenario(id="b2", method="register", hint="whenCustomerNotFound", arrange=(_SAVE,),
                            call="s.register(name)", base="b", withheld=_FIND)
    boundary = Scenario(id="b3", method="register", hint="withEmptyValues", arrange=(_FIND, _SAVE),
                        call="s.register(name)")
    seen = {"b": _returned("b", "1"), "b1": _returned("b1", "1"), "b2": _returned("b2", "2"),
            "b3": _returned("b3", "3")}
    found = refine([base, without_save, without_find, boundary], seen, stub_for=lambda call: None)
    assert found.simplified["b"] == "b1" and found.redundant == {"b1"}  # the save stub did not matter
    # Every other scenario of the method is tried without it too: the boundary input, the customer not found.
    assert {s.id: s.arrange for s in found.scenarios} == {"b2x": (), "b3x": (_FIND,)}
    assert found.simplified["b3"] == "b3x"


def test_a_sequence_extends_what_changed_state_with_what_failed_alone() -> None:
    state = {"t": "object", "components": {"locked": {"t": "Boolean", "v": "true"}}}
    changed = {"t": "object", "components": {"locked": {"t": "Boolean", "v": "false"}}}
    unlock = Scenario(id="u", method="unlock", hint="", call="door.unlock()", subject="door", returns_void=True)
    opening = Scenario(id="o", method="open", hint="", call="door.open()", subject="door", returns_void=True)
    seen = {"u": Observation(scenario="u", outcome="void", before=ObservedValue.model_validate(state),
                             after=ObservedValue.model_validate(changed)),
            "o": Observation(scenario="o", outcome="threw", exception="java.lang.IllegalStateException")}
    starts = prefixes([unlock, opening], seen)
    targets = locked([unlock, opening], seen)
    assert [s.id for s in starts] == ["u"] and [t.id for t in targets] == ["o"]
    (sequence,) = extend(starts, targets, prefix="q")
    assert sequence.arrange == ("door.unlock();",) and sequence.hint == "afterUnlock" and sequence.after == ("unlock",)

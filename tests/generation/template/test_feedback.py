"""The feedback round: dead scenarios stubbed again, stubs that did not matter dropped, sequences extended."""

from __future__ import annotations

from junitbot.generation.template.feedback import refine
from junitbot.generation.template.observations import Observation, ObservedCall, ObservedValue
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.sequences import extend, locked, prefixes, queries

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


def test_an_immutable_object_s_sequence_goes_on_with_the_object_a_call_returned() -> None:
    """Randoop extends a sequence with what its calls return: `withScale(2)` leaves its object as it was and returns
    a new one, so the query after it is asked of that one (`style = style.withScale(2);`)."""
    own = "demo.Style"
    with_scale = Scenario(id="w", method="withScale", hint="", arrange=("int scale = 2;",),
                          call="style.withScale(scale)", subject="style", returns=own)
    itself = Scenario(id="i", method="trimmed", hint="", call="style.trimmed()", subject="style", returns=own)
    scale = Scenario(id="g", method="getScale", hint="", call="style.getScale()", subject="style", returns="int")
    styled = ObservedValue.model_validate({"t": "object", "class": own,
                                           "components": {"scale": {"t": "Integer", "v": "2"}}})
    seen = {"w": Observation(scenario="w", outcome="returned", value=styled),
            "i": Observation(scenario="i", outcome="returned", value=styled, itself=True),
            "g": _returned("g", "0")}
    assert prefixes([with_scale, itself, scale], seen) == []  # nothing changed the object itself
    starts = prefixes([with_scale, itself, scale], seen, own_type=own)
    assert [s.id for s in starts] == ["w"]
    found = extend(starts, queries([with_scale, itself, scale], seen), prefix="u")
    (sequence,) = [s for s in found if s.method == "getScale"]
    assert sequence.arrange == ("int scale = 2;", "style = style.withScale(scale);")
    assert sequence.call == "style.getScale()" and sequence.after == ("withScale",)


def test_an_iterator_s_next_moves_its_cursor_so_what_failed_alone_is_tried_after_it() -> None:
    """commons-lang's StrTokenizer is a ListIterator: `next()` changes no accessor's value (its cursor is a field
    without one), and `previous()`, which threw on a fresh tokenizer, answers only after it."""
    advance = Scenario(id="n", method="next", hint="", call="tokenizer.next()", subject="tokenizer", returns="String")
    back = Scenario(id="p", method="previous", hint="", call="tokenizer.previous()", subject="tokenizer",
                    returns="String")
    seen = {"n": Observation(scenario="n", outcome="returned", value=ObservedValue(t="String", v="a")),
            "p": Observation(scenario="p", outcome="threw", exception="java.util.NoSuchElementException")}
    assert prefixes([advance, back], seen) == []  # no accessor changed: not a state change by itself
    starts = prefixes([advance, back], seen, iterator=True)
    (sequence,) = extend(starts, locked([advance, back], seen), prefix="q")
    assert sequence.arrange == ("tokenizer.next();",) and sequence.call == "tokenizer.previous()"
    assert sequence.hint == "afterNext"

"""Scenarios whose method returned a text input unchanged: amplified inputs, and the identity's test superseded."""

from __future__ import annotations

import json

from junitbot.generation.template.identity import MAX_PER_CLASS, amplified, settled, unchanged_input
from junitbot.generation.template.observations import Observation, ObservedValue
from junitbot.generation.template.probe import Scenario


def _text(scenario: str, value: str) -> Observation:
    return Observation(scenario=scenario, outcome="returned", value=ObservedValue(t="String", v=value))


_SQUEEZE = Scenario(id="s", method="squeeze", hint="", call="CharSetUtils.squeeze(str, set)",
                    arrange=('String str = "text";', 'String set = "t";'))


def test_the_text_handed_back_unchanged_is_amplified_into_shapes_a_text_method_acts_on() -> None:
    assert unchanged_input(_SQUEEZE, _text("s", "text")) == "str"
    variants = amplified([_SQUEEZE], {"s": _text("s", "text")}, prefix="i0")
    assert [(v.origins, v.local) for v in variants] == [(("s",), "str")] * 7
    by_hint = {v.scenario.hint: v.scenario.arrange[0] for v in variants}
    assert by_hint == {"whenStrHasRepeatedCharacters": 'String str = "tteexxtt";',
                       # What escaping code acts on (`escapeCsv("text")` is "text"), and what unescaping code reads.
                       "whenStrHasMarkup": 'String str = "<text> & \\"text\\", text\'s \\u00e9\\n";',
                       "whenStrContainsSetTwice": 'String str = "tettxt";',
                       "whenStrIsPadded": 'String str = "  Text  ";',
                       "whenStrHasTwoWords": 'String str = "text te";',
                       "whenStrHasEscapes": 'String str = "\\\\\\"text\\\\\\"\\\\n&lt;text&gt;";',
                       "whenStrIsQuoted": 'String str = "\\"text, text\\"";'}
    assert all(v.scenario.arrange[1] == 'String set = "t";' and v.scenario.id.startswith("i0_") for v in variants)


def test_every_method_of_a_class_gets_its_first_shapes_before_any_gets_more() -> None:
    # commons-lang's StringEscapeUtils: twenty methods hand "text" and "  Text  " back; the first four used to take
    # every variant a class gets, and the other sixteen kept tests that hold for the identity.
    scenarios = [Scenario(id=f"m{n}_{k}", method=f"escape{n}", hint=f"v{k}", call=f"Escapes.escape{n}(input)",
                          arrange=(f'String input = "{text}";',))
                 for n in range(20) for k, text in enumerate(("text", "  Text  "))]
    seen = {s.id: _text(s.id, json.loads(s.arrange[0].split(" = ", 1)[1][:-1])) for s in scenarios}
    variants = amplified(scenarios, seen, prefix="i0")
    assert len(variants) == MAX_PER_CLASS
    assert {v.scenario.method for v in variants} == {f"escape{n}" for n in range(20)}
    assert [v.scenario.hint for v in variants[:20]] == ["v0WhenInputHasMarkup"] * 20
    assert variants[0].origins == ("m0_0", "m0_1")  # one call, one question: both scenarios it amplifies
    changed = settled(variants, {variants[0].scenario.id: _text("x", "&lt;text&gt;")})
    assert changed[0] == {"m0_0", "m0_1"}


def test_only_an_unchanged_non_empty_argument_counts() -> None:
    assert unchanged_input(_SQUEEZE, _text("s", "txt")) is None  # it changed
    empty = _SQUEEZE.model_copy(update={"arrange": ('String str = "";', 'String set = "t";')})
    assert unchanged_input(empty, _text("s", "")) is None  # an empty answer is a boundary, not an identity
    local = _SQUEEZE.model_copy(update={"call": "CharSetUtils.squeeze(set, \"x\")"})
    assert unchanged_input(local, _text("s", "text")) is None  # `str` is not passed
    threw = Observation(scenario="s", outcome="threw", exception="java.lang.IllegalArgumentException")
    assert unchanged_input(_SQUEEZE, threw) is None and amplified([_SQUEEZE], {"s": threw}, prefix="i") == []


def test_a_variant_that_came_back_changed_supersedes_the_identity_and_one_that_did_not_goes() -> None:
    variants = amplified([_SQUEEZE], {"s": _text("s", "text")}, prefix="i0")
    ids = {v.scenario.hint: v.scenario.id for v in variants}
    unchanged = {v.scenario.id: _text(v.scenario.id, json.loads(v.scenario.arrange[0].split(" = ", 1)[1][:-1]))
                 for v in variants}
    assert settled(variants, unchanged) == (frozenset(), frozenset(ids.values()))
    repeated = ids["whenStrHasRepeatedCharacters"]
    superseded, redundant = settled(variants, {**unchanged, repeated: _text("x", "teexx")})
    assert superseded == {"s"} and redundant == set(ids.values()) - {repeated}
    # "t" coming back is the other argument, not the text the variant changed: it changed.
    assert settled(variants, {**unchanged, repeated: _text("x", "t")})[0] == {"s"}
    failed = {**unchanged, ids["whenStrIsPadded"]: Observation(scenario="x", outcome="threw",
                                                                exception="java.lang.IllegalStateException")}
    assert settled(variants, failed)[0] == frozenset()

"""select_methods: TestGen-LLM's filter with mutants, on hand-made probe sets (pure)."""

from __future__ import annotations

from junitbot.validation.judge.selection import select_methods
from junitbot.validation.measure.models import ProbeHits

FOO = "com/acme/Foo"


def _hits(*probes: int, name: str = FOO) -> ProbeHits:
    return ProbeHits.of({(name, 7): probes})


def test_a_method_adding_an_edge_or_a_kill_is_kept_and_a_later_twin_is_not() -> None:
    gains = select_methods(
        ["T#a", "T#b", "T#c", "T#d"],
        hits={"T#a": _hits(1, 2), "T#b": _hits(1, 2), "T#c": _hits(1), "T#d": _hits(3)},
        kills={"T#c": {"m1"}, "T#b": {"m0"}},
        baseline_probes=_hits(1), baseline_kills={"m0"}, classes=["com.acme.Foo"])
    assert [gains[t].adds for t in ["T#a", "T#b", "T#c", "T#d"]] == [True, False, True, True]
    assert gains["T#a"].describe() == "1 new edge"
    assert gains["T#c"].describe() == "kills 1 mutant"  # covers nothing new, but catches what nobody else does
    assert gains["T#b"].describe() == "nothing new"  # m0 was the existing tests' already


def test_only_the_classes_under_test_count() -> None:
    gains = select_methods(["T#a"], hits={"T#a": _hits(5, name="com/acme/Helper")}, kills={},
                           baseline_probes=ProbeHits(), baseline_kills=(), classes=["com.acme.Foo"])
    assert not gains["T#a"].adds


def test_nested_classes_count_with_their_outer_class() -> None:
    gains = select_methods(["T#a"], hits={"T#a": _hits(0, name="com/acme/Foo$Builder")}, kills={},
                           baseline_probes=ProbeHits(), baseline_kills=(), classes=["com.acme.Foo"])
    assert gains["T#a"].probes == 1

"""A coverage round's new tests stay when they add to their class: more coverage, or a mutant only they kill."""

from __future__ import annotations

from junitbot.generation.template.rounds import adds_to
from junitbot.validation import ClassCoverage, Counter, MethodVerdict, SuiteFigures, SuiteGain, Verdict

TARGET = "org.example.Alphabet"


def _verdict(*methods: MethodVerdict, lines: int = 10, branches: int = 4) -> Verdict:
    coverage = ClassCoverage(fqn=TARGET, lines=Counter(covered=lines, missed=20 - lines),
                             branches=Counter(covered=branches, missed=8 - branches))
    return Verdict(path="src/test/java/org/example/AlphabetGeneratedTest.java", target=TARGET,
                   kept=any(m.kept for m in methods), methods=methods, coverage=coverage)


FIRST = MethodVerdict(name="createReturnsAlphabet", kept=True, adds="3 new edges")


def test_a_new_method_that_kills_a_mutant_on_covered_lines_adds_to_the_class() -> None:
    # An invalid code point kills `charCount(i) == 1` → false on lines the first tests already cover: the
    # coverage is the same, the keep rule kept the method for its kill, and that is what the round is for.
    before = _verdict(FIRST)
    again = _verdict(FIRST, MethodVerdict(name="createWhenOriginalIsMinus1", kept=True, adds="kills 1 mutant"))

    assert adds_to(again, before, {"createWhenOriginalIsMinus1"})


def test_new_methods_that_add_nothing_and_the_same_coverage_do_not() -> None:
    before = _verdict(FIRST)
    # Kept only because nothing is dropped (`require_gain: false`): the keep rule found nothing they add.
    again = _verdict(FIRST, MethodVerdict(name="createWhenOriginalIs0", kept=True, adds=None))
    dropped = _verdict(FIRST, MethodVerdict(name="createWhenOriginalIs0", kept=False,
                                            reason="adds no line, branch or killed mutant"))

    assert not adds_to(again, before, {"createWhenOriginalIs0"})
    assert not adds_to(dropped, before, {"createWhenOriginalIs0"})


def test_only_the_round_s_own_methods_count_and_coverage_that_grows_does() -> None:
    before = _verdict(FIRST)
    # The first round's method says what it adds again: that is not the round's doing.
    assert not adds_to(_verdict(FIRST), before, {"createWhenOriginalIs0"})
    assert adds_to(_verdict(FIRST, MethodVerdict(name="createWhenOriginalIs0", kept=True), branches=5), before,
                   {"createWhenOriginalIs0"})
    assert not adds_to(_verdict(MethodVerdict(name="createReturnsAlphabet", kept=False, reason="failed")), before,
                       {"createWhenOriginalIs0"})


def test_a_round_that_covers_or_kills_less_than_before_does_not_add_to_the_class() -> None:
    # A round's test on chosen texts takes the place of one on made-up texts: where that one killed a mutant or
    # covered a line the new tests do not, the round is not kept, whatever its new method adds.
    def killing(killed: int, *methods: MethodVerdict, branches: int = 4) -> Verdict:
        figures = SuiteFigures(mutants=Counter(covered=killed, missed=10 - killed))
        return _verdict(*methods, branches=branches).model_copy(
            update={"gain": SuiteGain(generated=figures, after=figures)})

    new = MethodVerdict(name="createWhenOriginalIsMinus1", kept=True, adds="kills 1 mutant")
    assert adds_to(killing(5, FIRST, new), killing(5, FIRST), {new.name})
    assert not adds_to(killing(4, FIRST, new), killing(5, FIRST), {new.name})
    assert not adds_to(killing(5, FIRST, new, branches=3), killing(5, FIRST), {new.name})

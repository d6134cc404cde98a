"""The existing tests' mutants where PIT fails on the whole of a target's suite: its own test classes again alone."""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.analysis import TypeRow
from junitbot.validation.measure.baseline import _mutant_fields, _mutants_by_target
from junitbot.validation.measure.models import Mutant, MutationReport

TOKENIZER = "org.example.text.StringTokenizer"
BUILDER_TEST = "org.example.text.TextStringBuilderTest"  # uses the tokenizer; one of its tests ends PIT's minion
TOKENIZER_TEST = "org.example.text.StringTokenizerTest"
CASE = "org.example.text.CaseUtils"  # a second target of the run, whose only test is one that uses it
DIED = "PIT failed (exit code 1): PitError: Coverage generation minion exited abnormally! (UNKNOWN_ERROR)"


def _row(fqn: str) -> TypeRow:
    name = fqn.rsplit(".", 1)[-1]
    return TypeRow(fqn, f"src/test/java/{fqn.replace('.', '/')}.java", name, "class", None, True, None, 1)


def _killed(test: str) -> Mutant:
    return Mutant(class_name=TOKENIZER, method="next", line=40, mutator="NegateConditionalsMutator",
                  status="KILLED", killing_tests=(f"{test}#next",))


def test_where_pit_dies_on_a_wide_suite_a_target_s_own_test_classes_say_what_they_kill() -> None:
    asked: list[tuple[str, ...]] = []

    def mutate(tests: Sequence[str], folder: str) -> MutationReport:
        asked.append(tuple(tests))
        return MutationReport(error=DIED) if BUILDER_TEST in tests else MutationReport(mutants=(_killed(tests[0]),))

    rows = {fqn: _row(fqn) for fqn in (BUILDER_TEST, TOKENIZER_TEST)}
    found = _mutants_by_target(mutate, [BUILDER_TEST, TOKENIZER_TEST],
                               {TOKENIZER: [TOKENIZER_TEST, BUILDER_TEST], CASE: [BUILDER_TEST]}, rows)

    assert asked == [(BUILDER_TEST, TOKENIZER_TEST), (TOKENIZER_TEST,)]
    report, note = found[TOKENIZER]
    assert _mutant_fields(report, TOKENIZER)["mutants_total"] == 1
    assert note is not None and "StringTokenizerTest alone" in note and "minion exited abnormally" in note
    # A target none of whose test classes is named after it keeps the failure: nothing it kills is known.
    assert found[CASE] == (MutationReport(error=DIED), None) and _mutant_fields(found[CASE][0], CASE) == {}


def test_pit_runs_once_where_it_succeeds_ran_out_of_time_or_only_named_tests_ran() -> None:
    for first in (MutationReport(mutants=(_killed(TOKENIZER_TEST),)), MutationReport(timed_out=True, error="budget")):
        asked: list[tuple[str, ...]] = []

        def mutate(tests: Sequence[str], folder: str, report: MutationReport = first,
                   seen: list[tuple[str, ...]] = asked) -> MutationReport:
            seen.append(tuple(tests))
            return report

        found = _mutants_by_target(mutate, [BUILDER_TEST, TOKENIZER_TEST], {TOKENIZER: [TOKENIZER_TEST, BUILDER_TEST]},
                                   {fqn: _row(fqn) for fqn in (BUILDER_TEST, TOKENIZER_TEST)})
        assert len(asked) == 1 and found[TOKENIZER] == (first, None)
    # Every test already named after a target: running them again would fail the same way.
    asked = []
    _mutants_by_target(lambda tests, folder: asked.append(tuple(tests)) or MutationReport(error=DIED),
                       [TOKENIZER_TEST], {TOKENIZER: [TOKENIZER_TEST]}, {TOKENIZER_TEST: _row(TOKENIZER_TEST)})
    assert len(asked) == 1

"""PIT's XML report read into Mutant records: a report captured from a real run (tests/fixtures/pit/), test names of
every JUnit shape, and what is no report."""

from __future__ import annotations

from pathlib import Path

import pytest

from junitbot.errors import JunitbotError
from junitbot.validation.measure.models import MutationReport
from junitbot.validation.measure.pit_report import parse_mutations_xml, pit_test_id

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pit"


def test_a_real_report_parses_with_every_killer_of_every_mutant() -> None:
    mutants = parse_mutations_xml((FIXTURES / "mutations.xml").read_bytes())
    assert [(m.class_name, m.method, m.line, m.mutator, m.status) for m in mutants] == [
        ("com.acme.Counter", "add", 5, "MathMutator", "KILLED"),
        ("com.acme.Counter", "add", 5, "PrimitiveReturnsMutator", "KILLED"),
        ("com.acme.Counter", "countUp", 14, "ConditionalsBoundaryMutator", "KILLED"),
        ("com.acme.Counter", "countUp", 14, "RemoveConditionalMutator_ORDER_ELSE", "KILLED"),
        ("com.acme.Counter", "countUp", 17, "PrimitiveReturnsMutator", "KILLED"),
        ("com.acme.Counter", "positive", 9, "ConditionalsBoundaryMutator", "SURVIVED"),
        ("com.acme.Counter", "positive", 9, "RemoveConditionalMutator_ORDER_ELSE", "KILLED"),
        ("com.acme.Counter", "positive", 9, "BooleanTrueReturnValsMutator", "SURVIVED"),
        ("com.acme.Counter", "unused", 21, "EmptyObjectReturnValsMutator", "NO_COVERAGE"),
        ("com.acme.Counter$Doubler", "twice", 26, "MathMutator", "KILLED"),
        ("com.acme.Counter$Doubler", "twice", 26, "PrimitiveReturnsMutator", "KILLED"),
    ]
    first = mutants[0]
    assert first.killing_tests == ("com.acme.CounterTest#addsAgain", "com.acme.CounterTest#adds")
    assert (first.descriptor, first.indexes, first.description) == ("(II)I", (5,), "Replaced integer addition with "
                                                                                    "subtraction")
    assert first.key == "com.acme.Counter.add(II)I@5:MathMutator:5"
    assert mutants[2].killing_tests == ("com.acme.CounterTest#countsUp",)  # two invocations, one method
    assert mutants[6].killing_tests == ("com.acme.CounterTest$Signs#fiveIsPositive",)
    assert mutants[8].description == 'replaced return value with "" for com/acme/Counter::unused'
    assert len({m.key for m in mutants}) == len(mutants)
    report = MutationReport(mutants=tuple(mutants))
    figures = report.by_class()
    assert list(figures) == ["com.acme.Counter"]  # the nested Doubler's mutants count with their class
    assert (figures["com.acme.Counter"].total, figures["com.acme.Counter"].killed,
            figures["com.acme.Counter"].survived, figures["com.acme.Counter"].no_coverage) == (11, 8, 2, 1)
    assert report.score == pytest.approx(8 / 11)
    assert report.kills_by_test()["com.acme.CounterTest$Signs#fiveIsPositive"] == {mutants[6].key}
    assert report.killed_by(["com.acme.CounterTest$Signs"]) == {mutants[6].key}
    assert len(report.killed_by(["com.acme.CounterTest"])) == 8


@pytest.mark.parametrize(("name", "expected"), [
    ("a.BTest.[engine:junit-jupiter]/[class:a.BTest]/[method:adds()]", "a.BTest#adds"),
    ("a.BTest.[engine:junit-jupiter]/[class:a.BTest]/[nested-class:When]/[nested-class:Empty]/[method:m(int)]",
     "a.BTest$When$Empty#m"),
    ("a.BTest.[engine:junit-jupiter]/[class:a.BTest]/[test-template:counts(int)]/[test-template-invocation:#2]",
     "a.BTest#counts"),
    ("a.BTest.[engine:junit-jupiter]/[class:a.BTest]/[test-factory:cases()]/[dynamic-test:#1]", "a.BTest#cases"),
    ("a.BTest.[engine:junit-vintage]/[runner:a.BTest]/[test:adds(a.BTest)]", "a.BTest#adds"),
    ("a.BTest.adds(a.BTest)", "a.BTest#adds"),
    ("something else", "something else"),
])
def test_pit_test_names_become_class_and_method_ids(name: str, expected: str) -> None:
    assert pit_test_id(name) == expected


@pytest.mark.parametrize(("text", "message"), [
    (b"garbage", "malformed PIT XML report"),
    (b"<mutations><mutation status='KILLED'>", "malformed PIT XML report"),
    (b"<testsuite/>", "not a PIT XML report: root element <testsuite>"),
    (b'<!DOCTYPE m [<!ENTITY a "aaaa">]><mutations/>', "carries a DTD or entities"),
    (b"<mutations><mutation status='ZAPPED'/></mutations>", "mutation 1 has an unknown status 'ZAPPED'"),
    (b"<mutations><mutation status='KILLED'><mutatedClass>a.B</mutatedClass></mutation></mutations>",
     "mutation 1 has no <lineNumber>"),
])
def test_what_is_no_pit_report_is_an_error(text: bytes, message: str) -> None:
    with pytest.raises(JunitbotError) as raised:
        parse_mutations_xml(text)
    assert message in str(raised.value)

"""Mutation analysis with the real PIT 1.30.1 command line on javac-compiled JUnit 5 and 6 tests: kills, survivors,
every killer, the history, changed lines, the time budget, PIT's failures."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.validation.measure.models import MutationReport, PitOptions
from junitbot.validation.measure.pit import run_mutation_analysis
from tests.conftest import session_tools_dir
from tests.validation.run.test_launcher import compile_java

SETTINGS = ValidationSettings()

ADDER = """package com.acme;

public class Adder {
    public int add(int a, int b) {
        return a + b;
    }

    public boolean positive(int a) {
        return a > 0;
    }

    static class Doubler {
        int twice(int x) {
            return x * 2;
        }
    }
}
"""
ADD_LINE, POSITIVE_LINE = 5, 9

ADDER_TEST = """package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class AdderTest {
    @Test void sums() { assertEquals(5, new Adder().add(2, 3)); }
    @Test void sumsAgain() { assertEquals(7, new Adder().add(3, 4)); }
    @Test void onlyCalls() { new Adder().add(2, 3); }

    @Nested class Signs {
        @Test void fiveIsPositive() { assertTrue(new Adder().positive(5)); }
    }
}
"""

WEAK_TEST = """package com.acme;

import org.junit.jupiter.api.Test;

class WeakAdderTest {
    @Test void onlyCalls() { new Adder().add(2, 3); }
}
"""

EXITING_TEST = """package com.acme;

import org.junit.jupiter.api.Test;

class ExitingTest {
    @Test void exits() { System.exit(3); }
}
"""

SHAPE = "package com.acme;\n\npublic interface Shape {\n    double area();\n}\n"


class Project:
    """The compiled classes and tests above, their classpath, and the first real PIT run over them."""

    def __init__(self, root: Path, classpath: list[str], tools_dir: Path) -> None:
        self.root, self.classpath, self.tools_dir = root, classpath, tools_dir
        self.history = root / "history" / "pit-history.json"
        self.first = self.analyse(["com.acme.Adder"], ["com.acme.AdderTest"], history_file=self.history)

    def analyse(self, targets: list[str], tests: list[str], *, history_file: Path | None = None, work: str = "work",
                budget_s: float | None = None, changed_lines: Mapping[str, Collection[int]] | None = None,
                excluded_methods: tuple[str, ...] = ()) -> MutationReport:
        options = PitOptions(tools_dir=self.tools_dir, history_file=history_file, budget_s=budget_s,
                             excluded_methods=excluded_methods,
                             changed_lines=None if changed_lines is None
                             else {name: frozenset(lines) for name, lines in changed_lines.items()})
        return run_mutation_analysis(target_classes=targets, test_classes=tests, classpath=self.classpath,
                                     workdir=self.root / work, settings=SETTINGS, options=options)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, maven_jars: Callable[[str], list[str]]) -> Project:
    jars = maven_jars("org.junit.jupiter:junit-jupiter:5.11.4")  # no junit-platform-launcher among them
    root = tmp_path_factory.mktemp("pit")
    main = compile_java({"com/acme/Adder.java": ADDER, "com/acme/Shape.java": SHAPE}, root / "classes", jars=jars)
    tests = compile_java({"com/acme/AdderTest.java": ADDER_TEST, "com/acme/WeakAdderTest.java": WEAK_TEST,
                          "com/acme/ExitingTest.java": EXITING_TEST}, root / "test-classes", [str(main)], jars=jars)
    return Project(root, [str(main), str(tests), *jars], session_tools_dir(tmp_path_factory))


def _by_key(report: MutationReport) -> dict[tuple[str, str, int, str], tuple[str, tuple[str, ...]]]:
    return {(m.class_name, m.method, m.line, m.mutator): (m.status, tuple(sorted(m.killing_tests)))
            for m in report.mutants}


def test_a_strong_assertion_kills_the_sum_mutant_and_every_killer_is_named(project: Project) -> None:
    report = project.first
    assert report.error is None and not report.timed_out
    assert report.analysed == ("com.acme.Adder",) and report.from_history == ()
    mutants = _by_key(report)
    # The full matrix: both asserting tests kill `a - b`, the test that only calls add() does not.
    assert mutants[("com.acme.Adder", "add", ADD_LINE, "MathMutator")] == (
        "KILLED", ("com.acme.AdderTest#sums", "com.acme.AdderTest#sumsAgain"))
    assert mutants[("com.acme.Adder", "positive", POSITIVE_LINE, "RemoveConditionalMutator_ORDER_ELSE")] == (
        "KILLED", ("com.acme.AdderTest$Signs#fiveIsPositive",))
    assert mutants[("com.acme.Adder", "positive", POSITIVE_LINE, "ConditionalsBoundaryMutator")] == ("SURVIVED", ())
    # Nested classes are targets too: no test reaches the Doubler.
    assert {status for (cls, *_), (status, _) in mutants.items() if cls == "com.acme.Adder$Doubler"} == {"NO_COVERAGE"}
    figures = report.by_class()["com.acme.Adder"]
    assert (figures.total, figures.killed, figures.detected, figures.survived, figures.no_coverage) == (7, 3, 3, 2, 2)
    assert figures.score == pytest.approx(3 / 7) == report.score
    # What the keep filter asks: the weak test kills nothing, one strong test kills what the other kills too.
    assert report.killed_by(["com.acme.AdderTest#onlyCalls"]) == frozenset()
    assert report.killed_by(["com.acme.AdderTest#sums"]) == report.killed_by(["com.acme.AdderTest#sumsAgain"])
    assert report.killed_by(["com.acme.AdderTest"]) == report.detected_keys()
    # The classpath had no junit-platform-launcher: the one of its platform (1.11.4) was fetched for PIT.
    assert (project.tools_dir / "junit-platform-launcher-1.11.4" / "junit-platform-launcher-1.11.4.jar").is_file()


def test_tests_on_jupiter_6_run_with_the_6_launcher(maven_jars: Callable[[str], list[str]], tmp_path: Path,
                                                     project: Project) -> None:
    jars = maven_jars("org.junit.jupiter:junit-jupiter:6.0.0")
    main = project.classpath[0]  # Adder needs no JUnit
    tests = compile_java({"com/acme/AdderTest.java": ADDER_TEST}, tmp_path / "test-classes", [main], jars=jars)
    report = run_mutation_analysis(target_classes=["com.acme.Adder"], test_classes=["com.acme.AdderTest"],
                                   classpath=[main, str(tests), *jars], workdir=tmp_path / "work",
                                   settings=SETTINGS, options=PitOptions(tools_dir=project.tools_dir))
    assert report.error is None
    assert _by_key(report) == _by_key(project.first)  # the same verdicts as on Jupiter 5
    assert (project.tools_dir / "junit-platform-launcher-6.0.0").is_dir()


def test_a_test_without_assertions_leaves_the_sum_mutant_alive(project: Project, tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    history = tmp_path / "history.json"
    history.write_text("{not json", encoding="utf-8")  # a damaged history costs a rerun, not the run
    with caplog.at_level(logging.WARNING, logger="junitbot.validation.measure.pit"):
        report = project.analyse(["com.acme.Adder"], ["com.acme.WeakAdderTest"], history_file=history, work="weak")
    assert report.error is None
    assert _by_key(report)[("com.acme.Adder", "add", ADD_LINE, "MathMutator")] == ("SURVIVED", ())
    assert report.detected_keys() == frozenset()
    assert "ignoring the unreadable mutation history" in caplog.text
    assert "com.acme.Adder" in history.read_text(encoding="utf-8")


def test_a_rerun_over_the_same_classes_and_tests_comes_from_the_history(project: Project,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a rerun from the history started a process: {args}")

    monkeypatch.setattr("junitbot.validation.measure.pit.run_process", no_process)  # no JVM started at all
    assert project.history.is_file()
    rerun = project.analyse(["com.acme.Adder"], ["com.acme.AdderTest"], history_file=project.history)
    assert rerun.mutants == project.first.mutants
    assert rerun.from_history == ("com.acme.Adder",) and rerun.analysed == ()


def test_changed_lines_keep_only_the_mutants_on_them(project: Project) -> None:
    report = project.analyse(["com.acme.Adder", "com.acme.Shape"], ["com.acme.AdderTest"],
                             history_file=project.history, changed_lines={"com.acme.Adder": {ADD_LINE}})
    assert report.error is None and report.from_history == ("com.acme.Adder",)  # Shape has no changed line
    assert {m.line for m in report.mutants} == {ADD_LINE}
    assert len(report.mutants) == sum(m.line == ADD_LINE for m in project.first.mutants) > 0
    untouched = project.analyse(["com.acme.Adder"], ["com.acme.AdderTest"], changed_lines={"com.acme.Adder": ()})
    assert untouched == MutationReport(seconds=untouched.seconds)


def test_excluded_methods_are_not_mutated_and_their_history_is_apart(project: Project) -> None:
    # The keep rule leaves out the methods whose every mutant the existing tests kill (`settled_methods`).
    report = project.analyse(["com.acme.Adder"], ["com.acme.AdderTest"], history_file=project.history,
                             excluded_methods=("add",))
    assert report.error is None and report.analysed == ("com.acme.Adder",)  # other options: not the history's
    assert {m.method for m in report.mutants} == {m.method for m in project.first.mutants} - {"add"}
    assert _by_key(report) == {key: value for key, value in _by_key(project.first).items() if key[1] != "add"}


def test_an_interface_has_no_mutants_and_that_is_no_error(project: Project) -> None:
    report = project.analyse(["com.acme.Shape"], ["com.acme.AdderTest"], work="shape")
    assert report.error is None and report.mutants == () and report.analysed == ("com.acme.Shape",)


def test_a_run_past_its_budget_measures_nothing_and_says_so(project: Project, tmp_path: Path) -> None:
    history = tmp_path / "history.json"
    report = project.analyse(["com.acme.Adder"], ["com.acme.AdderTest"], history_file=history, budget_s=1.0,
                             work="late")
    assert report.timed_out and report.mutants == ()
    assert report.error is not None and "nothing was measured for com.acme.Adder" in report.error
    assert not history.exists()


def test_pit_failing_gives_a_report_with_the_reason(project: Project, tmp_path: Path) -> None:
    report = project.analyse(["com.acme.Adder"], ["com.acme.ExitingTest"], history_file=tmp_path / "h.json",
                             work="exit")
    assert report.mutants == () and not report.timed_out
    assert report.error is not None and report.error.startswith("PIT failed (exit code 1): PitError: Coverage")
    assert "System.exit" in report.error
    assert not (tmp_path / "h.json").exists()


def test_targets_without_class_files_are_an_error_before_pit_runs(project: Project) -> None:
    report = project.analyse(["com.acme.Missing"], ["com.acme.AdderTest"])
    assert report.error == "no class file on the classpath for com.acme.Missing"


def test_without_the_full_matrix_a_mutant_names_one_killer_and_the_same_mutants_die(project: Project) -> None:
    # A human suite's baseline needs only which mutants die; PIT then stops at the first killing test (commons-lang's
    # suite ran past its 630 s budget with every killer of every mutant asked for).
    options = PitOptions(tools_dir=project.tools_dir, full_matrix=False)
    report = run_mutation_analysis(target_classes=["com.acme.Adder"], test_classes=["com.acme.AdderTest"],
                                   classpath=project.classpath, workdir=project.root / "first-killer",
                                   settings=SETTINGS, options=options)
    assert report.error is None
    assert report.detected_keys() == project.first.detected_keys()
    add = _by_key(report)[("com.acme.Adder", "add", ADD_LINE, "MathMutator")]
    assert add[0] == "KILLED" and len(add[1]) == 1  # the full matrix names two: sums and sumsAgain

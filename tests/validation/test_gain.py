"""What a generated method adds beyond the repository's own tests: the example shop's MoneyTest is the baseline.

Real javac, JUnit with per-test JaCoCo coverage, and PIT: a method that covers only what MoneyTest covers is
dropped, one that takes `isZero`'s false branch is kept, a twin of it adds nothing, and the class's suite
shows before → after.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import git
import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import load_config
from junitbot.state import StateDir
from junitbot.validation import IndexedRepo, TestCandidate, ValidationReport, validate_candidates
from junitbot.validation.judge.keep import _judged, settled_methods, within_budget
from junitbot.validation.judge.models import Candidacy
from junitbot.validation.judge.selection import COVERED_BY_EXISTING, COVERED_UNMEASURED, NOTHING_NEW, adds_nothing
from junitbot.validation.measure.baseline import Baseline
from junitbot.validation.measure.models import Mutant, MutationReport, PitOptions
from tests.conftest import EXAMPLE, commit_all, own_baselines

HEADER = """package com.acme.shop.domain;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
"""
ADDS_AND_TWINS = TestCandidate(path="src/test/java/com/acme/shop/domain/MoneyGainTest.java", target="Money", source=(
    HEADER + """
class MoneyGainTest {
    @Test
    void add_sumsAmounts() {
        Money sum = Money.of("1.50", Currency.EUR).add(Money.of("2.25", Currency.EUR));
        assertEquals(new BigDecimal("3.75"), sum.amount());
    }

    @Test
    void isZero_ofOneIsFalse() {
        assertFalse(Money.of("1.00", Currency.EUR).isZero());
    }

    @Test
    void isZero_ofTwoIsFalse() {
        assertFalse(Money.of("2.00", Currency.EUR).isZero());
    }
}
"""))
NOTHING_BEYOND = TestCandidate(path="src/test/java/com/acme/shop/domain/MoneyCopyTest.java", target="Money", source=(
    HEADER + """
class MoneyCopyTest {
    @Test
    void add_sumsAmounts() {
        Money sum = Money.of("1.50", Currency.EUR).add(Money.of("2.25", Currency.EUR));
        assertEquals(new BigDecimal("3.75"), sum.amount());
    }
}
"""))

# A person's test file: the same methods, and a copy-paste twin; judged, never pruned.
BY_HAND = TestCandidate(path="src/test/java/com/acme/shop/domain/MoneyByHandTest.java", target="Money",
                        written_by="person", source=ADDS_AND_TWINS.source.replace("MoneyGainTest", "MoneyByHandTest")
                        .replace("    @Test\n    void isZero_ofTwoIsFalse", """    @Test
    void isZero_ofOneIsFalseAgain() {
        assertFalse(Money.of("1.00", Currency.EUR).isZero());
    }

    @Test
    void isZero_ofTwoIsFalse"""))


# One module fixture, one worker: building it is the expensive part (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("gain-shop")


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, StateDir]]:
    root = tmp_path_factory.mktemp("gain") / "shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "target", "*GeneratedTest.java"))
    (root / ".junitbot.yml").write_text("validation:\n  class_timeout_s: 20\n")
    _move_helper_out_of_money_test(root / "src/test/java/com/acme/shop/domain")
    repo = git.Repo.init(root)
    commit_all(repo, "shop")
    state = StateDir(root / ".junitbot")
    update_graph(root, state, load_config(root, environ={}))
    with own_baselines():  # the baseline cache itself is under test
        yield root, state
    repo.close()


def _move_helper_out_of_money_test(folder: Path) -> None:
    """MoneyTest builds its values with a helper class of the test sources, as real suites do: the baseline runs
    it all the same."""
    test = folder / "MoneyTest.java"
    text = test.read_text()
    helper = "    private static Money eur(String amount) {\n        return Money.of(amount, Currency.EUR);\n    }\n"
    assert helper in text
    test.write_text(text.replace(helper, "").replace("eur(", "Moneys.eur("))
    (folder / "Moneys.java").write_text("package com.acme.shop.domain;\n\nfinal class Moneys {\n"
                                        "    static Money eur(String amount) {\n"
                                        "        return Money.of(amount, Currency.EUR);\n    }\n}\n")


def _validate(root: Path, state: StateDir, candidates: list[TestCandidate]) -> ValidationReport:
    config = load_config(root, environ={})
    with CodeGraph.open(state.graph_db) as graph:
        return validate_candidates(candidates, repo=IndexedRepo(root=root, graph=graph, state=state), config=config)


@pytest.fixture(scope="module")
def report(shop: tuple[Path, StateDir]) -> ValidationReport:
    return _validate(*shop, [ADDS_AND_TWINS, NOTHING_BEYOND, BY_HAND])


def test_methods_whose_every_mutant_the_existing_tests_kill_are_left_out_of_the_keep_rule_s_pit_run() -> None:
    # commons-lang's DurationFormatUtils: 203 mutants and 40 generated methods took PIT past its budget, and the keep
    # rule lost every kill; the 172 its suite kills could never count for a new test.
    money = Baseline(target="Money", tests=("MoneyTest",), mutants_total=4, mutants_killed=(
        "com.acme.Money.add(Lcom/acme/Money;)Lcom/acme/Money;@12:MathMutator:3",
        "com.acme.Money.isZero()Z@20:RemoveConditionalMutator_EQUAL_ELSE:1",
        "com.acme.Money$Parser.parse(Ljava/lang/String;)V@30:VoidMethodCallMutator:2"),
        mutants_alive=("isZero@20: negated conditional",))
    order = Baseline(target="Order", tests=("OrderTest",), mutants_total=2,
                     mutants_killed=("com.acme.Order.total()I@8:MathMutator:1",),
                     mutants_alive=("parse@9: removed call",))
    assert settled_methods([money]) == ("add", "parse")  # a nested class's methods too
    assert settled_methods([money, order]) == ("add", "total")  # by name: `parse` has a survivor in Order
    # Where a target's mutants are unknown (no tests, or PIT failed on them), every method is run.
    assert settled_methods([money, Baseline(target="Fresh")]) == ()
    assert settled_methods([money, Baseline(target="Failed", tests=("FailedTest",))]) == ()


def test_a_pit_run_past_its_budget_is_run_again_naming_only_the_first_killer(tmp_path: Path) -> None:
    asked: list[bool] = []

    def analyse(options: PitOptions) -> MutationReport:
        asked.append(options.full_matrix)
        return MutationReport(timed_out=options.full_matrix, seconds=1.0)

    assert not within_budget(analyse, PitOptions(tools_dir=tmp_path)).timed_out
    assert asked == [True, False]
    # A run naming the first killer only that overran has nothing left to drop: it is not run again.
    assert within_budget(lambda options: asked.append(options.full_matrix) or MutationReport(timed_out=True),
                         PitOptions(tools_dir=tmp_path, full_matrix=False)).timed_out
    assert asked == [True, False, False]


def test_a_method_is_kept_only_for_what_it_adds(report: ValidationReport) -> None:
    verdict = next(v for v in report.verdicts if v.path == ADDS_AND_TWINS.path)
    methods = {m.name: m for m in verdict.methods}
    assert not methods["add_sumsAmounts"].kept and methods["add_sumsAmounts"].reason == NOTHING_NEW
    assert methods["isZero_ofOneIsFalse"].kept and "new edge" in (methods["isZero_ofOneIsFalse"].adds or "")
    assert not methods["isZero_ofTwoIsFalse"].kept  # its twin came first
    assert verdict.source is not None and "add_sumsAmounts" not in verdict.source
    assert "isZero_ofTwoIsFalse" not in verdict.source


def test_the_suite_before_and_after_are_reported(report: ValidationReport) -> None:
    gain = next(v for v in report.verdicts if v.path == ADDS_AND_TWINS.path).gain
    assert gain is not None and gain.before is not None
    assert "com.acme.shop.domain.MoneyTest" in gain.existing_tests
    assert gain.after.branches.covered > gain.before.branches.covered  # isZero's other branch
    assert gain.after.branches.total == gain.before.branches.total
    assert 0 < gain.generated.lines.covered < gain.after.lines.covered
    assert gain.before.mutants is not None and gain.after.mutants is not None
    assert gain.after.mutants.covered >= gain.before.mutants.covered
    assert gain.after.mutants.total == gain.before.mutants.total
    assert next(v for v in report.verdicts if v.path == ADDS_AND_TWINS.path).baseline == gain.before


def test_a_class_its_own_tests_already_cover_gets_nothing_and_says_so(report: ValidationReport) -> None:
    verdict = next(v for v in report.verdicts if v.path == NOTHING_BEYOND.path)
    assert not verdict.kept
    assert verdict.methods[0].reason == "its existing tests already cover and kill everything these tests do"
    # What its existing tests reach is still reported: a benchmark sums the human suite over every class.
    assert verdict.gain is None and verdict.baseline is not None
    assert verdict.baseline.lines.covered > 0 and verdict.baseline.mutants is not None


def test_a_class_judged_by_coverage_alone_does_not_claim_its_mutants_are_killed(tmp_path: Path) -> None:
    # commons-text's StringTokenizer: PIT ran out of its budget on 106 methods and a large suite, and the reason said
    # "cover and kill" of mutants nobody measured.
    source = "class MoneyGeneratedTest {\n    @Test\n    void adds() {\n    }\n}\n"
    candidacy = Candidacy(candidate=TestCandidate(path="src/test/java/MoneyGeneratedTest.java", source=source,
                                                  target="com.acme.Money"),
                          test_class="MoneyGeneratedTest", file=tmp_path / "MoneyGeneratedTest.java", source=source)
    baseline = Baseline(target="com.acme.Money", tests=("com.acme.MoneyTest",))
    killed = Mutant(class_name="com.acme.Money", method="add", line=3, mutator="MathMutator", status="KILLED",
                    killing_tests=("com.acme.MoneyTest#add",))
    unmeasured = _judged(candidacy, {}, baseline, (), "com.acme.Money", prune=True)
    measured = _judged(candidacy, {}, baseline.model_copy(update={"mutants_killed": (killed.key,),
                                                                  "mutants_total": 1}),
                       (killed,), "com.acme.Money", prune=True)
    assert unmeasured.failure == COVERED_UNMEASURED and "kill" not in COVERED_UNMEASURED
    assert measured.failure == COVERED_BY_EXISTING and adds_nothing(unmeasured.failure)


def test_where_pit_failed_on_the_existing_tests_a_generated_kill_is_not_counted_as_new(tmp_path: Path) -> None:
    # commons-text's StringTokenizer: PIT's minion died on its own suite, every mutant the 106 generated methods killed
    # counted as new, and 32 were kept beside a suite covering 222 of its 223 lines.
    source = "class MoneyGeneratedTest {\n    @Test\n    void adds() {\n    }\n}\n"
    candidacy = Candidacy(candidate=TestCandidate(path="src/test/java/MoneyGeneratedTest.java", source=source,
                                                  target="com.acme.Money"),
                          test_class="MoneyGeneratedTest", file=tmp_path / "MoneyGeneratedTest.java", source=source)
    killed = Mutant(class_name="com.acme.Money", method="add", line=3, mutator="MathMutator", status="KILLED",
                    killing_tests=("MoneyGeneratedTest#adds",))
    failed = Baseline(target="com.acme.Money", tests=("com.acme.MoneyTest",), note="PIT: minion exited abnormally")
    judged = _judged(candidacy, {}, failed, (killed,), "com.acme.Money", prune=True)
    assert judged.dropped == {"adds": NOTHING_NEW} and judged.failure == COVERED_UNMEASURED
    # Measured, the same kill is new where the existing tests leave that mutant alive, and without existing tests.
    measured = failed.model_copy(update={"mutants_total": 1, "mutants_alive": ("add@3: math",)})
    for baseline in (measured, Baseline(target="com.acme.Money")):
        kept = _judged(candidacy, {}, baseline, (killed,), "com.acme.Money", prune=True)
        assert kept.failure is None and kept.adds == {"adds": "kills 1 mutant"}


def test_a_persons_tests_are_judged_not_pruned(report: ValidationReport) -> None:
    verdict = next(v for v in report.verdicts if v.path == BY_HAND.path)
    assert [m.name for m in verdict.methods if m.kept] == [
        "add_sumsAmounts", "isZero_ofOneIsFalse", "isZero_ofOneIsFalseAgain", "isZero_ofTwoIsFalse"]
    assert verdict.methods[1].adds  # what each adds is still measured and said
    assert not verdict.methods[0].adds
    twin = [i for i in verdict.issues if i.category == "duplicate-body"]
    assert twin and twin[0].severity == "WARNING" and twin[0].method == "isZero_ofOneIsFalseAgain"


def test_the_baseline_is_measured_once_until_what_it_ran_changes(shop: tuple[Path, StateDir],
                                                                  report: ValidationReport) -> None:
    root, state = shop
    cached = sorted(state.baselines.rglob("*.json"))
    assert cached
    # What the suite leaves alive is described, for the report and a reader: together with what it kills, all.
    money = next(b for b in map(lambda p: Baseline.model_validate_json(p.read_text()), cached)
                 if b.target.endswith(".Money"))
    assert money.mutants_alive and len(money.mutants_killed) + len(money.mutants_alive) == money.mutants_total
    assert all(re.fullmatch(r"[\w<>$]+@\d+: .+", alive) for alive in money.mutants_alive), money.mutants_alive
    stamps = [p.stat().st_mtime_ns for p in cached]
    again = _validate(root, state, [ADDS_AND_TWINS])
    assert [p.stat().st_mtime_ns for p in cached] == stamps  # read from the cache, not measured again
    kept = next(v for v in again.verdicts if v.path == ADDS_AND_TWINS.path)
    assert [m.name for m in kept.methods if m.kept] == ["isZero_ofOneIsFalse"]
    # A class Money uses changed (its Currency): what MoneyTest reaches in Money may change, so it runs again.
    currency = root / "src/main/java/com/acme/shop/domain/Currency.java"
    text = currency.read_text()
    try:
        currency.write_text(text + "// changed\n")
        update_graph(root, state, load_config(root, environ={}))
        _validate(root, state, [ADDS_AND_TWINS])
        assert len(sorted(state.baselines.rglob("*.json"))) == len(cached) + 1
    finally:
        currency.write_text(text)
        update_graph(root, state, load_config(root, environ={}))

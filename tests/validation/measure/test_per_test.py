"""Per-test coverage on real JUnit 5 runs under the JaCoCo agent: the listener's probes per test method, the greedy
gain that keeps a method only for what the baseline and the methods before it did not cover, and the merged
coverage of several exec files."""

from __future__ import annotations

from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.measure.jacoco import agent_option, analyze_coverage
from junitbot.validation.measure.models import Counter, ProbeHits
from junitbot.validation.measure.per_test import (
    coverage_gain,
    per_test_config,
    per_test_exec_files,
    per_test_hits,
    per_test_listener,
)
from junitbot.validation.run.launcher import run_junit
from junitbot.validation.run.models import JvmLaunch, RunConditions, TestRunResult
from junitbot.validation.run.sandbox import detect_isolation
from tests.validation.run.test_launcher import TEST_JARS, compile_java

SIGN = """package com.acme.sign;

public class Sign {
    public static String of(int number) {
        if (number < 0) {
            return "negative";
        }
        return "positive";
    }
}
"""

# Test 3 (a parameterized method, two invocations) runs only what test 2 ran.
SIGN_TEST = """package com.acme.sign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SignTest {
    static String before;

    @BeforeAll
    static void once() {
        before = Sign.of(0);
    }

    @Test
    void negativeNumbers() {
        assertEquals("negative", Sign.of(-1));
    }

    @Test
    void positiveNumbers() {
        assertEquals("positive", Sign.of(1));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void morePositiveNumbers(int number) {
        assertEquals("positive", Sign.of(number));
    }
}
"""

# The repository's own test: it covers the negative branch only.
EXISTING_TEST = """package com.acme.sign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExistingSignTest {
    @Test
    void negative() {
        assertEquals("negative", Sign.of(-5));
    }
}
"""

NEGATIVE, POSITIVE, MORE = ("com.acme.sign.SignTest#" + m for m in ("negativeNumbers", "positiveNumbers",
                                                                     "morePositiveNumbers"))
SIGN_CLASS = ["com.acme.sign.Sign"]
SETTINGS = ValidationSettings()


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("per-test")
    main = compile_java({"com/acme/sign/Sign.java": SIGN}, root / "main")
    sources = {"com/acme/sign/SignTest.java": SIGN_TEST, "com/acme/sign/ExistingSignTest.java": EXISTING_TEST}
    tests = compile_java(sources, root / "tests", classpath=[str(main)])
    return main, tests


def _run(compiled: tuple[Path, Path], root: Path, test_class: str, tools_dir: Path, *,
         agent: bool = True) -> TestRunResult:
    """`test_class` run under the pinned agent (destfile root/jacoco.exec) with the listener writing root/per-test."""
    main, tests = compiled
    classpath = [str(main), str(tests), *TEST_JARS]
    cache = root.parent / "cache"  # shared by the runs beside it: the listener is compiled once
    listener = per_test_listener(classpath, cache_dir=cache, settings=SETTINGS, tools_dir=tools_dir)
    option = agent_option(exec_file=root / "jacoco.exec", includes=["com.acme.sign.*"], cache_dir=cache,
                          settings=SETTINGS, tools_dir=tools_dir)
    result = run_junit(
        test_classes=[test_class], classpath=[*classpath, str(listener)], workdir=root / "work",
        conditions=RunConditions(),
        launch=JvmLaunch(settings=SETTINGS, isolation=detect_isolation(), agent=option if agent else None,
                         writable=(root,), tools_dir=tools_dir, junit_config=per_test_config(root / "per-test")),
    )
    assert result.cases and {c.status for c in result.cases} == {"passed"}, result.output_tail
    return result


@pytest.fixture(scope="module")
def runs(compiled: tuple[Path, Path], fetched: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the generated tests' run, the repository's test's run): folders holding jacoco.exec and per-test/."""
    root = tmp_path_factory.mktemp("runs")
    _run(compiled, root / "run", "com.acme.sign.SignTest", fetched)
    _run(compiled, root / "baseline", "com.acme.sign.ExistingSignTest", fetched)
    return root / "run", root / "baseline"


def test_each_test_method_gets_the_probes_it_ran(runs: tuple[Path, Path]) -> None:
    hits = per_test_hits(runs[0] / "per-test")
    # Every method, the parameterized one once for both invocations; @BeforeAll and the test instances'
    # construction go to the class.
    assert set(hits) == {"com.acme.sign.SignTest", NEGATIVE, POSITIVE, MORE}
    sign = {test: probes.restricted_to(SIGN_CLASS) for test, probes in hits.items()}
    assert sign[NEGATIVE] != sign[POSITIVE] and not sign[NEGATIVE].is_empty and not sign[POSITIVE].is_empty
    assert sign[MORE] == sign[POSITIVE]
    assert sign["com.acme.sign.SignTest"] == sign[POSITIVE]  # Sign.of(0) in @BeforeAll
    assert [c.name for c in hits[NEGATIVE].classes] == ["com/acme/sign/Sign", "com/acme/sign/SignTest"]


def test_the_gain_keeps_a_method_only_for_what_is_new(runs: tuple[Path, Path]) -> None:
    hits = per_test_hits(runs[0] / "per-test")
    candidates = [(test, hits[test]) for test in (NEGATIVE, POSITIVE, MORE)]

    gains = coverage_gain(candidates, ProbeHits(), SIGN_CLASS)
    assert list(gains) == [NEGATIVE, POSITIVE, MORE]
    assert gains[NEGATIVE] == hits[NEGATIVE].restricted_to(SIGN_CLASS)
    assert gains[POSITIVE] == hits[POSITIVE].restricted_to(SIGN_CLASS)
    assert gains[MORE].is_empty  # covers what positiveNumbers already did
    # Without the restriction the test class's own probes count too: each method is new code of SignTest.
    assert not coverage_gain(candidates, ProbeHits())[MORE].is_empty

    # The repository's own test covers the negative branch: negativeNumbers then adds nothing.
    baseline = per_test_hits(runs[1] / "per-test")["com.acme.sign.ExistingSignTest#negative"]
    gains = coverage_gain(candidates, baseline, SIGN_CLASS)
    assert gains[NEGATIVE].is_empty and gains[MORE].is_empty
    assert gains[POSITIVE] == hits[POSITIVE].restricted_to(SIGN_CLASS)


def test_merged_exec_files_give_baseline_and_kept_coverage(compiled: tuple[Path, Path], runs: tuple[Path, Path],
                                                          tmp_path: Path, fetched: Path) -> None:
    main, _ = compiled

    def branches(exec_files: list[Path]) -> Counter:
        coverage = analyze_coverage(exec_files, [main], cache_dir=tmp_path / "cache", classes=SIGN_CLASS,
                                    tools_dir=fetched)
        return coverage["com.acme.sign.Sign"].branches

    baseline = per_test_exec_files(runs[1] / "per-test")
    run = per_test_exec_files(runs[0] / "per-test")
    index = (runs[0] / "per-test" / "index.tsv").read_text().splitlines()
    kept = [run[i] for i, line in enumerate(index) if line.endswith("#positiveNumbers")]
    assert branches(baseline) == Counter(covered=1, missed=1)
    assert branches([*baseline, *kept]) == Counter(covered=2, missed=0)
    # The listener took everything: the agent's own destfile kept nothing of the tests, the files have it all.
    assert analyze_coverage(runs[0] / "jacoco.exec", [main], cache_dir=tmp_path / "cache",
                            classes=SIGN_CLASS, tools_dir=fetched)["com.acme.sign.Sign"].lines.covered == 0
    assert branches(run) == Counter(covered=2, missed=0)


def test_without_the_agent_the_listener_stands_aside(compiled: tuple[Path, Path], tmp_path: Path,
                                                    fetched: Path) -> None:
    result = _run(compiled, tmp_path / "run", "com.acme.sign.SignTest", fetched, agent=False)
    assert len(result.cases) == 4  # the tests ran as ever
    assert "no JaCoCo agent in this JVM" in result.output_tail
    with pytest.raises(JunitbotError, match=r"no per-test coverage index .* no JaCoCo agent"):
        per_test_hits(tmp_path / "run" / "per-test")


def test_the_listener_is_compiled_once_with_its_service_file(tmp_path: Path, fetched: Path) -> None:
    classpath = TEST_JARS
    folder = per_test_listener(classpath, cache_dir=tmp_path, settings=SETTINGS, tools_dir=fetched)
    service = folder / "META-INF" / "services" / "org.junit.platform.launcher.TestExecutionListener"
    assert service.read_text() == "PerTestCoverage\n" and (folder / "PerTestCoverage.class").is_file()
    assert per_test_listener(classpath, cache_dir=tmp_path, settings=SETTINGS, tools_dir=fetched) == folder
    assert [p.name for p in tmp_path.iterdir() if p.suffix != ".lock"] == [folder.name]  # no scratch folder left


def test_a_broken_index_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "index.tsv").write_text("0\tcom.acme.FooTest#a\nzero com.acme.FooTest#b\n")
    with pytest.raises(JunitbotError, match=r"index.tsv:2: not '<number> TAB <owner>'"):
        per_test_hits(tmp_path)
    # A last line the killed JVM did not finish is left out; a listed file that is missing is an error.
    (tmp_path / "index.tsv").write_text("0\tcom.acme.FooTest#a\n1\tcom.acme.Fo")
    assert per_test_exec_files(tmp_path) == [tmp_path / "0.exec"]
    with pytest.raises(JunitbotError, match=r"cannot read JaCoCo exec file .*0\.exec"):
        per_test_hits(tmp_path)


def test_probe_hits_unite_subtract_and_restrict_by_class() -> None:
    a = ProbeHits.of({("com/acme/Cart", 1): {0, 1}, ("com/acme/Cart$Line", 2): {3}, ("com/acme/CartTest", 3): {0}})
    b = ProbeHits.of({("com/acme/Cart", 1): {1, 2}, ("com/acme/Cart", 9): {0}})  # id 9: another build of Cart
    assert a.union(b).by_class() == {("com/acme/Cart", 1): {0, 1, 2}, ("com/acme/Cart", 9): {0},
                                     ("com/acme/Cart$Line", 2): {3}, ("com/acme/CartTest", 3): {0}}
    assert a.minus(b).by_class() == {("com/acme/Cart", 1): {0}, ("com/acme/Cart$Line", 2): {3},
                                     ("com/acme/CartTest", 3): {0}}
    assert a.minus(a).is_empty and a.union(b) == b.union(a) and a.union(b).probe_count == 6
    # Nested classes are their outer's; CartTest is not Cart's.
    assert [c.name for c in a.restricted_to(["com.acme.Cart"]).classes] == ["com/acme/Cart", "com/acme/Cart$Line"]
    assert [c.name for c in a.restricted_to(["com/acme/Cart$Line"]).classes] == ["com/acme/Cart$Line"]
    # A record: kept as JSON (a cached baseline) and read back equal.
    assert ProbeHits.model_validate_json(a.model_dump_json()) == a

"""A test is validated with what its build gives it: the module's test helpers and base classes, compiled from
its test sources as javac finds them, and its test resources on the classpath. Real javac and JUnit on the shop.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import git
import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import load_config
from junitbot.state import StateDir
from junitbot.validation import IndexedRepo, TestCandidate, ValidationReport, Verdict, validate_candidates
from tests.conftest import EXAMPLE, commit_all

FOLDER = "src/test/java/com/acme/shop/domain"
HELPER = """package com.acme.shop.domain;

final class EuroAmounts {
    private EuroAmounts() {}

    static Money eur(String amount) {
        return Money.of(amount, Currency.EUR);
    }
}
"""
BROKEN_HELPER = """package com.acme.shop.domain;

final class StaleFixtures {
    static Money stale() {
        return Money.ofNothingThatExists();
    }
}
"""

# The class's only existing test is JUnit 4's: there is no baseline junitbot can run, and that is no error.
JUNIT4_TEST = """package com.acme.shop.domain;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class PercentTest {
    @Test
    public void keepsItsValue() {
        assertEquals(5, new Percent(5).value());
    }
}
"""
PERCENT = """package com.acme.shop.domain;

public record Percent(int value) {
    public Percent {
        if (value < 0 || value > 100) {
            throw new IllegalArgumentException("a percentage lies between 0 and 100");
        }
    }
}
"""


def _test(name: str, body: str) -> TestCandidate:
    source = f"""package com.acme.shop.domain;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class {name} {{
{body}
}}
"""
    return TestCandidate(path=f"{FOLDER}/{name}.java", source=source, target="Money", written_by="person")


USES_HELPER_AND_RESOURCE = _test("MoneyFixtureTest", """
    @Test
    void add_ofTwoEuroAmounts() {
        assertEquals(new BigDecimal("3.75"), EuroAmounts.eur("1.50").add(EuroAmounts.eur("2.25")).amount());
    }

    @Test
    void theRatesFixtureIsOnTheClasspath() throws Exception {
        Properties rates = new Properties();
        rates.load(getClass().getResourceAsStream("/rates.properties"));
        assertEquals("1.08", rates.getProperty("EUR.USD"));
    }

    @Test
    void theRatesFileReadsRelativeToTheModuleAsUnderMaven() throws Exception {
        assertEquals("EUR.USD=1.08", Files.readString(Path.of("src/test/resources/rates.properties")).trim());
        assertTrue(System.getProperty("basedir").endsWith("shop"));
    }

    @Disabled("waits for the rates service")
    @Test
    void ratesComeFromTheService() {
        fail("not yet");
    }
""")
USES_BROKEN_HELPER = _test("MoneyStaleTest", """
    @Test
    void stale() {
        assertNotNull(StaleFixtures.stale());
    }
""")
PERCENT_RULES = TestCandidate(path=f"{FOLDER}/PercentRulesTest.java", target="Percent", source="""\
package com.acme.shop.domain;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PercentRulesTest {
    @Test
    void overAHundredIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Percent(101));
    }
}
""")
PLAIN = _test("MoneyPlainTest", """
    @Test
    void amount_isKept() {
        assertEquals(new BigDecimal("1.50"), Money.of("1.50", Currency.EUR).amount());
    }
""")


# One module fixture, one worker: building it is the expensive part (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("support-shop")


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, StateDir]]:
    root = tmp_path_factory.mktemp("support") / "shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "target", "*GeneratedTest.java"))
    (root / FOLDER / "EuroAmounts.java").write_text(HELPER)
    (root / FOLDER / "StaleFixtures.java").write_text(BROKEN_HELPER)
    (root / FOLDER / "PercentTest.java").write_text(JUNIT4_TEST)
    (root / "src/main/java/com/acme/shop/domain/Percent.java").write_text(PERCENT)
    (root / "src/test/resources").mkdir(parents=True, exist_ok=True)
    (root / "src/test/resources/rates.properties").write_text("EUR.USD=1.08\n")
    (root / ".junitbot.yml").write_text("validation:\n  class_timeout_s: 20\n  repetitions: 1\n  mutation: false\n")
    repo = git.Repo.init(root)
    commit_all(repo, "shop with a test helper and a test resource")
    state = StateDir(root / ".junitbot")
    update_graph(root, state, load_config(root, environ={}))
    yield root, state
    repo.close()


def _validate(shop: tuple[Path, StateDir], candidates: list[TestCandidate]) -> ValidationReport:
    root, state = shop
    with CodeGraph.open(state.graph_db) as graph:
        return validate_candidates(candidates, repo=IndexedRepo(root=root, graph=graph, state=state),
                                   config=load_config(root, environ={}))


@pytest.fixture(scope="module")
def report(shop: tuple[Path, StateDir]) -> ValidationReport:
    return _validate(shop, [USES_HELPER_AND_RESOURCE, USES_BROKEN_HELPER, PLAIN])


def _verdict(report: ValidationReport, candidate: TestCandidate) -> Verdict:
    return next(v for v in report.verdicts if v.path == candidate.path)


def test_a_test_helper_and_a_test_resource_are_there_as_in_the_build(report: ValidationReport) -> None:
    verdict = _verdict(report, USES_HELPER_AND_RESOURCE)
    assert verdict.compiled
    assert [(m.name, m.kept) for m in verdict.methods] == [
        ("add_ofTwoEuroAmounts", True), ("theRatesFixtureIsOnTheClasspath", True),
        ("theRatesFileReadsRelativeToTheModuleAsUnderMaven", True), ("ratesComeFromTheService", True)]


def test_a_persons_disabled_test_is_said_not_dropped(report: ValidationReport) -> None:
    verdict = _verdict(report, USES_HELPER_AND_RESOURCE)
    skipped = [i for i in verdict.issues if i.category == "skipped"]
    assert [(i.severity, i.method) for i in skipped] == [("WARNING", "ratesComeFromTheService")]
    assert "waits for the rates service" in skipped[0].message


def test_a_broken_helper_costs_only_the_tests_that_use_it(report: ValidationReport) -> None:
    stale = _verdict(report, USES_BROKEN_HELPER)
    assert not stale.compiled
    assert any(i.category == "broken-helper" and "StaleFixtures" in i.message for i in stale.issues)
    assert _verdict(report, PLAIN).kept
    assert _verdict(report, USES_HELPER_AND_RESOURCE).kept


def test_a_class_whose_only_tests_are_junit4_is_judged_without_a_baseline(shop: tuple[Path, StateDir]) -> None:
    verdict = _verdict(_validate(shop, [PERCENT_RULES]), PERCENT_RULES)
    assert [(m.name, m.kept) for m in verdict.methods] == [("overAHundredIsRefused", True)]
    assert verdict.gain is not None and "JUnit 5" in (verdict.gain.note or "")

"""validate_candidates end to end on the example shop: real javac, real JUnit runs, real JaCoCo.

A corpus of broken tests each ends in the right category, good methods survive their bad siblings,
and nothing crashes the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import load_config
from junitbot.state import StateDir
from junitbot.validation import IndexedRepo, TestCandidate, ValidationReport, Verdict, validate_candidates

PACKAGE = "com.acme.shop.domain"
HEADER = f"""package {PACKAGE};

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
"""


def _money_test(name: str, body: str, *, header: str = HEADER) -> TestCandidate:
    source = f"{header}\nclass {name} {{\n{body}\n}}\n"
    return TestCandidate(path=f"src/test/java/com/acme/shop/domain/{name}.java", source=source, target="Money")


GOOD_METHOD = """
    @Test
    void add_sumsAmounts() {
        Money sum = Money.of("1.50", Currency.EUR).add(Money.of("2.25", Currency.EUR));
        assertEquals(new BigDecimal("3.75"), sum.amount());
    }
"""
CORPUS = {
    "good": _money_test("MoneyGoodTest", GOOD_METHOD),
    "syntax": _money_test("MoneySyntaxTest", "    @Test void broken() { assertEquals(1, ; }"),
    "missing_import": _money_test("MoneyImportTest", """
    @Test
    void zero_isZero() {
        List<Money> all = java.util.Collections.singletonList(Money.zero(Currency.EUR));
        assertEquals(BigDecimal.ZERO.setScale(2), all.get(0).amount());
    }
"""),
    # Issue 18: after the missing import, javac sees the unreported exception of `call()`; both are repaired.
    "two_repair_rounds": _money_test("MoneyTwoRoundsTest", GOOD_METHOD + """
    @Test
    void zero_fromATask() {
        Callable<Money> task = () -> Money.zero(Currency.EUR);
        assertEquals(BigDecimal.ZERO.setScale(2), task.call().amount());
    }
"""),
    # Issue 18: one method that does not compile costs that method, not its two good siblings.
    "one_uncompilable_of_three": _money_test("MoneyOneBadTest", GOOD_METHOD + """
    @Test
    void amount_asAnInt() {
        int cents = Money.zero(Currency.EUR).amount();
        assertEquals(0, cents);
    }

    @Test
    void zero_isZero() {
        assertEquals(BigDecimal.ZERO.setScale(2), Money.zero(Currency.EUR).amount());
    }
"""),
    "wrong_arity": _money_test("MoneyArityTest", """
    @Test
    void of_withThreeArguments() {
        assertNotNull(Money.of("1", Currency.EUR, 3));
    }
"""),
    "failing_and_good": _money_test("MoneyMixedTest", GOOD_METHOD + """
    @Test
    void add_wrongExpectation() {
        assertEquals(new BigDecimal("99"), Money.of("1", Currency.EUR).amount());
    }
"""),
    "flaky_timezone": _money_test("MoneyZoneTest", GOOD_METHOD + """
    @Test
    void dependsOnTheDefaultTimeZone() {
        assertEquals("UTC", java.util.TimeZone.getDefault().getID());
    }
"""),
    # Two tests sharing a static counter pass in one order only: the second run reverses the first's.
    "order_dependent": _money_test("MoneyCounterTest", GOOD_METHOD + """
    static int created;

    @Test
    void firstMoneyIsNumberOne() {
        created++;
        assertEquals(1, created);
    }

    @Test
    void secondMoneyIsNumberTwo() {
        created++;
        assertEquals(2, created);
    }
"""),
    "infinite_loop": _money_test("MoneyLoopTest", GOOD_METHOD + """
    @Test
    void neverEnds() {
        long spins = 0;
        while (spins >= 0) { spins = spins + 1 > 0 ? 1 : 0; }
        assertTrue(spins > 0);
    }
"""),
    "system_exit": _money_test("MoneyExitTest", """
    @Test
    void exits() {
        System.exit(3);
        assertTrue(true);
    }
"""),
    "network": _money_test("MoneyNetworkTest", """
    @Test
    void callsTheNetwork() throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", 9)) {
            assertTrue(socket.isConnected());
        }
    }
"""),
    "file_write": _money_test("MoneyFileTest", """
    @Test
    void writesOutsideItsDirectory() throws Exception {
        java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/junitbot-escape.txt"), "x");
        assertTrue(true);
    }
"""),
    "mocked_record": TestCandidate(
        path="src/test/java/com/acme/shop/domain/OrderLineMockTest.java",
        target="Money",
        source=f"""package {PACKAGE};

import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.Mockito.*;

import org.junit.jupiter.api.Test;

class OrderLineMockTest {{
    @Test
    void total_ofAMockedLine() {{
        OrderLine line = mock(OrderLine.class);
        assertNull(line.total());
    }}
}}
"""),
    # A static ERROR costs its own method: the sibling is compiled, run and kept (issue 18).
    "exit_in_one_method": _money_test("MoneyOneExitTest", GOOD_METHOD + """
    @Test
    void exits() {
        System.exit(3);
    }
"""),
    # A syntax error inside one method costs that method too, when the class parses without it.
    "syntax_in_one_method": _money_test("MoneyOneSyntaxTest", GOOD_METHOD + """
    @Test
    void broken() {
        Money sum = money() { @Override public String toString() { return ""; } };
    }
"""),
    # ... but one in the set-up would run before every method: the class goes.
    "exit_in_set_up": _money_test("MoneySetUpExitTest", GOOD_METHOD + """
    @org.junit.jupiter.api.BeforeEach
    void setUp() {
        System.exit(3);
    }
"""),
    # joda-money's tests of a private constructor: private reflection is a warning, javac and the run judge it.
    "private_constructor": _money_test("MoneyReflectionTest", """
    @Test
    void constructor_rejectsNull() throws Exception {
        java.lang.reflect.Constructor<Money> con = Money.class.getDeclaredConstructor(BigDecimal.class, Currency.class);
        con.setAccessible(true);
        java.lang.reflect.InvocationTargetException thrown = assertThrows(
                java.lang.reflect.InvocationTargetException.class, () -> con.newInstance(null, Currency.EUR));
        assertInstanceOf(NullPointerException.class, thrown.getCause());
    }

    @Test
    void checkOf_doesNotThrow() {
        Money.of("1.00", Currency.EUR);
    }
"""),
    "escaping_path": TestCandidate(path="../../etc/EvilTest.java", source="class EvilTest {}", target="Money"),
    "nested": TestCandidate(
        path="src/test/java/com/acme/shop/domain/MoneyBuilderTest.java", target=f"{PACKAGE}.Money.Builder",
        source=f"""{HEADER}
class MoneyBuilderTest {{
    @Test
    void build_makesMoneyOfTheAmountAndCurrency() {{
        Money money = Money.builder().amount("2.50").currency(Currency.EUR).build();
        assertEquals(new BigDecimal("2.50"), money.amount());
    }}
}}
"""),
}


# One module fixture, one worker: building it is the expensive part (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("validate-report")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ValidationReport]:
    import shutil

    import git

    from tests.conftest import EXAMPLE, commit_all

    root = tmp_path_factory.mktemp("validate") / "shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    # The corpus is about running and judging; what a method adds beyond the example's own tests is test_gain.py's.
    (root / ".junitbot.yml").write_text(
        "validation:\n  class_timeout_s: 10\n  repetitions: 2\n  require_gain: false\n  mutation: false\n")
    repo = git.Repo.init(root)
    commit_all(repo, "shop")
    config = load_config(root, environ={})
    state = StateDir(root / ".junitbot")
    update_graph(root, state, config)
    with CodeGraph.open(state.graph_db) as graph:
        yield validate_candidates(list(CORPUS.values()), repo=IndexedRepo(root=root, graph=graph, state=state),
                                  config=config)
    repo.close()


def _verdict(report: ValidationReport, key: str) -> Verdict:
    path = CORPUS[key].path
    return next(v for v in report.verdicts if v.path == path)


def _categories(verdict: Verdict, severity: str = "ERROR") -> set[str]:
    return {i.category for i in verdict.issues if i.severity == severity}


def test_a_good_test_is_kept_with_coverage(report: ValidationReport) -> None:
    verdict = _verdict(report, "good")
    assert verdict.kept and verdict.compiled
    assert [(m.name, m.kept) for m in verdict.methods] == [("add_sumsAmounts", True)]
    assert verdict.coverage is not None and verdict.coverage.fqn == f"{PACKAGE}.Money"
    assert verdict.coverage.lines.covered > 0 and verdict.coverage.uncovered_lines
    assert verdict.source == CORPUS["good"].source


def test_a_nested_class_gets_its_own_coverage(report: ValidationReport) -> None:
    """JaCoCo names it Money$Builder; the verdict names it as the source does, Money.Builder."""
    verdict = _verdict(report, "nested")
    assert verdict.kept and verdict.coverage is not None
    assert verdict.coverage.lines.covered > 0


def test_static_rejections_end_in_their_category(report: ValidationReport) -> None:
    assert "syntax-error" in _categories(_verdict(report, "syntax"))
    assert "system-exit" in _categories(_verdict(report, "system_exit"))
    assert "network-access" in _categories(_verdict(report, "network"))
    assert "file-access" in _categories(_verdict(report, "file_write"))
    assert _categories(_verdict(report, "wrong_arity")) & {"wrong-arity", "wrong-arguments"}
    for key in ("syntax", "system_exit", "network", "file_write", "wrong_arity"):
        assert not _verdict(report, key).kept
    # Not dangerous: warnings for the report and the repair prompt; javac, the run and coverage judge the test.
    assert "mocked-value-type" in _categories(_verdict(report, "mocked_record"), "WARNING")
    assert "wrong-arity" in _categories(_verdict(report, "wrong_arity"), "WARNING")


def test_a_static_error_costs_its_method_and_the_siblings_are_kept(report: ValidationReport) -> None:
    verdict = _verdict(report, "exit_in_one_method")
    assert verdict.compiled and verdict.kept
    methods = {m.name: m for m in verdict.methods}
    assert methods["add_sumsAmounts"].kept
    assert not methods["exits"].kept
    assert methods["exits"].reason == "static check: System.exit stops the JVM that runs the tests"
    assert "system-exit" in _categories(verdict)
    assert verdict.source is not None and "System.exit" not in verdict.source and "add_sumsAmounts" in verdict.source


def test_a_syntax_error_inside_a_method_costs_that_method(report: ValidationReport) -> None:
    verdict = _verdict(report, "syntax_in_one_method")
    assert verdict.kept
    assert [(m.name, m.kept) for m in verdict.methods] == [("add_sumsAmounts", True), ("broken", False)]
    assert next(m for m in verdict.methods if m.name == "broken").reason.startswith("static check: ")
    assert "syntax-error" in _categories(verdict)
    assert verdict.source is not None and "broken" not in verdict.source


def test_a_static_error_in_the_set_up_rejects_the_class(report: ValidationReport) -> None:
    verdict = _verdict(report, "exit_in_set_up")
    assert not verdict.kept and not verdict.compiled
    assert [(m.name, m.kept, m.reason) for m in verdict.methods] == [
        ("add_sumsAmounts", False, "static check: System.exit stops the JVM that runs the tests")]


def test_private_reflection_and_a_does_not_throw_test_are_kept_with_warnings(report: ValidationReport) -> None:
    verdict = _verdict(report, "private_constructor")
    assert [(m.name, m.kept) for m in verdict.methods] == [("constructor_rejectsNull", True),
                                                           ("checkOf_doesNotThrow", True)], verdict.methods
    assert {"private-reflection", "no-assertion"} <= _categories(verdict, "WARNING")
    assert not _categories(verdict)


def test_hostile_paths_are_refused(report: ValidationReport) -> None:
    verdict = _verdict(report, "escaping_path")
    assert not verdict.kept and "bad-candidate" in _categories(verdict)
    assert "refusing test path" in verdict.issues[0].message


def test_missing_import_is_repaired_deterministically(report: ValidationReport) -> None:
    verdict = _verdict(report, "missing_import")
    assert verdict.kept, verdict
    assert any("import java.util.List" in repair for repair in verdict.repairs)
    assert verdict.source is not None and "import java.util.List;" in verdict.source


def test_repairs_run_to_a_fixpoint(report: ValidationReport) -> None:
    verdict = _verdict(report, "two_repair_rounds")
    assert verdict.kept and all(m.kept for m in verdict.methods), verdict
    assert [r.split(": ", 1)[1] for r in verdict.repairs] == [
        "import java.util.concurrent.Callable (rule: missing-import)",
        "`throws Exception` added to zero_fromATask() (rule: unreported-exception)"]


def test_a_method_that_does_not_compile_costs_only_itself(report: ValidationReport) -> None:
    verdict = _verdict(report, "one_uncompilable_of_three")
    assert verdict.kept and verdict.compiled
    methods = {m.name: m for m in verdict.methods}
    assert methods["add_sumsAmounts"].kept and methods["zero_isZero"].kept
    assert not methods["amount_asAnInt"].kept
    assert methods["amount_asAnInt"].reason == ("does not compile: incompatible types: BigDecimal cannot be "
                                                "converted to int")
    assert verdict.source is not None and "amount_asAnInt" not in verdict.source


def test_failing_method_is_removed_and_the_good_one_kept(report: ValidationReport) -> None:
    verdict = _verdict(report, "failing_and_good")
    assert verdict.kept
    methods = {m.name: m for m in verdict.methods}
    assert methods["add_sumsAmounts"].kept
    assert not methods["add_wrongExpectation"].kept and methods["add_wrongExpectation"].reason.startswith("failed")
    assert verdict.source is not None and "add_wrongExpectation" not in verdict.source


def test_flaky_method_is_dropped_as_flaky(report: ValidationReport) -> None:
    verdict = _verdict(report, "flaky_timezone")
    assert verdict.flaky == ("dependsOnTheDefaultTimeZone",)
    methods = {m.name: m for m in verdict.methods}
    assert methods["add_sumsAmounts"].kept
    assert (methods["dependsOnTheDefaultTimeZone"].reason or "").startswith("flaky")


def test_order_dependent_methods_are_dropped_as_flaky(report: ValidationReport) -> None:
    verdict = _verdict(report, "order_dependent")
    assert verdict.flaky == ("firstMoneyIsNumberOne", "secondMoneyIsNumberTwo")
    assert [m.name for m in verdict.methods if m.kept] == ["add_sumsAmounts"]


def test_infinite_loop_times_out_and_the_run_goes_on(report: ValidationReport) -> None:
    verdict = _verdict(report, "infinite_loop")
    methods = {m.name: m for m in verdict.methods}
    assert not methods["neverEnds"].kept
    assert methods["add_sumsAmounts"].kept


def test_report_says_what_it_ran_on(report: ValidationReport) -> None:
    # The shop is a Maven build with mockito-junit-jupiter: resolved by Maven, not Debian's Mockito 2.23.
    assert report.classpath_source == "maven"
    assert report.frameworks.mockito_extension and report.frameworks.mock_setup == "extension"
    assert report.frameworks.junit_jupiter == "5.11.4"
    assert report.isolation
    assert {"main_build", "compile", "run", "total"} <= set(report.seconds)
    # Judged by the pinned tools (in tests, the session's one cache; fetched by the first run that needs them).
    assert report.tools == {
        "junit": "junit-platform-console-standalone 1.14.4 (pinned)",
        "jacoco agent": "org.jacoco.agent 0.8.15 (pinned)",
        "jacoco analyzer": "org.jacoco.cli 0.8.15 (pinned)",
    }


GUARDED = {
    # Three methods, one of which exits: the guard makes the exit fail that test, and the JVM goes on.
    "exits": _money_test("MoneyExitTest", GOOD_METHOD + """
    @Test
    void exits() {
        System.exit(3);
        assertTrue(true);
    }

    @Test
    void cancel_ofAnUnknownOrder_isAnError() {
        // Mockito 5's inline mock maker attaches its agent to the JVM: the guard must let it.
        com.acme.shop.application.CancelOrderUseCase useCase = new com.acme.shop.application.CancelOrderUseCase(
            org.mockito.Mockito.mock(com.acme.shop.domain.port.OrderRepository.class),
            org.mockito.Mockito.mock(com.acme.shop.domain.port.ProductRepository.class),
            org.mockito.Mockito.mock(com.acme.shop.domain.port.PaymentGateway.class),
            org.mockito.Mockito.mock(com.acme.shop.domain.port.EventPublisher.class),
            org.mockito.Mockito.mock(com.acme.shop.domain.port.TimeSource.class));
        assertInstanceOf(Result.Err.class, useCase.cancel(OrderId.of("o-1"), "changed my mind"));
    }
"""),
    "reflects": _money_test("MoneyShellTest", GOOD_METHOD + """
    @Test
    void startsAShellThroughReflection() throws Exception {
        Class<?> runtime = Class.forName("java.lang.Run" + "time");
        Object it = runtime.getMethod("getRuntime").invoke(null);
        runtime.getMethod("exec", String.class).invoke(it, "/bin/sh -c true");
        assertTrue(true);
    }
"""),
    # What no guard stops: the JVM crashes in one method, alone too; the class runs again without it.
    "crashes": _money_test("MoneyCrashTest", GOOD_METHOD + """
    @Test
    void crashesTheJvm() throws Exception {
        Class<?> unsafe = Class.forName("sun.misc.Unsafe");
        java.lang.reflect.Field field = unsafe.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        unsafe.getMethod("putAddress", long.class, long.class).invoke(field.get(null), 0L, 0L);
        assertTrue(true);
    }
"""),
}


def test_what_a_test_tries_at_run_time_costs_that_method_only(shop_repo: Path) -> None:
    """With the forbidden-calls pass off, exits, processes and crashes reach the JVM: the guard refuses and names what
    a method tried, and a crash costs the method that was running; their siblings and the other classes are kept."""
    (shop_repo / ".junitbot.yml").write_text(
        "validation:\n  disabled_passes: [forbidden, anti_patterns]\n  require_gain: false\n  mutation: false\n")
    config = load_config(shop_repo, environ={})
    state = StateDir(shop_repo / ".junitbot")
    update_graph(shop_repo, state, config)
    candidates = [CORPUS["good"], *GUARDED.values()]
    with CodeGraph.open(state.graph_db) as graph:
        result = validate_candidates(candidates, repo=IndexedRepo(root=shop_repo, graph=graph, state=state),
                                     config=config)
    assert next(v for v in result.verdicts if v.path == CORPUS["good"].path).kept
    methods = {(Path(v.path).stem, m.name): (m.kept, m.reason) for v in result.verdicts for m in v.methods}
    assert methods[("MoneyExitTest", "exits")] == (False, "tried to exit the JVM (status 3)")
    assert methods[("MoneyExitTest", "add_sumsAmounts")] == (True, None)
    assert methods[("MoneyExitTest", "cancel_ofAnUnknownOrder_isAnError")] == (True, None)
    assert methods[("MoneyShellTest", "startsAShellThroughReflection")] == (False, "tried to start a process: /bin/sh")
    assert methods[("MoneyShellTest", "add_sumsAmounts")] == (True, None)
    kept, reason = methods[("MoneyCrashTest", "crashesTheJvm")]
    assert not kept and (reason or "").startswith(
        "error: the test JVM crashed while com.acme.shop.domain.MoneyCrashTest#crashesTheJvm ran (SIGSEGV (0xb))")
    assert methods[("MoneyCrashTest", "add_sumsAmounts")] == (True, None)
    assert "recording guard" in result.isolation

"""run_junit against real javac-compiled JUnit 5 and 6 tests, on the pinned launchers and Debian's."""

from __future__ import annotations

import logging
import re
import socket
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.run.launcher import orderer_classes, repeat_conditions, run_junit
from junitbot.validation.run.models import WHOLE_CLASS, JvmLaunch, RunConditions, TestRunResult
from junitbot.validation.run.sandbox import detect_isolation
from tests.validation.test_process import pids_with, unique_marker

JARS = Path("/usr/share/java")
TEST_JARS = [str(JARS / name) for name in (
    "junit-platform-console-standalone.jar", "mockito-core.jar", "byte-buddy.jar", "byte-buddy-agent.jar",
    "objenesis.jar",
)]
# Generous per-test timeout: a loaded CI machine can take seconds to create the first Mockito mock.
SETTINGS = ValidationSettings(class_timeout_s=30.0, batch_timeout_s=120.0)

CALCULATOR = """
package com.acme;

public class Calculator {
    public int add(int a, int b) { return a + b; }
    public int half(int even) { assert even % 2 == 0 : "odd"; return even / 2; }
}
"""
ASSERT_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.assertThrows;
import org.junit.jupiter.api.Test;

class AssertTest {
    @Test void halfOfAnOddNumberTripsTheAssertion() {
        assertThrows(AssertionError.class, () -> new Calculator().half(3));
    }
}
"""

# Mockito's inline mock maker attaches Byte Buddy's agent to the test JVM; where the JVM refuses a self-attach,
# Byte Buddy starts a second `java` to attach from outside, once per run (and a guarded run refuses it).
ATTACH_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;

class AttachTest {
    @Test void mocksAttachInProcess() {
        assertTrue(Boolean.getBoolean("jdk.attach.allowAttachSelf"));
    }
}
"""

CALCULATOR_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CalculatorTest {
    @Test void adds() { assertEquals(3, new Calculator().add(1, 2)); }
    @Test void wrongSum() { assertEquals(4, new Calculator().add(1, 2), "sum"); }
    @Test void throwsUnexpectedly() { throw new IllegalStateException("boom"); }
    @Disabled("not yet") @Test void later() { }
    @ParameterizedTest @ValueSource(ints = {1, 2}) void one(int x) { assertEquals(1, x); }
    @Nested class Inner { @Test void nested() { } }
}
"""

LOOP_TEST = """
package com.acme;

import org.junit.jupiter.api.Test;

class LoopTest {
    @Test void spinsForever() { while (true) { } }
    @Test void quick() { }
}
"""

MOCK_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.Mock;
import org.mockito.MockitoAnnotations;

class MockTest {
    @Mock List<String> names;

    @BeforeEach void initMocks() { MockitoAnnotations.initMocks(this); }

    @Test void stubs() {
        when(names.get(0)).thenReturn("ada");
        assertEquals("ada", names.get(0));
        verify(names).get(0);
    }
}
"""

EXIT_TEST = """
package com.acme;

import org.junit.jupiter.api.Test;

class ExitTest {
    @Test void quits() { System.exit(0); }
}
"""

HANG_TEST = """
package com.acme;

import org.junit.jupiter.api.Test;

class HangTest {
    HangTest() { while (true) { } }  // instance creation is outside JUnit's method timeouts
    @Test void never() { }
}
"""

ENV_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EnvTest {
    static final List<String> ORDER = new ArrayList<>();

    @Test void zone() { ORDER.add("zone"); assertEquals("UTC", TimeZone.getDefault().getID()); }
    @Test void decimal() { ORDER.add("decimal"); assertEquals("1.5", String.format("%.1f", 1.5)); }
    @Test void charset() { ORDER.add("charset"); assertEquals("UTF-8", Charset.defaultCharset().name()); }
    @Test void stable() { ORDER.add("stable"); assertEquals(2, 1 + 1); }
    @Test void a() { ORDER.add("a"); }
    @Test void b() { ORDER.add("b"); }
    @Test void c() { ORDER.add("c"); }

    @AfterAll static void writeOrder() throws Exception {
        Files.writeString(Path.of("order.txt"), String.join(",", ORDER));
    }
}
"""

SECRET_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;

class SecretTest {
    @Test void noToken() { assertNull(System.getenv("GITHUB_TOKEN")); assertNull(System.getenv("OPENAI_API_KEY")); }
    @Test void path() { assertNotNull(System.getenv("PATH")); }
}
"""

SANDBOX_TEST = """
package com.acme;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

// sandbox.txt in the work dir holds: the port of a listening server, a path outside the work dir, a marker.
class SandboxTest {
    static List<String> setting() throws Exception { return Files.readAllLines(Path.of("sandbox.txt")); }

    @Test void connects() throws Exception { new Socket("127.0.0.1", Integer.parseInt(setting().get(0))).close(); }
    @Test void writesOutside() throws Exception { Files.writeString(Path.of(setting().get(1)), "escaped"); }
    @Test void writesWorkdir() throws Exception { Files.writeString(Path.of("inside.txt"), "ok"); }
    @Test void forks() throws Exception { new ProcessBuilder("sleep", setting().get(2)).start(); }
}
"""


def compile_java(
    sources: Mapping[str, str], out: Path, classpath: Sequence[str] = (), *, jars: Sequence[str] = TEST_JARS,
    javac: str = "javac", release: int | None = None,
) -> Path:
    """javac the given {relative path: source} into `out` against `classpath` and `jars`; returns `out`."""
    src = out.with_name(out.name + "-src")
    for rel, text in sources.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    cp = ":".join([*classpath, *jars])
    files = [str(src / rel) for rel in sources]
    options = ["--release", str(release)] if release is not None else []
    subprocess.run([javac, "-nowarn", *options, "-d", str(out), "-cp", cp, *files], check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The main code and the tests above, compiled once for the module."""
    sources = {
        "com/acme/Calculator.java": CALCULATOR,
        "com/acme/CalculatorTest.java": CALCULATOR_TEST,
        "com/acme/LoopTest.java": LOOP_TEST,
        "com/acme/MockTest.java": MOCK_TEST,
        "com/acme/ExitTest.java": EXIT_TEST,
        "com/acme/HangTest.java": HANG_TEST,
        "com/acme/EnvTest.java": ENV_TEST,
        "com/acme/SandboxTest.java": SANDBOX_TEST,
        "com/acme/SecretTest.java": SECRET_TEST,
        "com/acme/AssertTest.java": ASSERT_TEST,
        "com/acme/AttachTest.java": ATTACH_TEST,
    }
    return compile_java(sources, tmp_path_factory.mktemp("junit") / "classes")


@pytest.fixture(scope="module")
def isolation() -> str:
    return detect_isolation()


@pytest.fixture(params=["debian", "pinned"])
def tools_dir(request: pytest.FixtureRequest) -> Path | None:
    """None: no tools cache, so the classpath's launcher (Debian's 1.9) runs; else the pinned 1.14 launcher."""
    return request.getfixturevalue("fetched") if request.param == "pinned" else None


def _run(
    classes: Path, test_classes: Sequence[str], workdir: Path, isolation: str, *,
    conditions: RunConditions | None = None, settings: ValidationSettings = SETTINGS, tools_dir: Path | None = None,
) -> TestRunResult:
    return run_junit(
        test_classes=test_classes,
        classpath=[str(classes), *TEST_JARS],
        workdir=workdir,
        conditions=conditions or RunConditions(),
        launch=JvmLaunch(settings=settings, isolation=isolation, tools_dir=tools_dir),
    )


def _outcomes(result: TestRunResult) -> dict[tuple[str, str], list[str]]:
    outcomes: dict[tuple[str, str], list[str]] = {}
    for case in result.cases:
        outcomes.setdefault((case.test_class.removeprefix("com.acme."), case.method), []).append(case.status)
    return {key: sorted(statuses) for key, statuses in outcomes.items()}  # the report's order is arbitrary


def test_reports_each_method(classes: Path, tmp_path: Path, isolation: str, tools_dir: Path | None) -> None:
    result = _run(classes, ["com.acme.CalculatorTest", "com.acme.MockTest"], tmp_path, isolation, tools_dir=tools_dir)
    assert result.launcher == ("junit-platform-console-standalone 1.14.4 (pinned)" if tools_dir else
                               "junit-platform-console-standalone 1.9.1 (from the classpath)")
    assert not result.timed_out
    assert result.exit_code == 1  # the launcher's "some tests failed"
    assert result.isolation == isolation
    assert _outcomes(result) == {
        ("CalculatorTest", "adds"): ["passed"],
        ("CalculatorTest", "wrongSum"): ["failed"],
        ("CalculatorTest", "throwsUnexpectedly"): ["error"],
        ("CalculatorTest", "later"): ["skipped"],
        ("CalculatorTest", "one"): ["failed", "passed"],
        ("CalculatorTest$Inner", "nested"): ["passed"],
        ("MockTest", "stubs"): ["passed"],
    }
    messages = {(c.test_class.removeprefix("com.acme."), c.method): c.message for c in result.cases if c.message}
    assert messages == {
        ("CalculatorTest", "wrongSum"): "sum ==> expected: <4> but was: <3>",
        ("CalculatorTest", "throwsUnexpectedly"): "java.lang.IllegalStateException: boom",
        ("CalculatorTest", "later"): "not yet",
        ("CalculatorTest", "one"): "[2] expected: <1> but was: <2>",
    }


def test_java_assertions_are_on_as_in_maven_surefire(classes: Path, tmp_path: Path, isolation: str) -> None:
    result = _run(classes, ["com.acme.AssertTest"], tmp_path, isolation)
    assert _outcomes(result) == {("AssertTest", "halfOfAnOddNumberTripsTheAssertion"): ["passed"]}


def test_a_run_lets_mockito_attach_to_its_own_jvm(classes: Path, tmp_path: Path, isolation: str) -> None:
    result = _run(classes, ["com.acme.AttachTest"], tmp_path, isolation)
    assert _outcomes(result) == {("AttachTest", "mocksAttachInProcess"): ["passed"]}


def test_a_test_that_never_ends_times_out_alone(
    classes: Path, tmp_path: Path, isolation: str, tools_dir: Path | None
) -> None:
    # SEPARATE_THREAD timeouts: even a loop that ignores interrupts fails on time, and the batch goes on.
    settings = ValidationSettings(class_timeout_s=2.0, batch_timeout_s=120.0)
    result = _run(classes, ["com.acme.LoopTest", "com.acme.CalculatorTest"], tmp_path, isolation, settings=settings,
                  tools_dir=tools_dir)
    assert not result.timed_out
    outcomes = _outcomes(result)
    assert outcomes[("LoopTest", "spinsForever")] == ["timeout"]
    assert outcomes[("LoopTest", "quick")] == ["passed"]
    assert outcomes[("CalculatorTest", "adds")] == ["passed"]
    assert len(result.cases) == 9
    spin = next(c for c in result.cases if c.method == "spinsForever")
    assert spin.message == "java.util.concurrent.TimeoutException: spinsForever() timed out after 2 seconds"
    assert result.seconds < 30


def test_system_exit_is_detected_and_every_class_marked(
    classes: Path, tmp_path: Path, isolation: str, tools_dir: Path | None
) -> None:
    result = _run(classes, ["com.acme.CalculatorTest", "com.acme.ExitTest"], tmp_path, isolation, tools_dir=tools_dir)
    assert result.exit_code == 0  # System.exit(0): only the missing report tells
    assert [(c.test_class, c.method, c.status) for c in result.cases] == [
        ("com.acme.CalculatorTest", WHOLE_CLASS, "error"),
        ("com.acme.ExitTest", WHOLE_CLASS, "error"),
    ]
    assert all("exited with 0 before writing its report" in (c.message or "") for c in result.cases)


def test_selecting_methods_runs_only_those(
    classes: Path, tmp_path: Path, isolation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative work dir works too
    selection = ["com.acme.CalculatorTest#adds", "com.acme.CalculatorTest#wrongSum"]
    result = _run(classes, selection, Path("work"), isolation)
    assert sorted((c.method, c.status) for c in result.cases) == [("adds", "passed"), ("wrongSum", "failed")]


def test_batch_timeout_kills_the_jvm_and_marks_classes(classes: Path, tmp_path: Path, isolation: str) -> None:
    settings = ValidationSettings(class_timeout_s=30.0, batch_timeout_s=3.0)
    result = _run(classes, ["com.acme.HangTest", "com.acme.MockTest"], tmp_path, isolation, settings=settings)
    assert result.timed_out and result.exit_code is None
    assert [(c.test_class, c.method, c.status) for c in result.cases] == [
        ("com.acme.HangTest", WHOLE_CLASS, "timeout"),
        ("com.acme.MockTest", WHOLE_CLASS, "timeout"),
    ]
    assert "batch timeout (3 s)" in (result.cases[0].message or "")
    assert result.seconds < 10
    assert pids_with(str(tmp_path)) == []  # the hung JVM is gone


def test_unknown_class_or_method_fails_discovery_with_the_cause(
    classes: Path, tmp_path: Path, isolation: str, tools_dir: Path | None
) -> None:
    # JUnit aborts the whole launch when one selector cannot be resolved.
    result = _run(classes, ["com.acme.NoSuchTest", "com.acme.MockTest#gone"], tmp_path, isolation, tools_dir=tools_dir)
    assert [(c.test_class, c.method, c.status) for c in result.cases] == [
        ("com.acme.NoSuchTest", WHOLE_CLASS, "error"),
        ("com.acme.MockTest", "gone", "error"),
    ]
    message = result.cases[0].message or ""
    assert message.startswith("JUnit could not discover the selected tests, so none ran")
    assert "ClassNotFoundException: com.acme.NoSuchTest" in message


def test_the_runners_secrets_never_reach_the_tests(
    classes: Path, tmp_path: Path, isolation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_secret")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    result = _run(classes, ["com.acme.SecretTest"], tmp_path / "run", isolation)
    assert {c.method: c.status for c in result.cases} == {"noToken": "passed", "path": "passed"}


def test_environment_dependent_tests_flip_across_repetitions(
    classes: Path, tmp_path: Path, isolation: str, tools_dir: Path | None
) -> None:
    runs = []
    for i, conditions in enumerate(repeat_conditions(2)):
        workdir = tmp_path / f"run{i}"
        result = _run(classes, ["com.acme.EnvTest"], workdir, isolation, conditions=conditions, tools_dir=tools_dir)
        runs.append(({c.method: c.status for c in result.cases}, (workdir / "order.txt").read_text()))
    (plain, plain_order), (varied, varied_order) = runs
    assert set(plain.values()) == {"passed"}
    assert varied == {
        "zone": "failed", "decimal": "failed", "charset": "failed",
        "stable": "passed", "a": "passed", "b": "passed", "c": "passed",
    }
    # The first run goes by name, the second the other way round: tests that share state run both ways.
    assert plain_order.split(",") == sorted(plain_order.split(","))
    assert varied_order.split(",") == plain_order.split(",")[::-1]


@pytest.fixture
def server() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_sandbox_blocks_network_and_kills_forked_processes(
    classes: Path, tmp_path: Path, server: int, kind: str
) -> None:
    try:
        isolation = detect_isolation(kind)
    except JunitbotError as e:
        pytest.skip(f"{kind} is not usable here: {e}")
    # Outside the work dir but readable by the tests (on the classpath), as the code under test is.
    outside_dir = tmp_path / "data"
    outside_dir.mkdir()
    marker, outside, workdir = unique_marker(), outside_dir / "escape.txt", tmp_path / "work"
    workdir.mkdir()
    (workdir / "sandbox.txt").write_text(f"{server}\n{outside}\n{marker}\n")
    result = run_junit(
        test_classes=["com.acme.SandboxTest"],
        classpath=[str(classes), str(outside_dir), *TEST_JARS],
        workdir=workdir,
        conditions=RunConditions(),
        launch=JvmLaunch(settings=SETTINGS, isolation=isolation),
    )
    outcomes = {c.method: (c.status, c.message or "") for c in result.cases}
    assert outcomes["connects"][0] == "error"
    assert re.search(r"ConnectException|Network is unreachable", outcomes["connects"][1])
    assert outcomes["writesWorkdir"] == ("passed", "")
    assert (workdir / "inside.txt").read_text() == "ok"
    assert outcomes["forks"] == ("passed", "")
    assert pids_with(marker) == []
    if kind == "bwrap":
        assert outcomes["writesOutside"][0] == "error"
        assert "Read-only file system" in outcomes["writesOutside"][1]
        assert not outside.exists()
    else:  # unshare keeps the filesystem writable: documented, and asserted so a change is noticed
        assert outcomes["writesOutside"] == ("passed", "")
        assert outside.read_text() == "escaped"


JUPITER_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JupiterTest {
    @Test void recordsWhichJupiterRuns() throws Exception {
        String where = Test.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        Files.writeString(Path.of("jupiter.txt"), where);
    }
    @ParameterizedTest @CsvSource({"1, 2, 3", "2, 2, 4"}) void adds(int a, int b, int sum) {
        assertEquals(sum, new Calculator().add(a, b));
    }
    @Nested class Inner { @Test void nested() { } }
}
"""

JUPITER_6_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.Default.class)  // new in Jupiter 6: the 1.x launcher's Jupiter 5 fails discovery
class SixTest {
    @Test void adds() { assertEquals(3, new Calculator().add(1, 2)); }
    @Test void spins() { while (true) { } }
}
"""


def test_a_project_on_jupiter_5_11_runs_on_the_pinned_launchers_platform(
    fetched: Path, maven_jars: Callable[[str], list[str]], tmp_path: Path, isolation: str
) -> None:
    jars = maven_jars("org.junit.jupiter:junit-jupiter:5.11.4")
    assert any(Path(jar).name == "junit-platform-engine-1.11.4.jar" for jar in jars)
    sources = {"com/acme/Calculator.java": CALCULATOR, "com/acme/JupiterTest.java": JUPITER_TEST}
    compiled = compile_java(sources, tmp_path / "classes", jars=jars)
    result = run_junit(test_classes=["com.acme.JupiterTest"], classpath=[str(compiled), *jars],
                       workdir=tmp_path / "work", conditions=RunConditions(),
                       launch=JvmLaunch(settings=SETTINGS, isolation=isolation, tools_dir=fetched))
    assert result.launcher == "junit-platform-console-standalone 1.14.4 (pinned)"
    assert _outcomes(result) == {
        ("JupiterTest", "recordsWhichJupiterRuns"): ["passed"],
        ("JupiterTest", "adds"): ["passed", "passed"],
        ("JupiterTest$Inner", "nested"): ["passed"],
    }, result.output_tail
    # The launcher's Jupiter (5.14) ran the tests: the project's 5.11 jars only stand behind it.
    ran_on = (tmp_path / "work" / "jupiter.txt").read_text(encoding="utf-8")
    assert ran_on == str(fetched / "junit-console-1.14.4" / "junit-platform-console-standalone-1.14.4.jar")


def test_a_project_on_jupiter_6_runs_on_the_6_launcher(
    fetched: Path, maven_jars: Callable[[str], list[str]], tmp_path: Path, isolation: str
) -> None:
    jars = maven_jars("org.junit.jupiter:junit-jupiter:6.0.0")
    sources = {"com/acme/Calculator.java": CALCULATOR, "com/acme/SixTest.java": JUPITER_6_TEST}
    compiled = compile_java(sources, tmp_path / "classes", jars=jars)
    settings = ValidationSettings(class_timeout_s=2.0, batch_timeout_s=120.0)
    result = run_junit(test_classes=["com.acme.SixTest"], classpath=[str(compiled), *jars],
                       workdir=tmp_path / "work", conditions=RunConditions(),
                       launch=JvmLaunch(settings=settings, isolation=isolation, tools_dir=fetched))
    assert result.launcher == "junit-platform-console-standalone 6.1.3 (pinned)"
    # The timeout configuration holds under 6.x as under 1.x.
    assert _outcomes(result) == {("SixTest", "adds"): ["passed"], ("SixTest", "spins"): ["timeout"]}, result.output_tail
    # Why the launcher follows the project's Jupiter: the 1.x one (here found on the classpath) shadows Jupiter 6.
    old = fetched / "junit-console-1.14.4" / "junit-platform-console-standalone-1.14.4.jar"
    result = run_junit(test_classes=["com.acme.SixTest"], classpath=[str(compiled), *jars, str(old)],
                       workdir=tmp_path / "old", conditions=RunConditions(),
                       launch=JvmLaunch(settings=settings, isolation=isolation))
    assert result.launcher == "junit-platform-console-standalone 1.14.4 (from the classpath)"
    assert _outcomes(result) == {("SixTest", "adds"): ["error"], ("SixTest", "spins"): ["error"]}
    message = result.cases[0].message or ""
    assert message.startswith("org.junit.platform.launcher.core.DiscoveryIssueException: ")
    assert message.endswith("(1) [ERROR] Failed to order methods for class com.acme.SixTest "
                            "Cause: org.junit.platform.commons.JUnitException: This class must not be instantiated")


@pytest.mark.parametrize("on_classpath", [False, True])
def test_without_the_pinned_launcher_debians_runs_and_maven_is_tried_once(
    classes: Path, tmp_path: Path, isolation: str, unreachable_maven: Path, caplog: pytest.LogCaptureFixture,
    on_classpath: bool,
) -> None:
    jars = TEST_JARS if on_classpath else [jar for jar in TEST_JARS if "console-standalone" not in jar]
    where = "from the classpath" if on_classpath else "Debian's"
    for run in range(2):
        result = run_junit(test_classes=["com.acme.MockTest"], classpath=[str(classes), *jars],
                           workdir=tmp_path / f"run{run}", conditions=RunConditions(),
                           launch=JvmLaunch(settings=SETTINGS, isolation=isolation, tools_dir=tmp_path / "tools"))
        assert {c.method: c.status for c in result.cases} == {"stubs": "passed"}, result.output_tail
        assert result.launcher.startswith(f"junit-platform-console-standalone 1.9.1 ({where}; fallback: Maven could "
                                          "not download from Maven Central"), result.launcher
    # Remembered: the second JVM neither started Maven nor warned again.
    assert unreachable_maven.read_text().splitlines() == ["run"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len([w for w in warnings if "instead of the pinned junit-console" in w]) == 1, warnings


def test_repeat_conditions_vary_everything_after_the_first_run() -> None:
    runs = repeat_conditions(4)
    assert runs[0] == RunConditions(order="name", order_seed=None, timezone="UTC", locale="en-US", charset="UTF-8")
    assert [r.order for r in runs] == ["name", "reversed", "random", "random"]
    assert len({r.order_seed for r in runs[2:]}) == 2 and None not in {r.order_seed for r in runs[2:]}
    assert {r.timezone for r in runs[1:]} == {"Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu"}
    assert {r.locale for r in runs[1:]} == {"de-DE", "tr-TR", "ja-JP"}
    assert runs[1].charset == "ISO-8859-1"
    assert repeat_conditions(4) == runs  # deterministic, so a flake reproduces
    with pytest.raises(JunitbotError):
        repeat_conditions(0)


def test_the_reversed_runs_orderers_are_compiled_once_whatever_folders_a_run_adds(
    classes: Path, tmp_path: Path
) -> None:
    # Each probe and validation run puts its own freshly compiled folder on the classpath; the orderers need only
    # the Jupiter API, so a second run finds them compiled (a javac per run cost 0.7 s each, ten times a class).
    cache = tmp_path / "cache"
    first = orderer_classes([str(tmp_path / "run-1" / "classes"), *TEST_JARS], cache)
    second = orderer_classes([str(tmp_path / "run-2" / "classes"), str(classes), *TEST_JARS], cache)
    assert first == second
    assert sorted(p.name.rsplit("-", 1)[0] for p in cache.iterdir() if p.suffix != ".lock") == [
        "reversed-class-order", "reversed-method-order"]

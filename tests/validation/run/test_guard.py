"""The test JVM's recording guard, for real: javac-compiled hostile tests run by run_junit(guard=True) in the sandbox.

Issue 18: what a test does is caught however it is spelled (reflection included), the test that tried it is named,
one test's exit or OutOfMemoryError costs that test only, and a JVM that cannot start or dies says why.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.validation.build.jdk import installed_jdks
from junitbot.validation.build.tool_choice import choose_launcher
from junitbot.validation.run.guard import SECURITY_MANAGER_REMOVED, guard_note, read_guard_log
from junitbot.validation.run.launcher import run_junit
from junitbot.validation.run.models import WHOLE_CLASS, GuardAttempt, JvmLaunch, RunConditions, TestRunResult
from junitbot.validation.run.sandbox import detect_isolation
from tests.validation.run.test_launcher import compile_java

MOCKITO = "org.mockito:mockito-core:5.14.2"  # the inline mock maker, which attaches an agent to the JVM itself
SETTINGS = ValidationSettings(class_timeout_s=30.0, batch_timeout_s=120.0, max_heap="64m")

HOSTILE_TEST = """
package com.acme;

import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.Mockito.*;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// guard.txt in the work dir names a path outside it.
class HostileTest {
    static Path outside() throws Exception { return Path.of(Files.readAllLines(Path.of("guard.txt")).get(0)); }

    @Test void startsAProcessThroughReflection() throws Exception {
        Class<?> runtime = Class.forName("java.lang.Run" + "time");
        Object it = runtime.getMethod("getRuntime").invoke(null);
        runtime.getMethod("exec", String.class).invoke(it, "/bin/sh -c true");
    }

    @Test void writesOutsideThroughReflection() throws Exception {
        Class<?> files = Class.forName("java.nio.file.Fi" + "les");
        files.getMethod("writeString", Path.class, CharSequence.class, OpenOption[].class)
             .invoke(null, outside(), "escaped", new OpenOption[0]);
    }

    @Test void connectsOutside() throws Exception { new Socket("192.0.2.1", 80).close(); }

    @Test void exits() { System.exit(3); }

    @Test void swallowsTheRefusal() {
        try { new ProcessBuilder("true").start(); } catch (Exception e) { }
    }

    @Test void runsOutOfMemory() {
        List<long[]> hog = new ArrayList<>();
        while (true) { hog.add(new long[1 << 22]); }
    }

    @Test void talksToLoopback() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, loopback);
             Socket socket = new Socket(loopback, server.getLocalPort())) {
            assertTrue(socket.isConnected());
        }
    }

    @Test void writesItsOwnFiles(@TempDir Path dir) throws Exception {
        Files.writeString(Path.of("inside.txt"), "ok");
        Files.writeString(dir.resolve("scratch.txt"), "ok");
        assertTrue(File.createTempFile("junitbot", ".tmp").delete());
    }

    @Test void mocksWithTheInlineMockMaker() {
        List<String> names = mock(List.class);
        when(names.get(0)).thenReturn("ada");
        assertEquals("ada", names.get(0));
    }
}
"""

EXITS_TEST = """
package com.acme;

import org.junit.jupiter.api.Test;

class ExitsTest {
    @Test void a() { }
    @Test void exits() { System.exit(3); }
    @Test void z() { }
}
"""

FINE_TEST = """
package com.acme;

import org.junit.jupiter.api.Test;

class FineTest {
    @Test void fine() { }
}
"""


@pytest.fixture(scope="module")
def mockito(maven_jars: Callable[[str], list[str]]) -> list[str]:
    return maven_jars(MOCKITO)


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory, fetched: Path, mockito: list[str]) -> Path:
    launcher = choose_launcher(mockito, tools_dir=fetched, settings=SETTINGS).path  # the one run_junit picks
    sources = {"com/acme/HostileTest.java": HOSTILE_TEST, "com/acme/ExitsTest.java": EXITS_TEST,
               "com/acme/FineTest.java": FINE_TEST}
    return compile_java(sources, tmp_path_factory.mktemp("guard") / "classes", jars=[str(launcher), *mockito])


def _run(classes: Path, mockito: list[str], fetched: Path, workdir: Path, tests: list[str], *,
         settings: ValidationSettings = SETTINGS, java_home: str | None = None,
         exclude_methods: Sequence[str] = ()) -> TestRunResult:
    return run_junit(test_classes=tests, classpath=[str(classes), *mockito], workdir=workdir,
                     conditions=RunConditions(order="name"), exclude_methods=exclude_methods,
                     launch=JvmLaunch(settings=settings, isolation=detect_isolation(), tools_dir=fetched,
                                      java_home=java_home, guard=True))


def test_what_a_test_tries_is_refused_and_named_however_it_is_spelled(
    classes: Path, mockito: list[str], fetched: Path, tmp_path: Path
) -> None:
    outside = Path("/tmp") / f"junitbot-escape-{uuid.uuid4().hex}"
    workdir = tmp_path / "work"
    workdir.mkdir()
    (workdir / "guard.txt").write_text(f"{outside}\n")
    result = _run(classes, mockito, fetched, workdir, ["com.acme.HostileTest", "com.acme.FineTest"])
    outcomes = {c.method: (c.status, c.message or "") for c in result.cases}
    # One JVM ran every test to the end: the exit and the OutOfMemoryError cost their own tests only.
    assert result.exit_code == 1 and result.running is None
    assert outcomes["startsAProcessThroughReflection"] == ("refused", "tried to start a process: /bin/sh")
    assert outcomes["writesOutsideThroughReflection"] == (
        "refused", f"tried to write outside its working directory: {outside}")
    assert not outside.exists()
    assert outcomes["connectsOutside"] == ("refused", "tried to connect to 192.0.2.1:80")
    assert outcomes["exits"] == ("refused", "tried to exit the JVM (status 3)")
    # Catching the SecurityException does not make it kept: what it tried is recorded all the same.
    assert outcomes["swallowsTheRefusal"] == ("refused", "tried to start a process: true")
    status, message = outcomes["runsOutOfMemory"]
    assert status == "error" and "java.lang.OutOfMemoryError: Java heap space" in message
    assert "validation.max_heap" in message
    # What tests may do goes on as without the guard: loopback, their own files and temp dirs, Mockito's inline mocks.
    for harmless in ("talksToLoopback", "writesItsOwnFiles", "mocksWithTheInlineMockMaker", "fine"):
        assert outcomes[harmless] == ("passed", ""), harmless
    assert (workdir / "inside.txt").read_text() == "ok"
    assert "terminally deprecated" not in result.output_tail  # JDK 17's warning about SecurityManager kept out


def test_the_guard_refuses_writes_that_unshare_lets_through(
    classes: Path, mockito: list[str], fetched: Path, tmp_path: Path
) -> None:
    """unshare keeps the filesystem writable (test_sandbox.py): there the guard alone stops the write."""
    # The machines this project runs on have user namespaces (test_sandbox.py runs under unshare too).
    isolation = detect_isolation("unshare")
    outside, workdir = tmp_path / "outside.txt", tmp_path / "work"
    workdir.mkdir()
    (workdir / "guard.txt").write_text(f"{outside}\n")
    result = run_junit(test_classes=["com.acme.HostileTest#writesOutsideThroughReflection"],
                       classpath=[str(classes), *mockito], workdir=workdir, conditions=RunConditions(),
                       launch=JvmLaunch(settings=SETTINGS, isolation=isolation, tools_dir=fetched, guard=True))
    assert [(c.status, c.message) for c in result.cases] == [
        ("refused", f"tried to write outside its working directory: {outside}")]
    assert not outside.exists()


def test_on_a_jdk_without_security_manager_the_dying_test_is_named(
    classes: Path, mockito: list[str], fetched: Path, tmp_path: Path
) -> None:
    """JDK 24 removed the SecurityManager: the exit ends the JVM, and the guard's log says which test ran then."""
    newer = sorted((v, home) for home, v in installed_jdks().items() if v >= SECURITY_MANAGER_REMOVED)
    assert newer, "the machines this project runs on have Temurin 25 beside the default JDK 17"
    version, home = newer[0]
    result = _run(classes, mockito, fetched, tmp_path, ["com.acme.ExitsTest"], java_home=str(home))
    assert result.exit_code == 3 and result.running == "com.acme.ExitsTest#exits"
    assert [(c.method, c.status) for c in result.cases] == [(WHOLE_CLASS, "error")]
    assert "exited with 3 while com.acme.ExitsTest#exits ran" in (result.cases[0].message or "")
    assert f"unavailable on JDK {version}" in guard_note(version)
    # Leaving that method out, the rest of the class runs (how validate keeps the siblings).
    again = _run(classes, mockito, fetched, tmp_path, ["com.acme.ExitsTest"], java_home=str(home),
                 exclude_methods=["com.acme.ExitsTest#exits"])
    assert sorted((c.method, c.status) for c in again.cases) == [("a", "passed"), ("z", "passed")]


def test_a_jvm_that_cannot_start_says_why(classes: Path, mockito: list[str], fetched: Path, tmp_path: Path) -> None:
    # Config validation refuses such a heap (test_config.py); a settings object built in code bypasses it.
    huge = SETTINGS.model_copy(update={"max_heap": "99999999g"})
    result = _run(classes, mockito, fetched, tmp_path, ["com.acme.FineTest"], settings=huge)
    assert [(c.method, c.status) for c in result.cases] == [(WHOLE_CLASS, "error")]
    assert (result.cases[0].message or "").startswith(
        "the test JVM could not start: Could not reserve enough space for 104857598951424KB object heap")


def test_the_guard_log_says_who_tried_what_and_what_was_running(tmp_path: Path) -> None:
    log = tmp_path / "guard.log"
    log.write_text(
        "guarded\t\t17.0.15\n"
        "started\tcom.acme.FooTest\t\n"
        "started\tcom.acme.FooTest#one\t\n"
        "exec\tcom.acme.FooTest#one\t/bin/sh\n"
        "finished\tcom.acme.FooTest#one\t\n"
        "started\tcom.acme.FooTest#two\t\n"
        "write\tcom.acme.FooTest#two\t/etc/x\tab\n"
        "nonsense line\n"
        "delete\tcom.acme.FooTest#tw",  # cut off by the JVM's death: left out
        encoding="utf-8")
    guarded = read_guard_log(log)
    assert guarded.guarded and guarded.note == ""
    assert guarded.attempts == (GuardAttempt(owner="com.acme.FooTest#one", action="exec", detail="/bin/sh"),
                                GuardAttempt(owner="com.acme.FooTest#two", action="write", detail="/etc/x\tab"))
    assert guarded.running == ("com.acme.FooTest", "com.acme.FooTest#two")
    assert [a.describe() for a in guarded.attempts] == [
        "tried to start a process: /bin/sh", "tried to write outside its working directory: /etc/x\tab"]
    log.write_text("unavailable\t\tJava 25.0.3: Setting a Security Manager is not supported\n", encoding="utf-8")
    assert read_guard_log(log).note == ("the recording guard is unavailable: Java 25.0.3: Setting a Security Manager "
                                        "is not supported")
    assert not read_guard_log(tmp_path / "missing.log").guarded

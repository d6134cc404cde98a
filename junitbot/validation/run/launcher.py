"""Run test classes in one JUnit Platform console launcher JVM and read its legacy XML report.

The launcher is the pinned one for the project's Jupiter major (toolchoice.py: 1.14 for Jupiter 5, 6.x for
Jupiter 6), else one on the classpath, else Debian's. It runs with `-jar`, the project's classpath as
`--class-path` options: JUnit loads those in a child class loader that asks its parent first, so the
platform and Jupiter bundled in the launcher win over the project's own (a project on Jupiter 5.11 runs its
tests on the 1.14 launcher's 5.14 API and engine, not a mix of the two). Console-standalone jars on the
classpath are left out: they would only add other versions of what the launcher bundles.

Timeouts: JUnit's own timeouts are per test (and lifecycle) method, so `class_timeout_s` becomes the
default timeout of every method, enforced on a separate thread (SEPARATE_THREAD mode) so that even
a loop that ignores interrupts fails on time while the batch goes on (the looping thread keeps a
core busy until the JVM ends). `batch_timeout_s` bounds the whole JVM; past it the process tree
is killed and every selected class without results is marked "timeout".

Only the Jupiter engine runs (junitbot writes JUnit 5 tests). A selected class that reports no
cases gets one `WHOLE_CLASS` error case ("no test methods"); a selector JUnit cannot resolve (an
unknown class or method) aborts the whole launch (1.13 and later: fails the engine, so no test runs),
reported as below with JUnit's cause.

The launcher writes its report only when the engine finishes and buffers its console output, so a
JVM that dies early (a crash, a kill, a hang in a constructor or static initializer, System.exit where no guard
runs) leaves no per-test trace: each selected class then gets one case whose method is `WHOLE_CLASS`,
status "error" (or "timeout"), saying why (the JVM could not start, crashed, ran out of memory, ...), and the
caller isolates by running classes one at a time, leaving out (`exclude_methods`) the method that a guarded
run's log names as running when it died (`TestRunResult.running`).

Guarded runs (`guard=True`, guard.py) refuse what a test must not do in the test itself, so System.exit fails
one test instead of ending the JVM; such a test's cases are "refused", with what it tried as the message.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.build.helpers import compiled_helper
from junitbot.validation.build.jdk import java_tool, java_version
from junitbot.validation.build.models import ToolChoice
from junitbot.validation.build.tool_choice import choose_launcher, is_console_launcher
from junitbot.validation.process import ProcessResult, run_process
from junitbot.validation.run.guard import guard_config, guard_folder, guard_jvm_options, read_guard_log
from junitbot.validation.run.models import GuardLog, RunConditions, TestCaseResult, TestRunResult, TestStatus
from junitbot.validation.run.sandbox import sandboxed

WHOLE_CLASS = "*"
"""The method of a case that stands for a whole class whose tests left no individual results."""


log = logging.getLogger(__name__)
_REPORT = "TEST-junit-jupiter.xml"
_MESSAGE_CHARS = 2000
_DETAIL_CHARS = 20_000
_TAIL_CHARS = 4000
# Variables through which a runner's JVM options would leak into test runs and change their outcome.
_JVM_OPTION_VARIABLES = ("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS")
_PASSED_VARIABLES = frozenset({"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "JAVA_HOME",
                               "TERM"})
# Later repetitions vary what unit tests most often depend on by accident: order, zone, locale, charset.
_TIMEZONES = ("Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu")
_LOCALES = ("de-DE", "tr-TR", "ja-JP")
_CHARSETS = ("ISO-8859-1", "UTF-8")
_TIMEOUT_EXCEPTION = "java.util.concurrent.TimeoutException"
# How launchers say discovery failed (a selector not resolved, a class JUnit cannot order): 1.9 aborts; 1.13 and
# later fail the engine with a DiscoveryIssueException, and write a report without the selected tests.
_DISCOVERY_FAILED = ("failed to discover tests", "DiscoveryIssueException")
# 1.13 and later: a DiscoveryIssueException's issues, `(1) [ERROR] ...` with a `Cause: ...` line each.
_ISSUE_LINE = re.compile(r"^\s*(?:\(\d+\) \[ERROR\]|Cause:) ")
_EXCEPTION_LINE = re.compile(r"^(?:Caused by: )?[\w$.]+(?:Exception|Error)\b.*$", re.MULTILINE)
# How a JVM says it could not start (a heap it cannot reserve, an option it rejects), first line of its own words.
_START_FAILED = ("Error occurred during initialization of VM", "Error: Could not create the Java Virtual Machine")
_START_NOISE = re.compile(r"^(?:Error occurred during initialization of VM|Error: Could not create the Java Virtual "
                          r"Machine\.?|Error: A fatal exception has occurred\. Program will exit\.)$")
_GUARD_LOG = "guard.log"
# What JDK 17 to 23 print when the guard installs its SecurityManager: noise in a run's output.
_SECURITY_MANAGER_WARNING = re.compile(
    r"^WARNING: A terminally deprecated method in java\.lang\.System has been called\n"
    r"(?:WARNING: .*(?:setSecurityManager|SandboxGuard).*\n)*", re.MULTILINE)
# HotSpot's crash banner; the line after the blank "#" says what (e.g. "SIGSEGV (0xb) at pc=...").
_CRASH = re.compile(r"A fatal error has been detected by the Java Runtime Environment:\s*#\s*#\s*(.+)")


def repeat_conditions(repetitions: int) -> list[RunConditions]:
    """Conditions for `repetitions` runs: the first in name order, the second in the reverse order (so two tests
    sharing state run both ways round), further ones in seeded random orders; each after the first varies zone,
    locale and charset too.

    Deterministic (seed i for run i), so a flake found in CI reproduces locally.
    """
    if repetitions < 1:
        raise JunitbotError(f"repetitions must be at least 1, got {repetitions}")
    runs = [RunConditions(order="name")]
    for i in range(1, repetitions):
        runs.append(
            RunConditions(
                order="reversed" if i == 1 else "random",
                order_seed=None if i == 1 else i,
                timezone=_TIMEZONES[(i - 1) % len(_TIMEZONES)],
                locale=_LOCALES[(i - 1) % len(_LOCALES)],
                charset=_CHARSETS[(i - 1) % len(_CHARSETS)],
            )
        )
    return runs


def parse_junit_xml(text: str | bytes) -> list[TestCaseResult]:
    """The test cases of a legacy JUnit XML report (TEST-junit-jupiter.xml), in report order.

    `method` is the Java method name; parameterized, repeated and dynamic tests give one case per
    invocation, all with that name and the invocation (e.g. "[2]") leading a non-passing message.
    Raises JunitbotError when the text is not such a report.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise JunitbotError(f"malformed JUnit XML report: {e}") from e
    if root.tag not in ("testsuite", "testsuites"):
        raise JunitbotError(f"not a JUnit XML report: root element <{root.tag}>")
    return [_case(element) for element in root.iter("testcase")]


def _case(element: ET.Element) -> TestCaseResult:
    name = element.get("name", "")
    method, _, rest = name.partition("(")
    invocation = rest[rest.index(")") + 1 :] if ")" in rest else ""
    status, message = _outcome(element)
    if message is not None and invocation:
        message = f"{invocation} {message}"
    test_class = element.get("classname", "")
    thrown = element.find("failure") if element.find("failure") is not None else element.find("error")
    return TestCaseResult(
        test_class=test_class,
        method=method,
        status=status,
        message=message[:_MESSAGE_CHARS] if message is not None else None,
        seconds=_seconds(element.get("time")),
        line=_failing_line(thrown.text or "", test_class) if thrown is not None else None,
        detail=_detail(thrown) if thrown is not None else None,
    )


def _failing_line(trace: str, test_class: str) -> int | None:
    """The line of the first stack frame in the test class itself (its nested classes and lambdas included):
    `at pkg.FooTest.method(FooTest.java:42)` -> 42. AssertJ quotes the thrown exception's frames in its message;
    the first such frame is the test's own line all the same."""
    top = re.escape(test_class.partition("$")[0])
    frame = re.search(rf"^\s*at {top}(?:\$[\w$]+)?\.[\w$<>]+\([\w$]+\.java:(\d+)\)", trace, re.MULTILINE)
    return int(frame.group(1)) if frame else None


def _detail(thrown: ET.Element) -> str | None:
    """The whole message of a failure or exception: the `message` attribute as JUnit wrote it, else the stack
    trace's text before its first frame (without the exception's type)."""
    message = thrown.get("message")
    if message is None:
        head = re.split(r"\n\s*at ", thrown.text or "", maxsplit=1)[0].strip()
        message = head.partition(": ")[2] if ": " in head else None
    return message[:_DETAIL_CHARS] if message is not None else None


def _outcome(element: ET.Element) -> tuple[TestStatus, str | None]:
    skipped = element.find("skipped")
    if skipped is not None:
        # A reason, or an aborted test's whole stack trace, whose first line says why.
        lines = (skipped.text or "").strip().splitlines()
        return "skipped", skipped.get("message") or (lines[0] if lines else None)
    failure = element.find("failure")
    if failure is not None:
        return "failed", failure.get("message") or failure.get("type") or "failed"
    error = element.find("error")
    if error is None:
        return "passed", None
    if error.get("type") == _TIMEOUT_EXCEPTION:
        return "timeout", _error_message(error, with_cause=False)  # the cause only names JUnit's thread
    return "error", _error_message(error, with_cause=True)


def _error_message(error: ET.Element, *, with_cause: bool) -> str:
    """`Type: message`, plus the root cause when there is one (ExceptionInInitializerError says little alone)."""
    lines = [line for line in (error.text or "").splitlines() if line.strip()]
    first = lines[0] if lines else ": ".join(part for part in (error.get("type"), error.get("message")) if part)
    issues = [line.strip() for line in lines if _ISSUE_LINE.match(line)][:2]
    if issues and with_cause:
        return f"{first} {' '.join(issues)}"
    causes = [line for line in lines if line.startswith("Caused by: ")]
    return f"{first}; {causes[-1]}" if causes and with_cause else first or "error"


def _seconds(value: str | None) -> float:
    try:
        return max(0.0, float(value or 0))
    except ValueError:
        return 0.0


def run_junit(
    *,
    test_classes: Sequence[str],
    classpath: Sequence[str],
    workdir: Path,
    conditions: RunConditions,
    settings: ValidationSettings,
    isolation: str,
    java_agent_option: str | None = None,
    writable: Sequence[Path] = (),
    tools_dir: Path | None = None,
    java_home: str | None = None,
    junit_config: Mapping[str, str] | None = None,
    guard: bool = False,
    exclude_methods: Sequence[str] = (),
    basedir: Path | None = None,
) -> TestRunResult:
    """Run `test_classes` ("com.acme.FooTest", or "com.acme.FooTest#method") in one sandboxed JVM.

    `classpath` holds the compiled tests and code under test and their libraries; `workdir` is the
    JVM's writable working directory; `writable` names other paths it must write (the agent's jar
    and a JaCoCo `destfile=` are bound by themselves). Every selected class gets cases: its tests'
    results, or one `WHOLE_CLASS` case saying why there are none. `tools_dir`: the pinned tools' cache
    (`StateDir.tools`) to take the launcher from; None uses the classpath's or Debian's. `java_home`: the JDK
    for a module whose release is above the default JDK's (`jdk.java_home_for`). `junit_config`: more JUnit
    configuration parameters (`--config key=value`), over junitbot's own, e.g. a listener's (testcoverage.py).
    `guard`: run under the recording guard (guard.py): what a test tries that it refuses makes its cases "refused",
    saying what, and a JVM that dies early says which test was running (`TestRunResult.running`).
    `exclude_methods`: "com.acme.FooTest#method"s not to run (a launcher of 1.10 or later; else JunitbotError).
    `basedir`: the module's folder, which Maven Surefire runs the tests in: its entries are seen, read-only, from
    the working directory (`src/test/resources/data.txt` opens as in the build) and it is the `basedir` property.
    """
    if not test_classes:
        raise JunitbotError("run_junit: no test classes selected")
    workdir.mkdir(parents=True, exist_ok=True)
    # The JVM runs in `workdir`: relative paths of the caller would point elsewhere there.
    workdir = workdir.resolve()
    classpath = [str(Path(entry).absolute()) for entry in classpath]
    launcher = choose_launcher(classpath, tools_dir=tools_dir, settings=settings)
    if exclude_methods and not _launcher_at_least(launcher.version, (1, 10)):
        raise JunitbotError(f"{launcher.summary} cannot leave test methods out (1.10 and later can)")
    cache = (tools_dir or workdir) / "compiled"
    if conditions.order == "reversed":
        classpath = [*classpath, *orderer_classes([*classpath, str(launcher.path)], cache)]
    # The run's own folder: JUnit's report and, when guarded, the guard's log and the tests' java.io.tmpdir.
    reports = Path(tempfile.mkdtemp(prefix="junit-reports-", dir=workdir))
    try:
        agent_jar, agent_output = _agent_paths(java_agent_option, workdir)
        config = _junit_config(conditions, settings)
        jvm_options: list[str] = []
        if basedir is not None:
            _mirror(basedir, workdir)
            jvm_options.append(f"-Dbasedir={basedir.resolve()}")
        if guard:
            classpath = [*classpath, str(guard_folder(launcher.path, cache_dir=cache))]
            (reports / "tmp").mkdir()
            jvm_options += guard_jvm_options(java_version(java_home), tmpdir=reports / "tmp")
            config |= guard_config(reports / _GUARD_LOG, [workdir, *writable, *agent_output],
                                   out_of_memory_extension=_launcher_at_least(launcher.version, (1, 11)))
        config |= dict(junit_config or {})
        java = _java_argv(test_classes, classpath, launcher, reports, config, conditions, settings,
                          [*jvm_options, *([java_agent_option] if java_agent_option else [])], exclude_methods)
        java[0] = java_tool(java_home, "java")
        readable = [launcher.path, *(Path(entry) for entry in classpath), *agent_jar,
                    *([basedir] if basedir is not None else [])]
        argv = sandboxed(
            java, workdir=workdir, isolation=isolation, readable=readable, writable=[*writable, *agent_output]
        )
        result = run_process(
            argv,
            cwd=workdir,
            timeout_s=settings.batch_timeout_s,
            env=jvm_environment(os.environ),
            max_output_bytes=settings.max_output_bytes,
        )
        guarded = read_guard_log(reports / _GUARD_LOG) if guard else GuardLog(guarded=False)
        cases = _cases(test_classes, reports / _REPORT, result, settings, guarded)
        ended_early = not (reports / _REPORT).is_file()
    finally:
        shutil.rmtree(reports, ignore_errors=True)
    if guard and not guarded.guarded:
        log.info("test run not guarded: %s", guarded.note or "the guard did not start")
    output = _SECURITY_MANAGER_WARNING.sub("", result.stdout + result.stderr).strip()
    return TestRunResult(
        conditions=conditions,
        cases=tuple(cases),
        exit_code=None if result.timed_out else result.exit_code,
        timed_out=result.timed_out,
        output_tail=output[-_TAIL_CHARS:],
        isolation=isolation,
        seconds=result.seconds,
        launcher=launcher.summary,
        running=guarded.running[-1] if guarded.running and ended_early else None,
    )


def _java_argv(
    test_classes: Sequence[str],
    classpath: Sequence[str],
    launcher: ToolChoice,
    reports: Path,
    config: Mapping[str, str],
    conditions: RunConditions,
    settings: ValidationSettings,
    jvm_options: Sequence[str],
    exclude_methods: Sequence[str],
) -> list[str]:
    language, _, country = conditions.locale.replace("_", "-").partition("-")
    jvm = [
        "java",
        f"-Xmx{settings.max_heap}",
        # Java `assert`s on, as Maven Surefire and Gradle run tests: a test expecting an AssertionError passes.
        "-ea",
        f"-Duser.timezone={conditions.timezone}",
        f"-Duser.language={language}",
        f"-Duser.country={country}",
        f"-Dfile.encoding={conditions.charset}",
        "-Djava.awt.headless=true",
        *jvm_options,
        "-jar",
        str(launcher.path),
    ]
    launcher_options = [
        # Since 1.10 the options belong to the `execute` command; 6.x no longer takes them without it.
        *(["execute"] if _has_execute_command(launcher.version) else []),
        "--disable-banner",
        "--disable-ansi-colors",
        "--details=none",
        "--include-engine=junit-jupiter",
        # The default filter drops classes not named *Test/*Tests; the selection is already explicit.
        "--include-classname=.*",
        f"--reports-dir={reports}",
        # One option per entry: a long joined classpath could pass the kernel's 128 KiB limit per argument.
        *(f"--class-path={entry}" for entry in classpath if not is_console_launcher(entry)),
        *(_selector(name) for name in test_classes),
        # Matched against "class#method" without parameters: every overload and invocation of the method.
        *(f"--exclude-methodname={re.escape(name)}" for name in exclude_methods),
        *(f"--config={key}={value}" for key, value in config.items()),
    ]
    return [*jvm, *launcher_options]


def _has_execute_command(version: str | None) -> bool:
    """Whether a launcher of this version has the `execute` command (1.10 and later; unknown: assume not)."""
    return _launcher_at_least(version, (1, 10))


def _launcher_at_least(version: str | None, minimum: tuple[int, int]) -> bool:
    """Whether a launcher's version ("1.14.4", "6.1.3") is `minimum` or later; unknown: assume not."""
    parts = [int(p) for p in (version or "").split(".")[:2] if p.isdigit()]
    return len(parts) == 2 and tuple(parts) >= minimum


def _selector(name: str) -> str:
    return f"--select-method={name}" if "#" in name else f"--select-class={name}"


def _junit_config(conditions: RunConditions, settings: ValidationSettings) -> dict[str, str]:
    seconds = settings.class_timeout_s
    # JUnit accepts whole numbers only; milliseconds keep fractional settings.
    timeout = f"{int(seconds)} s" if seconds == int(seconds) else f"{max(1, round(seconds * 1000))} ms"
    config = {
        "junit.jupiter.execution.timeout.default": timeout,
        "junit.jupiter.execution.timeout.thread.mode.default": "SEPARATE_THREAD",
    }
    return config | _ORDERERS.get(conditions.order, {}) | (
        {"junit.jupiter.execution.order.random.seed": str(conditions.order_seed)}
        if conditions.order == "random" and conditions.order_seed is not None else {})


_ORDERERS: dict[str, dict[str, str]] = {
    "name": {"junit.jupiter.testmethod.order.default": "org.junit.jupiter.api.MethodOrderer$MethodName",
             "junit.jupiter.testclass.order.default": "org.junit.jupiter.api.ClassOrderer$ClassName"},
    "reversed": {"junit.jupiter.testmethod.order.default": "ReversedMethodOrder",
                 "junit.jupiter.testclass.order.default": "ReversedClassOrder"},
    "random": {"junit.jupiter.testmethod.order.default": "org.junit.jupiter.api.MethodOrderer$Random",
               "junit.jupiter.testclass.order.default": "org.junit.jupiter.api.ClassOrderer$Random"},
}


def orderer_classes(classpath: Sequence[str], cache_dir: Path) -> list[str]:
    """junitbot's reverse-order method and class orderers, compiled against the Jupiter API on `classpath`
    (the class orderer needs Jupiter 5.8; with an older one only the methods are reversed)."""
    jars = [Path(entry) for entry in classpath]
    folders = [str(compiled_helper("ReversedMethodOrder", classpath=jars, cache_dir=cache_dir,
                                   folder_prefix="reversed-method-order"))]
    try:
        folders.append(str(compiled_helper("ReversedClassOrder", classpath=jars, cache_dir=cache_dir,
                                           folder_prefix="reversed-class-order")))
    except JunitbotError as e:
        log.info("test classes keep their order in the reversed run: %s", e)
    return folders


_NOT_MIRRORED = frozenset({"target", "build", ".git", ".junitbot", ".gradle", ".idea"})


def _mirror(basedir: Path, workdir: Path) -> None:
    """Link the module's entries (`src`, `pom.xml`, ...) into the working directory, so relative paths read as
    under Surefire while writes stay in the working directory (the guard resolves links: writing through one is
    writing outside). Build output and state are left out; an entry already there is left alone."""
    for entry in sorted(basedir.iterdir()) if basedir.is_dir() else ():
        link = workdir / entry.name
        if entry.name in _NOT_MIRRORED or link.exists() or link.is_symlink() or workdir.is_relative_to(entry):
            continue
        link.symlink_to(entry.resolve(), target_is_directory=entry.is_dir())


def _agent_paths(java_agent_option: str | None, workdir: Path) -> tuple[list[Path], list[Path]]:
    """([the agent jar], [its JaCoCo-style destfile]) of `-javaagent:<jar>[=options]`, to bind in the sandbox.

    The jar ends at the first '=', exactly as the JVM reads it. A destfile outside `workdir` is
    created empty so that only that file, not its folder, is bound writable; without it, the agent
    cannot open its output under bwrap and the JVM aborts at startup.
    """
    if not java_agent_option or not java_agent_option.startswith("-javaagent:"):
        return [], []
    jar, _, options = java_agent_option.removeprefix("-javaagent:").partition("=")
    outputs = []
    for option in options.split(","):
        key, _, value = option.partition("=")
        output = workdir / value  # a relative destfile is relative to the JVM's working directory
        if key == "destfile" and value and not output.is_relative_to(workdir):
            output.parent.mkdir(parents=True, exist_ok=True)
            output.touch()
            outputs.append(output)
    return [Path(jar)], outputs


def jvm_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """Only what a JVM running the repository's tests needs: they never see tokens or other secrets of the
    runner, nor JVM options a runner's variables would slip in."""
    return {key: value for key, value in environ.items()
            if (key in _PASSED_VARIABLES or key.startswith("LC_")) and key not in _JVM_OPTION_VARIABLES}


def _cases(
    test_classes: Sequence[str], report: Path, result: ProcessResult, settings: ValidationSettings, guarded: GuardLog,
) -> list[TestCaseResult]:
    cases: list[TestCaseResult] = []
    reason: str | None = None
    try:
        cases = _with_refusals(parse_junit_xml(report.read_bytes()), guarded)
    except FileNotFoundError:
        reason = _early_exit_reason(result, settings, guarded.running[-1] if guarded.running else None)
    except JunitbotError as e:
        reason = f"{e} (exit code {result.exit_code})"
    if reason is None and (result.timed_out or _discovery_failed(result)):
        reason = _early_exit_reason(result, settings, None)
    status: TestStatus = "timeout" if result.timed_out else "error"
    for name in test_classes:
        test_class, _, method = name.partition("#")
        if not any(_belongs(case, test_class, method) for case in cases):
            message = reason or ("no such test method" if method else "JUnit found no test methods in this class")
            cases.append(
                TestCaseResult(
                    test_class=test_class,
                    method=method.partition("(")[0] or WHOLE_CLASS,
                    status=status if reason else "error",
                    message=message,
                )
            )
    return cases


def _belongs(case: TestCaseResult, test_class: str, method: str) -> bool:
    """Whether `case` is a result of selecting `test_class` (nested classes included) or that method."""
    if method:
        return case.test_class == test_class and case.method == method.partition("(")[0]
    return case.test_class == test_class or case.test_class.startswith(test_class + "$")


def _discovery_failed(result: ProcessResult) -> bool:
    return any(marker in result.stdout or marker in result.stderr for marker in _DISCOVERY_FAILED)


def _with_refusals(cases: Sequence[TestCaseResult], guarded: GuardLog) -> list[TestCaseResult]:
    """`cases` with each case of a test that tried something the guard refused "refused", saying what it tried,
    whatever JUnit said (a test may catch the SecurityException and pass). What a class tried itself (@BeforeAll,
    construction) is tried by each of its cases."""
    tried: dict[str, list[str]] = {}
    for attempt in guarded.attempts:
        if not attempt.owner:
            log.warning("the test JVM's guard refused something outside any test: %s", attempt.describe())
        said = tried.setdefault(attempt.owner, [])
        if attempt.describe() not in said:
            said.append(attempt.describe())
    refused = []
    for case in cases:
        why = tried.get(f"{case.test_class}#{case.method}") or tried.get(case.test_class)
        refused.append(case.model_copy(update={"status": "refused", "message": "; ".join(why)[:_MESSAGE_CHARS]})
                       if why else case)
    return refused


def _early_exit_reason(result: ProcessResult, settings: ValidationSettings, running: str | None) -> str:
    """Why the JVM left no report: it could not start, ran past the batch timeout, ran out of memory, failed
    discovery, or died (with the test the guard saw running, when it did)."""
    during = f" while {running} ran" if running else ""
    if result.timed_out:
        return (
            f"the test JVM ran past the batch timeout ({settings.batch_timeout_s:g} s) and was killed{during} "
            "before this class reported; a constructor or static initializer may hang"
        )
    output = result.stderr + result.stdout
    if any(marker in output for marker in _START_FAILED):
        said = [line.strip() for line in output.splitlines() if line.strip() and not _START_NOISE.match(line.strip())]
        return f"the test JVM could not start: {said[0][:300] if said else output.strip()[:300]}"
    hints = _EXCEPTION_LINE.findall(output)
    last = f"; last error: {hints[-1].strip()[:300]}" if hints else ""
    if _discovery_failed(result):
        return f"JUnit could not discover the selected tests, so none ran{last}"
    how = f"was killed by signal {-result.exit_code}" if result.exit_code < 0 else f"exited with {result.exit_code}"
    crash = _CRASH.search(output)
    if crash:
        return f"the test JVM crashed{during} ({crash.group(1).partition(' at pc=')[0].strip()[:200]}) and {how}"
    if "java.lang.OutOfMemoryError" in output:
        return (f"the test JVM ran out of memory (java.lang.OutOfMemoryError; its heap is -Xmx{settings.max_heap}, "
                f"validation.max_heap) and {how}{during} before writing its report{last}")
    return (
        f"the test JVM {how}{during} before writing its report (a test called System.exit(), the JVM crashed, "
        f"or discovery failed){last}; run the classes one at a time to find the cause"
    )

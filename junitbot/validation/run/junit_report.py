"""What a JUnit run left, read: its legacy XML report as cases, and why a JVM that left none ended (pure).

Every selected class gets cases: its tests' results, or one `WHOLE_CLASS` case saying why there are none (the JVM
could not start, crashed, ran out of memory or time, discovery failed). Under the recording guard (guard.py), each
case of a test that tried what the guard refuses is "refused", with what it tried as the message.
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.process import ProcessResult
from junitbot.validation.run.models import WHOLE_CLASS, GuardLog, TestCaseResult, TestStatus

log = logging.getLogger(__name__)

_MESSAGE_CHARS = 2000
_DETAIL_CHARS = 20_000
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
# HotSpot's crash banner; the line after the blank "#" says what (e.g. "SIGSEGV (0xb) at pc=...").
_CRASH = re.compile(r"A fatal error has been detected by the Java Runtime Environment:\s*#\s*#\s*(.+)")


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


def run_cases(
    test_classes: Sequence[str], report: Path, result: ProcessResult, settings: ValidationSettings, guarded: GuardLog,
) -> list[TestCaseResult]:
    """The cases of a run that selected `test_classes`: the report's (refusals applied), and one `WHOLE_CLASS` case
    for each selected class (or method) without any, saying why."""
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

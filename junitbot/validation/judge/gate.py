"""The build gate: kept tests must also pass in the project's own build, `mvn test` run as its CI would.

junitbot's own runner (javac, the sandboxed JUnit launcher, JaCoCo) is not the build: surefire sets other
system properties, the build's test resources and compiler flags apply, plugins run. So the tests it kept
run once more, in a scratch copy of the work tree under the state directory (the user's tree is never
touched, whether the run is dry or interrupted):

    mvn -q -B -o -pl <modules> -am -Dtest=<classes> -Dsurefire.failIfNoSpecifiedTests=false <skips> test

`-am` builds the modules' in-reactor dependencies; `-Dtest` limits surefire to the generated classes, so
the siblings run none. Offline first; when something is missing locally, once online. A method that fails
in the build is removed and its class runs again (at most `_MAX_RUNS` Maven runs in all); a class that does
not compile loses the methods the compiler's errors lie in, or else the whole class. A build that fails for
reasons of its own (resolution, main code, enforcer, timeout) drops nothing: the result says why.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from junitbot.analysis import module_of as build_module_of
from junitbot.analysis import parse_test_class, remove_methods
from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.state import StateDir
from junitbot.validation.build.jdk import java_home_for, maven_invocation
from junitbot.validation.build.maven import maven_command
from junitbot.validation.build.maven_classpath import SKIP_FLAGS, maven_repo_flag
from junitbot.validation.build.maven_log import CompilerError, compiler_errors, error_lines, missing_offline
from junitbot.validation.build.models import MavenChoice
from junitbot.validation.build.poms import build_jdk, read_modules
from junitbot.validation.build.scratch_tree import copy_work_tree
from junitbot.validation.candidates import safe_test_path, test_class_name
from junitbot.validation.judge.models import GateClass, GateResult, MethodVerdict
from junitbot.validation.models import TestCandidate
from junitbot.validation.process import ProcessResult, run_process
from junitbot.validation.run.junit_report import parse_junit_xml
from junitbot.validation.run.models import TestCaseResult
from junitbot.validation.run.sandbox import detect_isolation, sandboxed

logger = logging.getLogger(__name__)

# The first run judges, the second checks what is left of a class after its failing methods went; a third
# is for classes a compile error kept from running at all in the first.
_MAX_RUNS = 3
# Checks that say nothing about whether a test passes and cost time, or need what a runner may lack. The
# enforcer stays: a build it refuses (wrong Maven or Java) is one CI would refuse too.
SKIPPED_CHECKS = SKIP_FLAGS  # the same checks a classpath run skips
# What Maven and the JVMs it forks need from the environment; tokens and other secrets of the runner stay out.
_PASSED_VARIABLES = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM", "JAVA_HOME", "MAVEN_OPTS",
    "MAVEN_ARGS", "M2_HOME", "MAVEN_HOME", "MAVEN_USER_HOME", "http_proxy", "https_proxy", "no_proxy",
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"})
_FAILED = ("failed", "error", "timeout")

Status = Literal["pending", "passed", "dropped", "unjudged"]


@dataclass
class _Class:
    """One test class on its way through the gate (a model only once it leaves: `GateClass`)."""

    path: str
    test_class: str
    module: str
    source: str
    status: Status = "pending"
    dropped: list[MethodVerdict] = field(default_factory=list)
    reason: str | None = None
    edited: bool = False  # methods removed since its last run: it must run again


@dataclass
class _Build:
    """The Maven runs of one gate call: where, with which Maven and isolation, offline until it must not be."""

    maven: MavenChoice
    work: Path
    settings: ValidationSettings
    isolation: str
    readable: tuple[Path, ...]
    online: str | None = None
    runs: int = 0
    argv: tuple[str, ...] = ()

    def test(self, batch: Sequence[_Class]) -> ProcessResult:
        """One `mvn test` over `batch`; online once when offline lacks something (remembered for later runs)."""
        for module in {c.module for c in batch}:
            shutil.rmtree(self.work / module / "target" / "surefire-reports", ignore_errors=True)
        result = self._run(batch, offline=self.online is None)
        missing = None if result.ok or self.online is not None else missing_offline(_output(result))
        if missing is not None:
            logger.info("build gate: offline Maven lacks something (%s); running online once", missing)
            self.online = missing
            result = self._run(batch, offline=False)
        return result

    def _run(self, batch: Sequence[_Class], *, offline: bool) -> ProcessResult:
        modules = sorted({c.module for c in batch})
        argv = maven_test_argv(self.maven, modules, [c.test_class for c in batch], settings=self.settings,
                               offline=offline)
        local = [self.settings.maven_repo_local.expanduser().absolute()] if self.settings.maven_repo_local else []
        # Offline, Maven only reads its local repository; online it must write there (and the wrapper its Maven).
        writable = [] if offline else [Path.home() / ".m2", *local]
        for folder in writable:
            folder.mkdir(parents=True, exist_ok=True)  # a sandbox binds only what exists
        wrapped = sandboxed(argv, workdir=self.work, isolation=self.isolation, readable=[*self.readable, *local],
                            writable=writable, network="none" if offline else "host")
        self.runs += 1
        self.argv = tuple(argv)
        return run_process(wrapped, cwd=self.work, timeout_s=self.settings.batch_timeout_s,
                           env=_environment(os.environ), max_output_bytes=self.settings.max_output_bytes)


def module_of(root: Path, path: str) -> str:
    """The Maven module a repo-relative path belongs to: its nearest ancestor folder with a build file under
    `root` ('' for the root, also when no folder has one)."""
    return build_module_of(root, PurePosixPath(path).parent.as_posix())[0]


def maven_test_argv(maven: MavenChoice, modules: Sequence[str], test_classes: Sequence[str], *,
                    settings: ValidationSettings, offline: bool) -> list[str]:
    """The gate's Maven command line: the modules (`.` for the root) and what they need, only `test_classes`."""
    local = maven_repo_flag(settings)
    return [*maven.command, "-q", "-B", *(["-o"] if offline else []), "-pl", ",".join(m or "." for m in modules),
            "-am", f"-Dtest={','.join(test_classes)}", "-Dsurefire.failIfNoSpecifiedTests=false", *SKIPPED_CHECKS,
            "-Dsurefire.printSummary=false", "-DtrimStackTrace=false", *local, "test"]


def gate_tests(root: Path, candidates: Sequence[TestCandidate], *, settings: ValidationSettings,
               state: StateDir) -> GateResult:
    """Run the kept test classes `candidates` (their sources as kept) in the project's own Maven build.

    The copy lives in `state.gate`; Maven 3.9 may be fetched into `state.tools`. Never raises for what the
    build does: a build that cannot run or fails for its own reasons is a result that judged nothing.
    """
    started = time.monotonic()
    if not candidates:
        return GateResult(ran=False, judged=False, why="no kept tests to judge")
    work = state.gate / "work"
    try:
        state.ensure()  # its .gitignore keeps the scratch copy out of the user's `git status`
        copy_work_tree(root, work, skip=(state.root,))
        maven = maven_command(work, tools_dir=state.tools, settings=settings)
        java_home = java_home_for(build_jdk(read_modules(work)))
        maven = maven.model_copy(update={"command": tuple(maven_invocation(maven.command, java_home))})
        build = _Build(maven=maven, work=work,
                       settings=settings, isolation=detect_isolation(settings.isolation), readable=(state.tools,))
        classes = [_Class(path=c.path, test_class=test_class_name(c), module=module_of(work, c.path), source=c.source)
                   for c in candidates]
        why, errors = _judge_all(build, classes)
    except JunitbotError as e:
        return GateResult(ran=False, judged=False, why=f"the build could not run: {e}",
                          seconds=round(time.monotonic() - started, 3))
    result = GateResult(
        ran=True, judged=any(c.status in ("passed", "dropped") for c in classes), why=why,
        classes=tuple(_gate_class(c) for c in classes), command=build.argv, maven=build.maven,
        isolation=build.isolation, online=build.online, runs=build.runs, errors=errors,
        seconds=round(time.monotonic() - started, 3))
    logger.info("build gate (%s, %d runs, %.1f s): %s", result.runner, result.runs, result.seconds,
                why or f"{sum(len(c.dropped) for c in result.classes)} methods dropped")
    return result


def _judge_all(build: _Build, classes: Sequence[_Class]) -> tuple[str | None, tuple[str, ...]]:
    """Run the pending classes until the build passes them or the runs are spent; why it judged nothing, if so."""
    runner = f"mvn test ({build.maven.label})"
    for _ in range(_MAX_RUNS):
        batch = [c for c in classes if c.status == "pending"]
        if not batch:
            break
        for c in batch:
            target = build.work / safe_test_path(c.path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(c.source, encoding="utf-8")
            c.edited = False
        result = build.test(batch)
        why = _judge(batch, result, build.work, runner)
        if why is not None:
            _settle(classes, why)
            return why, error_lines(_output(result))
    _settle(classes, None, runs=build.runs)
    return None, ()


def _judge(batch: Sequence[_Class], result: ProcessResult, work: Path, runner: str) -> str | None:
    """Apply one run's verdicts to `batch`; the reason when the run says nothing about the tests."""
    if result.timed_out:
        return f"Maven timed out after {result.seconds:.0f} s (validation.batch_timeout_s)"
    by_path = {c.path: c for c in batch}
    ours: dict[str, list[CompilerError]] = {}
    for error in compiler_errors(_output(result)):
        path = _relative(error.file, work)
        if path not in by_path:
            return f"{path or error.file}:{error.line} does not compile: {error.message}"
        ours.setdefault(path, []).append(error)
    cases = _report_cases(work, {c.module for c in batch})
    if not result.ok and not ours and not any(_failures(cases.get(c.test_class, ())) for c in batch):
        return "Maven failed, but not in the generated tests"
    for c in batch:
        if c.path in ours:
            _drop_uncompiled(c, ours[c.path], runner)
        elif c.test_class in cases:
            _drop_failed(c, cases[c.test_class], runner)
        elif result.ok:
            c.status, c.reason = "unjudged", "the build ran none of its tests (does its surefire see them?)"
    return None


def _drop_uncompiled(c: _Class, errors: Sequence[CompilerError], runner: str) -> None:
    """Remove the test methods the compiler's errors lie in; an error elsewhere drops the class."""
    parsed = parse_test_class(c.source)
    found: dict[str, str] = {}
    for error in errors:
        test = parsed.test_at(error.line)
        if test is None:
            _drop_class(c, f"does not compile in {runner}: line {error.line}: {error.message}")
            return
        found.setdefault(test, f"does not compile in {runner}: line {error.line}: {error.message}")
    _remove(c, found)


def _drop_failed(c: _Class, cases: Sequence[TestCaseResult], runner: str) -> None:
    """Remove the methods that failed; a failure that names no test method (a class-level one) drops the class."""
    failures = _failures(cases)
    if not failures:
        c.status = "passed"
        return
    if not set(failures) <= set(parse_test_class(c.source).test_names):
        _drop_class(c, f"failed in {runner}: {next(iter(failures.values()))}")
        return
    _remove(c, {name: f"failed in {runner}: {message}" for name, message in failures.items()})


def _remove(c: _Class, reasons: Mapping[str, str]) -> None:
    c.dropped += [MethodVerdict(name=name, kept=False, reason=why[:500]) for name, why in reasons.items()]
    c.source = remove_methods(c.source, set(reasons))
    if not parse_test_class(c.source).test_names:
        c.status, c.reason = "dropped", "the build failed every test method"
    else:
        c.status, c.edited = "pending", True


def _drop_class(c: _Class, reason: str) -> None:
    c.status, c.reason = "dropped", reason[:500]


def _settle(classes: Iterable[_Class], why: str | None, *, runs: int = 0) -> None:
    """After the last run: a class edited since its run is not checked (dropped); one never reached is unjudged."""
    for c in classes:
        if c.status != "pending":
            continue
        if c.edited and why is None:
            _drop_class(c, f"still failing after {runs} runs of the build; what is left was not checked")
        else:
            c.status, c.reason = "unjudged", why or f"the build did not reach it in {runs} runs"


def _failures(cases: Iterable[TestCaseResult]) -> dict[str, str]:
    """Failing methods and the first message of each (a parameterized test fails once per invocation)."""
    failures: dict[str, str] = {}
    for case in cases:
        if case.status in _FAILED:
            failures.setdefault(case.method, case.message or case.status)
    return failures


def _report_cases(work: Path, modules: Iterable[str]) -> dict[str, list[TestCaseResult]]:
    """Surefire's results per top-level test class (a nested class's cases count for its outer class)."""
    cases: dict[str, list[TestCaseResult]] = {}
    for module in modules:
        for report in sorted((work / module / "target" / "surefire-reports").glob("TEST-*.xml")):
            try:
                parsed = parse_junit_xml(report.read_bytes())
            except (OSError, JunitbotError) as e:
                logger.warning("build gate: unreadable surefire report %s: %s", report, e)
                continue
            for case in parsed:
                cases.setdefault(case.test_class.split("$")[0], []).append(case)
    return cases


def _gate_class(c: _Class) -> GateClass:
    kept = c.status != "dropped"
    return GateClass(path=c.path, test_class=c.test_class, module=c.module, judged=c.status in ("passed", "dropped"),
                     kept=kept, dropped=tuple(c.dropped), reason=c.reason, source=c.source if kept else None)


def _relative(file: str, work: Path) -> str | None:
    """A path Maven printed, relative to the scratch copy (None: outside it)."""
    try:
        return Path(file).resolve().relative_to(work.resolve()).as_posix()
    except ValueError:
        return None


def _output(result: ProcessResult) -> str:
    return f"{result.stdout}\n{result.stderr}"


def _environment(environ: Mapping[str, str]) -> dict[str, str]:
    return {key: value for key, value in environ.items() if key in _PASSED_VARIABLES or key.startswith("LC_")}

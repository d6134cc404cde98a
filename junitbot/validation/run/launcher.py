"""Run test classes in one JUnit Platform console launcher JVM; its report is read by junit_report.py.

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

Guarded runs (`JvmLaunch.guard`, guard.py) refuse what a test must not do in the test itself, so System.exit fails
one test instead of ending the JVM; such a test's cases are "refused", with what it tried as the message.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.build.class_data import launcher_archive_options
from junitbot.validation.build.helpers import compiled_helper, helper_cache
from junitbot.validation.build.jdk import QUICK_JVM_OPTIONS, SELF_ATTACH, java_tool, java_version
from junitbot.validation.build.models import ToolChoice
from junitbot.validation.build.tool_choice import choose_launcher, is_console_launcher
from junitbot.validation.process import run_process
from junitbot.validation.run.guard import guard_config, guard_folder, guard_jvm_options, read_guard_log
from junitbot.validation.run.junit_report import run_cases
from junitbot.validation.run.models import GuardLog, JvmLaunch, RunConditions, TestRunResult
from junitbot.validation.run.sandbox import sandboxed

log = logging.getLogger(__name__)
_REPORT = "TEST-junit-jupiter.xml"
_TAIL_CHARS = 4000
# Variables through which a runner's JVM options would leak into test runs and change their outcome.
_JVM_OPTION_VARIABLES = ("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS")
_PASSED_VARIABLES = frozenset({"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "JAVA_HOME",
                               "TERM"})
# Later repetitions vary what unit tests most often depend on by accident: order, zone, locale, charset.
_TIMEZONES = ("Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu")
_LOCALES = ("de-DE", "tr-TR", "ja-JP")
_CHARSETS = ("ISO-8859-1", "UTF-8")
_GUARD_LOG = "guard.log"
# What JDK 17 to 23 print when the guard installs its SecurityManager: noise in a run's output.
_SECURITY_MANAGER_WARNING = re.compile(
    r"^WARNING: A terminally deprecated method in java\.lang\.System has been called\n"
    r"(?:WARNING: .*(?:setSecurityManager|SandboxGuard).*\n)*", re.MULTILINE)


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


def run_junit(
    *,
    test_classes: Sequence[str],
    classpath: Sequence[str],
    workdir: Path,
    conditions: RunConditions,
    launch: JvmLaunch,
    exclude_methods: Sequence[str] = (),
) -> TestRunResult:
    """Run `test_classes` ("com.acme.FooTest", or "com.acme.FooTest#method") on `classpath` in one sandboxed JVM
    working in `workdir`, launched as `launch` says. Every selected class gets cases: its tests' results, or one
    `WHOLE_CLASS` case saying why there are none; under the guard a JVM that dies early names the test that ran
    (`TestRunResult.running`). `exclude_methods`: "com.acme.FooTest#method"s not to run (launcher 1.10 or later).
    """
    if not test_classes:
        raise JunitbotError("run_junit: no test classes selected")
    settings = launch.settings
    workdir.mkdir(parents=True, exist_ok=True)
    # The JVM runs in `workdir`: relative paths of the caller would point elsewhere there.
    workdir = workdir.resolve()
    classpath = [str(Path(entry).absolute()) for entry in classpath]
    launcher = choose_launcher(classpath, tools_dir=launch.tools_dir, settings=settings)
    if exclude_methods and not _launcher_at_least(launcher.version, (1, 10)):
        raise JunitbotError(f"{launcher.summary} cannot leave test methods out (1.10 and later can)")
    cache = helper_cache(launch.tools_dir or workdir)
    if conditions.order == "reversed":
        classpath = [*classpath, *orderer_classes([*classpath, str(launcher.path)], cache)]
    # The run's own folder: JUnit's report and, when guarded, the guard's log and the tests' java.io.tmpdir.
    reports = Path(tempfile.mkdtemp(prefix="junit-reports-", dir=workdir))
    try:
        agent_jar, agent_output = _agent_paths(launch.agent, workdir)
        for extra in launch.agents:
            for written in extra.writes:
                written.parent.mkdir(parents=True, exist_ok=True)
                written.touch()  # bound by itself: only that file is writable
            agent_jar += [extra.jar, *extra.reads]
            agent_output += list(extra.writes)
        config = _junit_config(conditions, settings)
        jvm_options: list[str] = []
        if launch.basedir is not None:
            _mirror(launch.basedir, workdir)
            jvm_options.append(f"-Dbasedir={launch.basedir.resolve()}")
        if launch.guard:
            classpath = [*classpath, str(guard_folder(launcher.path, cache_dir=cache))]
            (reports / "tmp").mkdir()
            jvm_options += guard_jvm_options(java_version(launch.java_home), tmpdir=reports / "tmp")
            config |= guard_config(reports / _GUARD_LOG, [workdir, *launch.writable, *agent_output],
                                   out_of_memory_extension=_launcher_at_least(launcher.version, (1, 11)))
        config |= launch.junit_config
        agents = [*([launch.agent] if launch.agent else []), *(extra.option for extra in launch.agents)]
        java = [*_jvm_argv(launcher, conditions, settings, [*jvm_options, *agents]),
                *_launcher_options(launcher, reports=reports, classpath=classpath, test_classes=test_classes,
                                   exclude_methods=exclude_methods, config=config)]
        java[0] = java_tool(launch.java_home, "java")
        java[1:1] = launcher_archive_options(launch.java_home, launcher.path,
                                             execute=_has_execute_command(launcher.version))
        readable = [launcher.path, *(Path(entry) for entry in classpath), *agent_jar,
                    *([launch.basedir] if launch.basedir is not None else [])]
        argv = sandboxed(java, workdir=workdir, isolation=launch.isolation, readable=readable,
                         writable=[*launch.writable, *agent_output])
        result = run_process(
            argv,
            cwd=workdir,
            timeout_s=settings.batch_timeout_s,
            env=jvm_environment(os.environ),
            max_output_bytes=settings.max_output_bytes,
        )
        guarded = read_guard_log(reports / _GUARD_LOG) if launch.guard else GuardLog(guarded=False)
        cases = run_cases(test_classes, reports / _REPORT, result, settings, guarded)
        ended_early = not (reports / _REPORT).is_file()
    finally:
        shutil.rmtree(reports, ignore_errors=True)
    if launch.guard and not guarded.guarded:
        log.info("test run not guarded: %s", guarded.note or "the guard did not start")
    output = _SECURITY_MANAGER_WARNING.sub("", result.stdout + result.stderr).strip()
    return TestRunResult(
        conditions=conditions,
        cases=tuple(cases),
        exit_code=None if result.timed_out else result.exit_code,
        timed_out=result.timed_out,
        output_tail=output[-_TAIL_CHARS:],
        isolation=launch.isolation,
        seconds=result.seconds,
        launcher=launcher.summary,
        running=guarded.running[-1] if guarded.running and ended_early else None,
    )


def _jvm_argv(
    launcher: ToolChoice, conditions: RunConditions, settings: ValidationSettings, jvm_options: Sequence[str]
) -> list[str]:
    """The JVM's part of the command line: heap, assertions, the run's zone, locale and charset, then the launcher."""
    language, _, country = conditions.locale.replace("_", "-").partition("-")
    return [
        "java",
        f"-Xmx{settings.max_heap}",
        # Java `assert`s on, as Maven Surefire and Gradle run tests: a test expecting an AssertionError passes.
        "-ea",
        *QUICK_JVM_OPTIONS,
        SELF_ATTACH,
        f"-Duser.timezone={conditions.timezone}",
        f"-Duser.language={language}",
        f"-Duser.country={country}",
        f"-Dfile.encoding={conditions.charset}",
        "-Djava.awt.headless=true",
        *jvm_options,
        "-jar",
        str(launcher.path),
    ]


def _launcher_options(
    launcher: ToolChoice, *, reports: Path, classpath: Sequence[str], test_classes: Sequence[str],
    exclude_methods: Sequence[str], config: Mapping[str, str],
) -> list[str]:
    """The console launcher's part: the Jupiter engine, the report folder, the classpath, what to run and not."""
    return [
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
    (the class orderer needs Jupiter 5.8; with an older one only the methods are reversed).

    Compiled against the jars only: the API comes in one, and the folders (classes compiled for this run) would
    make every run's cache key new, one javac per run for nothing."""
    jars = [Path(entry) for entry in classpath if entry.endswith(".jar")]
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



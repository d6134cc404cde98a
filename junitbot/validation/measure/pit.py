"""Mutation analysis with PIT's command line: which mutants of the target classes the tests detect, and every
test that kills each one (PIT's full mutation matrix), for a keep filter that asks "kills a mutant nobody else
kills?".

PIT (the pinned pitest-command-line 1.30.1) runs in its own JVM with only its jars on `-cp`; the project's
classpath goes to its test JVMs (minions) through `--classPathFile`, with `--includeLaunchClasspath false` so
PIT's own commons-lang3 and asm never shadow the project's (PIT adds its own, relocated, jar). When the
classpath holds the JUnit Platform, the pitest-junit5-plugin jar joins it, and with it
`junit-platform-launcher` of the project's platform version (read from junit-platform-engine/commons jar
names; fetched once into the tools cache) unless the classpath has a launcher already; without the platform,
PIT's built-in JUnit 4 support runs the tests. Mutators: PIT's DEFAULTS group (in 1.30.1: INVERT_NEGS, MATH,
VOID_METHOD_CALLS, REMOVE_CONDITIONALS_ORDER_ELSE, REMOVE_CONDITIONALS_EQUAL_ELSE, CONDITIONALS_BOUNDARY,
INCREMENTS and the RETURNS group). Tests failing without any mutant are skipped rather than failing the run.
It runs sandboxed like the JUnit runs (no network; PIT talks to its minions over the sandbox's own loopback);
its report is read by pit_report.py.

History: PIT 1.23 moved `--historyInputLocation` into a separate plugin that Maven Central does not serve (PIT
1.30.1 with those options only fails: "no history plugin has been installed"), so the history is junitbot's
own: `history_file` keeps each target class's mutants (unfiltered) with a fingerprint of what decides them:
every class file and resource of the classpath's folders, each jar's path, size and time, the selected tests,
PIT's options, tools and JVM. A class whose fingerprint matches is not run again; a run where every class
matches starts no JVM. The fingerprint is exact, not PIT's old approximation (a class reused while classes it
calls changed): any change on the classpath re-runs every class.

Time: a run may take `budget_s`, by default `validation.mutation_budget_s_per_class` times the classes it
runs plus a start-up allowance. PIT writes mutations.xml only when it finishes, so a run stopped at the limit
has measured nothing: the report says so (`timed_out`, `error`) and keeps only what came from the history.
A mutant's own tests stop at PIT's timeout (4 s plus twice the test's normal time) and count as TIMED_OUT.

`changed_lines` (class -> source lines, a nested class under its own or its top-level class's name) keeps
only mutants on those lines; PIT 1.30 has no line filter, so classes without changed lines are not run at all
and the rest are filtered after the run (the history keeps them whole, so another push's lines reuse it).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import tempfile
import time
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from junitbot.atomic import write_atomically
from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError, ToolUnavailableError
from junitbot.records import Record
from junitbot.validation.build.frameworks import jar_version
from junitbot.validation.build.jdk import (
    QUICK_JVM_OPTIONS,
    SELF_ATTACH,
    default_jdk_version,
    java_tool,
    jdk_version,
)
from junitbot.validation.build.models import Tool
from junitbot.validation.build.tool_choice import is_console_launcher
from junitbot.validation.build.tool_specs import PLATFORM_LAUNCHER
from junitbot.validation.build.tools import ensure_pit
from junitbot.validation.measure.models import Mutant, MutationReport, PitOptions
from junitbot.validation.measure.pit_report import parse_mutations_xml
from junitbot.validation.process import ProcessResult, run_process
from junitbot.validation.run.launcher import jvm_environment
from junitbot.validation.run.sandbox import detect_isolation, sandboxed

logger = logging.getLogger(__name__)

_MAIN = "org.pitest.mutationtest.commandline.MutationCoverageReport"
_JUNIT5_PLUGIN = "pitest-junit5-plugin"
_PLATFORM_JARS = ("junit-platform-engine", "junit-platform-commons")
_REPORT = "mutations.xml"
_MUTATORS = "DEFAULTS"
_TIMEOUT_CONST_MS = 4000
_TIMEOUT_FACTOR = 2.0
_STARTUP_S = 30.0  # PIT's JVM, a coverage minion and the first mutation minion, on a loaded runner
_MESSAGE_CHARS = 600
_PIT_ERROR = re.compile(r"(org\.pitest\.[\w.$]*(?:Error|Exception)): ?(.*)")
_SEVERE = re.compile(r"PIT >> SEVERE : (.+)")
_NO_MUTATIONS = "no mutations found"
_MINION_DIED = "minion exited abnormally"


def run_mutation_analysis(
    *,
    target_classes: Sequence[str],
    test_classes: Sequence[str],
    classpath: Sequence[str],
    workdir: Path,
    settings: ValidationSettings,
    options: PitOptions,
) -> MutationReport:
    """Mutate `target_classes` (binary names; their nested classes too) and run `test_classes` against each mutant.

    `classpath`: the compiled main and test classes and the test-scope jars; `options`: PIT's tools, JDK, isolation,
    history, budget and the lines that count. PIT failing, or stopped at the limit, gives a report with `error`
    set, never an exception; only a missing tool raises (ToolUnavailableError).
    """
    started = time.monotonic()
    changed_lines, history_file = options.changed_lines, options.history_file
    targets = _targets(target_classes, changed_lines)
    classpath = [str(Path(entry).absolute()) for entry in classpath]
    present = [name for name in targets if _class_file(name, classpath) is not None]
    problem = _nothing_to_run(targets, present, test_classes)
    if not targets or problem:
        return MutationReport(error=problem, seconds=_since(started))
    try:
        run = _pit_run(test_classes, classpath, settings=settings, options=options)
    except ToolUnavailableError:
        raise
    except JunitbotError as e:
        return MutationReport(error=str(e), seconds=_since(started))
    history = _read_history(history_file)
    fingerprint = _fingerprint(run) if history_file is not None else ""
    reused = {name: history.classes[name].mutants for name in present
              if name in history.classes and history.classes[name].fingerprint == fingerprint}
    pending = [name for name in present if name not in reused]
    measured = MutationReport()
    if pending:
        limit = (options.budget_s if options.budget_s is not None
                 else settings.mutation_budget_s_per_class * len(pending) + _STARTUP_S)
        measured = _run_pit(run, pending, workdir=workdir, timeout_s=limit, isolation=options.isolation)
        if measured.error is None and history_file is not None:
            _write_history(history_file, history, _by_target(measured.mutants, pending), fingerprint)
    mutants = [*(m for name in present if name in reused for m in reused[name]), *measured.mutants]
    return MutationReport(
        mutants=tuple(m for m in mutants if _on_changed_lines(m, changed_lines)),
        seconds=_since(started),
        timed_out=measured.timed_out,
        error=measured.error,
        analysed=tuple(pending) if measured.error is None else (),
        from_history=tuple(name for name in present if name in reused),
    )


def _nothing_to_run(targets: Sequence[str], present: Sequence[str], test_classes: Sequence[str]) -> str | None:
    """Why PIT cannot run (no tests, no class files), or None; targets without class files are left out."""
    if targets and not test_classes:
        return "no test classes to run against the mutants"
    if targets and not present:
        return f"no class file on the classpath for {', '.join(targets)}"
    if len(present) < len(targets):
        logger.warning("no class file for %s: left out of mutation analysis",
                       ", ".join(name for name in targets if name not in present))
    return None


def _pit_run(test_classes: Sequence[str], classpath: Sequence[str], *, settings: ValidationSettings,
             options: PitOptions) -> _PitRun:
    """PIT, the minions' classpath (with JUnit 5 support when the platform is there) and the JVM to run them."""
    platform, launcher_version = _junit_platform(classpath)
    pit, launcher = ensure_pit(launcher_version, tools_dir=options.tools_dir, settings=settings)
    java_home = options.java_home
    # Without the platform, PIT's built-in JUnit 4 support runs the tests; with it, the plugin does.
    junit5 = [*(str(jar) for jar in pit.classpath if platform and jar.name.startswith(_JUNIT5_PLUGIN)),
              *([str(launcher.path)] if launcher else [])]
    # PIT selects test classes; a `Class#method` selection runs its whole class.
    tests = tuple(dict.fromkeys(name.partition("#")[0] for name in test_classes))
    return _PitRun(tests=tests, classpath=(*classpath, *junit5), pit=pit,
                   java=java_tool(java_home, "java"),
                   jdk=jdk_version(Path(java_home)) if java_home else default_jdk_version(),
                   threads=max(1, options.threads), full_matrix=options.full_matrix,
                   excluded_methods=options.excluded_methods, settings=settings)


class _PitRun(Record):
    """What every PIT run of one analysis shares: the tests, the minions' classpath, the tools and options."""

    tests: tuple[str, ...]
    classpath: tuple[str, ...]
    pit: Tool
    java: str
    jdk: int | None
    threads: int
    full_matrix: bool
    excluded_methods: tuple[str, ...] = ()
    settings: ValidationSettings

    def options(self) -> list[str]:
        excluded = ["--excludedMethods", ",".join(self.excluded_methods)] if self.excluded_methods else []
        return [
            *excluded,
            "--targetTests", ",".join(self.tests),
            "--includeLaunchClasspath", "false",
            "--outputFormats", "XML",
            "--fullMutationMatrix", str(self.full_matrix).lower(),  # every killing test of a mutant, or the first
            "--timestampedReports", "false",
            "--exportLineCoverage", "false",
            "--mutators", _MUTATORS,
            "--threads", str(self.threads),
            "--timeoutConst", str(_TIMEOUT_CONST_MS),
            "--timeoutFactor", str(_TIMEOUT_FACTOR),
            # Assertions on, as Surefire runs the tests.
            "--jvmArgs", ",".join([f"-Xmx{self.settings.max_heap}", "-ea", *QUICK_JVM_OPTIONS, SELF_ATTACH]),
            "--skipFailingTests", "true",  # one red test of a suite costs its own kills, not the whole run
            "--failWhenNoMutations", "false",  # an interface or a constant holder has none: not an error
            "--verbose", "false",
        ]


class _Recorded(Record):
    fingerprint: str
    mutants: tuple[Mutant, ...]


class _History(Record):
    """The history file: per target class, its mutants (before any line filter) and the fingerprint they hold for."""

    format: Literal[1] = 1
    classes: dict[str, _Recorded] = Field(default_factory=dict)


def _run_pit(
    run: _PitRun, targets: Sequence[str], *, workdir: Path, timeout_s: float, isolation: str | None
) -> MutationReport:
    """One PIT JVM over `targets`: their mutants, or why there are none."""
    workdir.mkdir(parents=True, exist_ok=True)
    workdir = workdir.resolve()  # PIT runs there, and bwrap binds it by its real path
    reports = Path(tempfile.mkdtemp(prefix="pit-reports-", dir=workdir))
    try:
        classpath_file = reports / "classpath.txt"
        classpath_file.write_text("\n".join(run.classpath) + "\n", encoding="utf-8")
        argv = [run.java, *QUICK_JVM_OPTIONS, "-cp", os.pathsep.join(str(jar) for jar in run.pit.classpath), _MAIN,
                "--reportDir", str(reports), "--sourceDirs", str(reports),  # required; the XML needs no sources
                "--targetClasses", ",".join(glob for name in targets for glob in (name, f"{name}$*")),
                "--classPathFile", str(classpath_file), *run.options()]
        readable = [*run.pit.classpath, *(Path(entry) for entry in run.classpath)]
        try:
            # PIT drives its test JVMs over sockets on 127.0.0.1.
            sandbox = sandboxed(argv, workdir=workdir, isolation=isolation or detect_isolation(run.settings.isolation),
                                readable=readable, network="loopback")
            result = run_process(sandbox, cwd=workdir, timeout_s=timeout_s, env=jvm_environment(os.environ),
                                 max_output_bytes=run.settings.max_output_bytes)
        except JunitbotError as e:  # no JVM to start, no way to isolate it
            return MutationReport(error=f"cannot run PIT: {e}")
        return _outcome(result, reports / _REPORT, targets, timeout_s)
    finally:
        shutil.rmtree(reports, ignore_errors=True)


def _outcome(result: ProcessResult, report: Path, targets: Sequence[str], timeout_s: float) -> MutationReport:
    seconds = result.seconds
    if result.timed_out:
        return MutationReport(timed_out=True, seconds=seconds, error=(
            f"PIT did not finish within {timeout_s:.0f} s and was stopped; it writes its report only at the end, "
            f"so nothing was measured for {', '.join(targets)} (raise validation.mutation_budget_s_per_class, "
            "or analyse fewer classes at once)"))
    output = result.stdout + "\n" + result.stderr
    if not result.ok:
        return MutationReport(seconds=seconds, error=f"PIT failed (exit code {result.exit_code}): {_cause(output)}")
    if not report.is_file():
        if _NO_MUTATIONS in output.lower():
            return MutationReport(seconds=seconds)
        return MutationReport(seconds=seconds, error=f"PIT finished but wrote no {_REPORT}: {_cause(output)}")
    try:
        return MutationReport(mutants=tuple(parse_mutations_xml(report.read_bytes())), seconds=seconds)
    except JunitbotError as e:
        return MutationReport(seconds=seconds, error=str(e))


def _cause(output: str) -> str:
    """Why PIT failed, in a line: the error that ended its main thread (PitHelpError says what to do), else its
    first SEVERE log line, else its last lines."""
    lines = output.splitlines()
    errors = [match for line in lines if (match := _PIT_ERROR.search(line))
              and match.group(2).strip() not in ("", "null")]
    fatal = [match for match in errors if "in thread \"main\"" in match.string]
    severe = _SEVERE.search(output)
    if fatal or errors:
        match = (fatal or errors)[0]
        cause = f"{match.group(1).rpartition('.')[2]}: {match.group(2).strip()}"
    elif severe:
        cause = severe.group(1).strip()
    else:
        cause = " / ".join([line.strip() for line in lines if line.strip()][-3:]) or "no output"
    if _MINION_DIED in cause.lower():
        cause += " (a test may have ended its JVM: System.exit, a crash, or too little memory)"
    return cause[:_MESSAGE_CHARS]


def _targets(target_classes: Sequence[str], changed_lines: Mapping[str, Collection[int]] | None) -> list[str]:
    """The targets to mutate: each once, and with `changed_lines` only those with a changed line."""
    targets = list(dict.fromkeys(target_classes))
    if changed_lines is None:
        return targets
    return [name for name in targets if any(lines and (cls == name or cls.startswith(name + "$"))
                                            for cls, lines in changed_lines.items())]


def _on_changed_lines(mutant: Mutant, changed_lines: Mapping[str, Collection[int]] | None) -> bool:
    if changed_lines is None:
        return True
    lines = changed_lines.get(mutant.class_name) or changed_lines.get(mutant.top_class) or ()
    return mutant.line in lines


def _by_target(mutants: Sequence[Mutant], targets: Sequence[str]) -> dict[str, tuple[Mutant, ...]]:
    """The mutants of each target (its nested classes' included); a target without mutants gets none."""
    found: dict[str, list[Mutant]] = {name: [] for name in targets}
    for mutant in mutants:
        owner = next((name for name in targets if mutant.class_name == name
                      or mutant.class_name.startswith(name + "$")), None)
        if owner is not None:
            found[owner].append(mutant)
    return {name: tuple(found[name]) for name in targets}


def _class_file(name: str, classpath: Sequence[str]) -> Path | None:
    """The class file of `name` in a folder of the classpath (the module's compiled classes)."""
    relative = Path(*name.split(".")).with_suffix(".class")
    for entry in classpath:
        candidate = Path(entry) / relative
        if candidate.is_file():
            return candidate
    return None


def _junit_platform(classpath: Sequence[str]) -> tuple[bool, str | None]:
    """Whether the classpath holds the JUnit Platform, and the version of the launcher to add for PIT's JUnit 5
    plugin (None when the classpath has one: a junit-platform-launcher or console-standalone jar).

    Raises JunitbotError when the platform's version cannot be told from its jars.
    """
    platform = [entry for entry in classpath
                if Path(entry).name.startswith(_PLATFORM_JARS) or is_console_launcher(entry)]
    if not platform:
        return False, None
    if any(Path(entry).name.startswith(PLATFORM_LAUNCHER) or is_console_launcher(entry) for entry in classpath):
        return True, None
    version = jar_version(Path(platform[0]))
    if version is None:
        raise JunitbotError(f"cannot tell the JUnit Platform version of {platform[0]}, so not which "
                            f"{PLATFORM_LAUNCHER} PIT needs; put the launcher on the test classpath")
    return True, version


def _fingerprint(run: _PitRun) -> str:
    """What decides the mutants' fate besides their own class: every folder's files, each jar's identity, the
    tests selected, PIT's options, its jars and the JVM."""
    digest = hashlib.sha256()

    def add(*parts: object) -> None:
        for part in parts:
            digest.update(str(part).encode("utf-8", errors="surrogateescape") + b"\0")

    add(*run.options(), run.java, run.jdk, *(jar.name for jar in run.pit.classpath))
    for entry in run.classpath:
        path = Path(entry)
        add("entry", entry)
        if path.is_dir():
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                add(file.relative_to(path).as_posix(), hashlib.sha256(file.read_bytes()).hexdigest())
        elif path.is_file():
            stat = path.stat()
            add(stat.st_size, stat.st_mtime_ns)
    return digest.hexdigest()


def _read_history(path: Path | None) -> _History:
    if path is None or not path.is_file():
        return _History()
    try:
        return _History.model_validate_json(path.read_bytes())
    except (OSError, ValidationError) as e:
        logger.warning("ignoring the unreadable mutation history %s (every class runs again): %s", path,
                       str(e).splitlines()[0])
        return _History()


def _write_history(path: Path, history: _History, measured: Mapping[str, tuple[Mutant, ...]], fingerprint: str) -> None:
    """The history with the classes just measured recorded, written atomically (a killed run leaves the old one)."""
    classes = {**history.classes, **{name: _Recorded(fingerprint=fingerprint, mutants=mutants)
                                     for name, mutants in measured.items()}}
    write_atomically(path, _History(classes=dict(sorted(classes.items()))).model_dump_json() + "\n")


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)

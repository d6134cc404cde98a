"""Probe runs: each scenario is executed once per run condition with a recorder, to learn what to assert.

A probe test calls the method under test inside try/catch and records the return value, the exception,
and the calls the mocks received. Probes compile in one javac and run in one JVM per repetition, like
validation; the two runs differ in order, zone, locale and charset, so unstable observations show.
"""

from __future__ import annotations

import functools
import logging
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from junitbot.analysis import parse_test_class, remove_methods
from junitbot.config import ValidationSettings
from junitbot.generation.template.observations import Observation, parse_observations, stable
from junitbot.records import Record
from junitbot.validation import Classpath
from junitbot.validation.build.classpath import SYSTEM_JAR_DIR
from junitbot.validation.build.helpers import compiled_helper
from junitbot.validation.compiling.javac import compile_batch
from junitbot.validation.compiling.models import JavacOptions
from junitbot.validation.run.launcher import repeat_conditions, run_junit
from junitbot.validation.run.models import JvmLaunch, RunConditions, TestCaseResult, TestRunResult
from junitbot.validation.run.side_by_side import side_by_side

log = logging.getLogger(__name__)

RECORDER_CLASS = "junitbot.recorder.Recorder"
PROBE_TIMEOUT_S = 10.0
_OBSERVATIONS = "junitbot-observations.jsonl"
# A local the scenario declares as one of the JDK's in-memory sinks: what it holds reads back as `toString()`.
_SINK = re.compile(r"^(?:final\s+)?[\w.]+(?:<[^=]*>)?\s+(\w+)\s*=\s*new\s+(?:java\.(?:lang|io)\.)?"
                   r"(?:StringBuilder|StringBuffer|StringWriter|CharArrayWriter|ByteArrayOutputStream)\s*\(")


class Scenario(Record):
    """One way to exercise a method: arrange statements, the call, and what the test is named after."""

    id: str
    method: str
    hint: str
    arrange: tuple[str, ...] = ()
    call: str
    returns_void: bool = False
    returns: str | None = None
    # The type the final test declares `result` as where the release has no `var` (None: `var`).
    declared: str | None = None
    subject: str | None = None
    mocks: tuple[str, ...] = ()
    constructor: bool = False
    # A compensation path: the exception a collaborator is made to throw that the code catches (FQN), and what
    # the code's handler does, as a name says it (`cancelsOrder`).
    handles: str | None = None
    handled_by: str | None = None
    # A variant of another scenario (its id) leaving out one of its stubs (the statement): when both behave
    # the same, the stub's answer does not matter and the final test goes without it.
    base: str | None = None
    withheld: str | None = None
    # The instance methods called before this one, in order (their calls are in `arrange`): a call sequence.
    after: tuple[str, ...] = ()
    # An input tried because a change touched the method: written even where an earlier test has its outcome, since
    # the same result may come by the change's new path (`getMappingCode('\u00e9')` returns 0 as `' '` does).
    for_change: bool = False
    # An input whose difference the outcome cannot show (`equals` false because one attribute differs, not because
    # the other is of another class): written even where another test has its outcome; the keep rule judges it.
    distinct: bool = False


def sink_locals(scenario: Scenario) -> tuple[str, ...]:
    """The locals of the arrange step that are in-memory sinks (a StringBuilder, a StringWriter, a
    ByteArrayOutputStream) the call or a later statement hands on: what the code wrote into them is asserted
    (issue 29: a sink the test cannot read back checks nothing that was rendered)."""
    found = []
    for position, line in enumerate(scenario.arrange):
        match = _SINK.match(line)
        if match is None:
            continue
        used = re.compile(rf"\b{match[1]}\b")
        if used.search(scenario.call) or any(used.search(later) for later in scenario.arrange[position + 1:]):
            found.append(match[1])
    return tuple(found)


def probe_method(scenario: Scenario) -> str:
    """A test method that runs the scenario and records what happened, whatever happens."""
    arrange = "".join(f"        {line}\n" for line in scenario.arrange)
    itself = f", {scenario.subject}" if scenario.subject else ""
    act = (f"{scenario.call};\n            junitbot.recorder.Recorder.returnedVoid(\"{scenario.id}\");"
           if scenario.returns_void
           else f"junitbot.recorder.Recorder.returned(\"{scenario.id}\", {scenario.call}{itself});")
    names = ", ".join(f'"{m}"' for m in scenario.mocks)
    mocks = ", ".join(scenario.mocks)
    calls = (f"        junitbot.recorder.Recorder.interactions(\"{scenario.id}\", new String[] {{{names}}}"
             f"{', ' + mocks if mocks else ''});\n")
    # What the stubs will hand out, as it is before the call: an argument the code passes on that is one of
    # them shows what the code changed.
    before = (f"        junitbot.recorder.Recorder.stubbed(\"{scenario.id}\"{', ' + mocks if mocks else ''});\n"
              if mocks else "")
    after = ""
    for sink in sink_locals(scenario):
        # What the sink held before the call and after it: the code's output is the difference.
        before += f"        junitbot.recorder.Recorder.sink(\"{scenario.id}\", \"before\", \"{sink}\", {sink});\n"
        after += f"            junitbot.recorder.Recorder.sink(\"{scenario.id}\", \"after\", \"{sink}\", {sink});\n"
    if scenario.subject:
        # The object's state around the call, so the test can assert what a void method changed.
        before += f"        junitbot.recorder.Recorder.state(\"{scenario.id}\", \"before\", {scenario.subject});\n"
        after += f"            junitbot.recorder.Recorder.state(\"{scenario.id}\", \"after\", {scenario.subject});\n"
    return (
        "    @Test\n"
        f"    void probe_{scenario.id}() throws Exception {{\n"
        f"{arrange}"
        f"{before}"
        "        try {\n"
        f"            {act}\n"
        f"{after}"
        "        } catch (Throwable thrown) {\n"
        f"            junitbot.recorder.Recorder.threw(\"{scenario.id}\", thrown);\n"
        "        }\n"
        f"{calls}"
        "    }\n"
    )


def _failing_set_ups(cases: Sequence[TestCaseResult], classes: Sequence[str]) -> dict[str, str]:
    """The probe classes none of whose methods passed: a probe catches whatever its call throws, so such a class
    fails before any call, in its set-up (the instance under test cannot be built), and says why."""
    found = {}
    for test_class in classes:
        own = [c for c in cases if c.test_class == test_class]
        if own and not any(c.status == "passed" for c in own):
            found[test_class] = f"fails before any call, in its set-up: {(own[0].message or own[0].status)[:300]}"
    return found


@dataclass(frozen=True)
class ProbeClass:
    """A probe test class: where to write it, its source, and its fully qualified name."""

    path: str
    source: str
    test_class: str


@dataclass(frozen=True)
class ProbeRun:
    """What every probe run of one module shares, built once per module: the classpath (the main classes first), the
    module's classpath record (probes compile as its tests do: its release, processors and JDK), the validation
    settings, the isolation, where scratch folders go, and the caches (the recorder's, the pinned tools')."""

    classpath: tuple[str, ...]
    module: Classpath
    settings: ValidationSettings
    isolation: str
    scratch_root: Path
    cache_dir: Path
    tools_dir: Path | None = None


def recorder_classes(cache_dir: Path, classpath: Sequence[str]) -> Path:
    """The recorder compiled once into `cache_dir` against the Mockito on `classpath` (the whole classpath when no
    entry is named after Mockito); concurrent partitions share the folder, moved into place whole."""
    mockito = [Path(entry) for entry in classpath if Path(entry).name.startswith("mockito")]
    return compiled_helper("junitbot.recorder.Recorder", classpath=mockito or [Path(e) for e in classpath],
                           cache_dir=cache_dir, folder_prefix="recorder-classes",
                           source_file=resources.files("junitbot.generation.template") / "java" / "junitbot"
                           / "recorder" / "Recorder.java")


_RECORDER_MOCKITO = ("mockito-core.jar", "byte-buddy.jar", "byte-buddy-agent.jar", "objenesis.jar")


def _mockito_for_the_recorder(classpath: Sequence[str]) -> list[str]:
    """Debian's Mockito jars when `classpath` has no Mockito, else nothing."""
    if any(Path(entry).name.startswith("mockito-core") for entry in classpath):
        return []
    jars = [SYSTEM_JAR_DIR / name for name in _RECORDER_MOCKITO]
    return [str(jar) for jar in jars if jar.is_file()]


def run_probes(probes: Sequence[ProbeClass], run: ProbeRun) -> tuple[dict[str, Observation], dict[str, str]]:
    """Compile the probes in one javac and run them as validation runs a test (twice by default), in a scratch
    folder of their own under `run.scratch_root`; (stable observations, probes that failed to build). The recorder
    is compiled apart by the default JDK: javac reads its class files at any `--release`, and every JVM that runs
    probes is as new."""
    if not probes:
        return {}, {}
    scratch = Path(tempfile.mkdtemp(prefix="generate-", dir=run.scratch_root))
    try:
        return _compile_and_run(probes, run, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _compile_and_run(probes: Sequence[ProbeClass], run: ProbeRun,
                     scratch: Path) -> tuple[dict[str, Observation], dict[str, str]]:
    """Probes compile and run as the module's tests do (its release, processors and JDK), so a scenario the release
    cannot compile costs only itself here; the pinned tools' launcher runs them, as in validation."""
    module, isolation, tools_dir = run.module, run.isolation, run.tools_dir
    release, processor_path, java_home = module.release, module.processor_path, module.java_home
    # A scenario that hangs (a loop for some input) must not cost a whole test timeout: it just yields
    # no observation, and no test.
    settings = run.settings.model_copy(update={"class_timeout_s": min(run.settings.class_timeout_s, PROBE_TIMEOUT_S)})
    # The recorder speaks Mockito; a module without it gets Debian's for the probes only (its tests never mock).
    classpath = [*run.classpath, *_mockito_for_the_recorder(run.classpath)]
    recorder = recorder_classes(run.cache_dir, classpath)
    files = []
    for probe in probes:
        file = scratch / "probe-src" / probe.path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(probe.source, encoding="utf-8")
        files.append(file)
    out = scratch / "probe-classes"
    full_classpath = [str(out), str(recorder), *classpath]
    javac = JavacOptions(timeout_s=settings.batch_timeout_s, release=release, processor_path=tuple(processor_path),
                         java_home=java_home)
    compiled = compile_batch(files, classpath=full_classpath, out_dir=out, options=javac)
    # A scenario that does not compile costs only itself: drop its probe method and compile the rest again.
    retry = []
    for probe, file in zip(probes, files, strict=True):
        result = compiled[file]
        if result.compiled:
            continue
        parsed = parse_test_class(probe.source)
        broken = {parsed.test_at(i.line) for i in result.issues if i.line is not None}
        if broken and None not in broken:
            file.write_text(remove_methods(probe.source, {b for b in broken if b}), encoding="utf-8")
            retry.append(file)
    if retry:
        compiled.update(compile_batch(retry, classpath=full_classpath, out_dir=out, options=javac))
    failed = {probe.test_class: "does not compile: " + "; ".join(i.message for i in compiled[file].issues)[:500]
              for probe, file in zip(probes, files, strict=True) if not compiled[file].compiled}
    runnable = [p.test_class for p in probes if p.test_class not in failed]
    launch = JvmLaunch(settings=settings, isolation=isolation, tools_dir=tools_dir, java_home=java_home)

    def observe(index: int, conditions: RunConditions) -> tuple[dict[str, Observation], TestRunResult | None]:
        workdir = scratch / f"probe-run-{index}"
        ran = (run_junit(test_classes=runnable, classpath=full_classpath, workdir=workdir, conditions=conditions,
                         launch=launch) if runnable else None)
        observed = workdir / _OBSERVATIONS
        return (parse_observations(observed.read_text(encoding="utf-8")) if observed.is_file() else {}), ran

    # As often as validation runs a test, at most twice: a second run (reversed order, another zone, locale and
    # charset) keeps only what both agree on; with `validation.repetitions: 1` nothing is checked for agreement.
    runs = side_by_side([functools.partial(observe, index, conditions)
                         for index, conditions in enumerate(repeat_conditions(settings.repetitions)[:2], 1)],
                        settings.parallel_runs)
    first, ran = runs[0]
    if ran is not None:
        failed.update(_failing_set_ups(ran.cases, runnable))
    if len(runs) == 1:
        return first, failed
    second = runs[1][0]
    return {scenario: stable(seen, second.get(scenario)) for scenario, seen in first.items()}, failed

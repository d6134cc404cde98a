"""The baseline: what the repository's own tests of the target classes already cover and kill.

Per target, the existing tests that name or use it (`DependencyAnalyzer.tests_of`, minus the files the
candidates will replace) are compiled with the test classes they need, run once under JaCoCo with a per-test
listener and once under PIT, and the result is cached under the state directory by a hash of everything it
depends on (the sources of the target, of its tests and of the classes they use; the classpath): an unchanged class
never runs its tests again. The cache's keys hold no path of the work tree, so runners may share it.

Only Jupiter tests run (junitbot's launcher runs the Jupiter engine); a target whose tests are JUnit 4 or do
not compile says so in its note and counts as having no baseline.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from pydantic import Field, ValidationError

from junitbot.analysis import CodeGraph, DependencyAnalyzer, TypeRow
from junitbot.analysis.marker import generated_target
from junitbot.analysis.naming import class_named_by_test
from junitbot.atomic import write_atomically
from junitbot.errors import JunitbotError
from junitbot.records import Record
from junitbot.validation.build.classpath import resource_folders, test_sources
from junitbot.validation.build.models import Classpath
from junitbot.validation.compiling.main_classes import build_main_classes, main_javac
from junitbot.validation.context import ValidationContext
from junitbot.validation.measure.carving import argument_classes, carved_calls, carver_agent
from junitbot.validation.measure.jacoco import CoverageQuery, analyze_coverages, package_includes
from junitbot.validation.measure.models import CarvedCall, ClassCoverage, MutationReport, PitOptions, ProbeHits
from junitbot.validation.measure.per_test import per_test_hits, per_test_owners
from junitbot.validation.measure.pit import run_mutation_analysis
from junitbot.validation.run.launcher import run_junit
from junitbot.validation.run.models import JavaAgent, RunConditions

log = logging.getLogger(__name__)

_FORMAT = 7  # bump when what a cached baseline holds changes (2: carved calls; 3: carved objects; 4: bytes as text;
# 5: new arguments before more receivers of the same; 6: the mutants left alive, described; 7: a failed PIT run
# again with the targets' own test classes)
_BASELINE_BUDGET_FACTOR = 4


class Baseline(Record):
    """What the existing tests of one target cover (JaCoCo probes and figures) and which mutants they kill."""

    target: str
    tests: tuple[str, ...] = ()
    probes: ProbeHits = Field(default_factory=ProbeHits)
    coverage: ClassCoverage | None = None
    mutants_killed: tuple[str, ...] = ()  # Mutant.key of each detected mutant
    mutants_total: int | None = None  # None: not measured
    mutants_alive: tuple[str, ...] = Field(default=(), description="each mutant the existing tests leave alive, "
                                                                   "described: `format@163: negated conditional`")
    exec_file: str | None = Field(default=None, description="the existing tests' JaCoCo data, for the coverage "
                                                            "of both suites together")
    carved: tuple[CarvedCall, ...] = Field(default=(), description="what the existing tests passed to the "
                                                                   "target's public members (the carver)")
    note: str | None = None

    @property
    def empty(self) -> bool:
        return not self.tests


def baseline_tests(targets: Sequence[str], graph: CodeGraph, *, replaced: Collection[str] = ()) -> dict[str, list[str]]:
    """The existing test classes of each target: named after it or using it, Jupiter only, not in `replaced`, and
    not junitbot's own. A generated class stands on its own: junitbot's tests of the classes that use this one are
    regenerated on their own and may stub it, and counting them would make a regenerated class keep fewer tests
    than the same class generated before them (churn in the pull request for nothing)."""
    analyzer = DependencyAnalyzer(graph)
    rows = {row.fqn: row for row in graph.types()}
    generated: dict[str, bool] = {}

    def persons(path: str) -> bool:
        if path not in generated:
            generated[path] = generated_target((graph.source(path) or b"").decode("utf-8", "replace")) is not None
        return not generated[path]

    return {target: [t for t in analyzer.tests_of(target) if t in rows and rows[t].path not in replaced
                     and persons(rows[t].path)] for target in targets}


def measure_baselines(
    targets: Sequence[str], *, context: ValidationContext, graph: CodeGraph, replaced: Collection[str] = (),
    mutation: bool = True,
) -> dict[str, Baseline]:
    """The baseline of every target (by source FQN) in the context's module, run against its main classes; from
    the cache where nothing it depends on changed. `replaced`: test files the candidates will replace."""
    tests_by_target = baseline_tests(targets, graph, replaced=replaced)
    rows = {row.fqn: row for row in graph.types()}
    files = dict(graph.source_files(test=False)) | dict(graph.source_files(test=True))
    classpath = context.module
    build = _portable_build(classpath, context.root)
    cache = context.baseline_dir / (classpath.module.replace("/", "_") or "_root")
    result: dict[str, Baseline] = {}
    missing: dict[str, str] = {}
    for target in targets:
        tests = tests_by_target[target]
        if not tests:
            result[target] = Baseline(target=target, note="no existing tests")
            continue
        key = _key(target, tests, _sources([target, *tests], graph, rows, files), build,
                   (mutation, context.settings.carve))
        cached = _read(cache / f"{key}.json")
        if cached is not None:
            result[target] = cached
        else:
            missing[target] = key
    if missing:
        measured = _measure({t: tests_by_target[t] for t in missing}, context=context, graph=graph, rows=rows,
                            mutation=mutation, exec_files={t: cache / f"{k}.exec" for t, k in missing.items()})
        for target, key in missing.items():
            result[target] = measured[target]
            _write(cache / f"{key}.json", measured[target])
    return result


def _key(target: str, tests: Sequence[str], sources: Sequence[tuple[str, str]], build: Sequence[str],
         flags: tuple[bool, ...]) -> str:
    """The cache key of a baseline: what it ran, against which sources and build, and how (`flags`: mutation,
    carving)."""
    parts = [_FORMAT, target, sorted(tests), list(sources), list(build), list(flags)]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


def _portable_build(classpath: Classpath, root: Path) -> list[str]:
    """The module's classpath entries (those inside the work tree relative to it: another module's classes) and
    release, as a key that holds no path of the work tree."""
    entries = [Path(entry).relative_to(root).as_posix() if Path(entry).is_relative_to(root) else entry
               for entry in classpath.entries]
    return [*entries, str(classpath.release)]


def _sources(names: Sequence[str], graph: CodeGraph, rows: Mapping[str, TypeRow],
             files: Mapping[str, str]) -> list[tuple[str, str]]:
    """(path, blob hash) of the files declaring `names` and the classes they use directly: a changed collaborator
    changes what the tests reach in the target (a wider walk would rerun every target for any change)."""
    used = {dependency for name in names for dependency, _ in graph.dependencies(name)}
    paths = sorted({rows[name].path for name in {*names, *used} if name in rows})
    return [(path, files.get(path, "")) for path in paths]


def _read(path: Path) -> Baseline | None:
    try:
        return Baseline.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        return None


def _write(path: Path, baseline: Baseline) -> None:
    write_atomically(path, baseline.model_dump_json())  # a killed run leaves the old entry or none


def _test_files(tests: Collection[str], graph: CodeGraph, rows: Mapping[str, TypeRow]) -> list[str]:
    """The files of `tests` and of the test classes they depend on (base classes, helpers), transitively."""
    seen: set[str] = set()
    queue = list(tests)
    files: set[str] = set()
    while queue:
        fqn = queue.pop()
        row = rows.get(fqn)
        if fqn in seen or row is None or not row.is_test:
            continue
        seen.add(fqn)
        files.add(row.path)
        queue += [dep for dep, _ in graph.dependencies(fqn)]
        if row.outer:
            queue.append(row.outer)
    return sorted(files)


def _measure(
    tests_by_target: Mapping[str, Sequence[str]], *, context: ValidationContext, graph: CodeGraph,
    rows: Mapping[str, TypeRow], mutation: bool, exec_files: Mapping[str, Path],
) -> dict[str, Baseline]:
    """Run the existing tests of every target in one JVM (per-test coverage) and one PIT run; each target's
    baseline counts only its own tests, and its exec file is written to `exec_files[target]`."""
    root, classpath, main_classes = context.root, context.module, context.main_classes
    all_tests = sorted({t for tests in tests_by_target.values() for t in tests})
    paths = _test_files(all_tests, graph, rows)
    jupiter = {p for p in paths if _is_jupiter(root / p)}
    if not jupiter:  # JUnit 4 or no longer on disk: nothing junitbot can run as the baseline
        return {t: Baseline(target=t, tests=tuple(ts), note=f"none of its {len(ts)} existing test classes runs on "
                                                            "JUnit 5 (Jupiter); not measured")
                for t, ts in tests_by_target.items()}
    shas = dict(graph.source_files(test=True))
    # The existing tests compile as their build compiles them: with the module's other test sources (base
    # classes, helpers) on the source path, else a test that uses one is lost from the baseline.
    options = main_javac(classpath).model_copy(update={"source_path": tuple(test_sources(root, classpath))})
    build = build_main_classes(root, [(p, shas.get(p, "")) for p in sorted(jupiter)],
                               classpath=[str(main_classes), *classpath.entries],
                               cache_dir=context.state_root / "build" / "baseline-tests" / (
                                   classpath.module.replace("/", "_") or "_root"),
                               options=options, kind="existing test")
    runnable = [t for t in all_tests if rows[t].path in jupiter
                and rows[t].path not in build.failed and rows[t].outer is None]
    notes: dict[str, str] = {}
    for target, tests in tests_by_target.items():
        skipped = [t for t in tests if t not in runnable]
        if skipped:
            notes[target] = (f"{len(skipped)} of its {len(tests)} existing test classes not measured "
                             "(JUnit 4, not compiling, or nested)")
    if not runnable:
        return {t: Baseline(target=t, tests=tuple(ts), note=notes.get(t)) for t, ts in tests_by_target.items()}
    test_cp = [str(build.classes_dir), str(main_classes), *resource_folders(root, classpath), *classpath.entries]
    targets = {graph.binary_name(t): t for t in tests_by_target}
    settings = context.settings
    scratch = Path(tempfile.mkdtemp(prefix="baseline-", dir=context.state_root))
    result = {}
    try:
        carver = carver_agent(list(targets), scratch / "carved.jsonl", cache_dir=context.helper_cache,
                              tools_dir=context.tools_dir, settings=settings,
                              builders=argument_classes(tests_by_target, graph)) if settings.carve else None
        per_test = _run_with_coverage(runnable, test_cp, scratch, context=context, classes=list(targets),
                                      agents=(carver,) if carver else ())
        carved = carved_calls(scratch / "carved.jsonl", targets) if carver else {}
        hits = per_test_hits(per_test)
        owners = per_test_owners(per_test)
        pit = PitOptions(
            tools_dir=context.tools_dir, java_home=classpath.java_home, isolation=context.isolation,
            history_file=context.baseline_dir / "pit-history.bin",
            # A human suite runs many more tests per mutant than the generated one, once (then cached).
            budget_s=_BASELINE_BUDGET_FACTOR * settings.mutation_budget_s_per_class * len(targets) + 30,
            full_matrix=False)  # which mutants die is all a baseline keeps

        def mutate(tests: Sequence[str], folder: str) -> MutationReport:
            return run_mutation_analysis(target_classes=list(targets), test_classes=tests, classpath=test_cp,
                                         workdir=scratch / folder, settings=settings, options=pit)

        mutants = _mutants_by_target(mutate, runnable, tests_by_target, rows) if mutation else {}
        concatenated = {target: _concatenated([path for owner, path in owners
                                               if owner.split("#")[0] in tests_by_target[target]], exec_files[target])
                        for target in targets.values()}
        coverages = _coverages(concatenated, targets, context)
        for binary, target in targets.items():
            tests = tuple(tests_by_target[target])
            report, note = mutants.get(target, (None, None))
            note = _joined(notes.get(target), note)
            mine = [owner for owner in hits if owner.split("#")[0] in tests]
            probes = ProbeHits()
            for owner in mine:
                probes = probes.union(hits[owner].restricted_to([binary]))
            exec_file, coverage = concatenated[target], coverages.get(target)
            result[target] = Baseline(target=target, tests=tests, probes=probes, coverage=coverage,
                                      exec_file=str(exec_file) if exec_file else None,
                                      carved=carved.get(target, ()),
                                      note=_mutation_note(report, note), **_mutant_fields(report, binary))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return result


def _concatenated(files: Sequence[Path], target: Path) -> Path | None:
    """One exec file of several: JaCoCo's reader takes header blocks anywhere, so files append as they are."""
    if not files:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    draft = target.with_suffix(f".{os.getpid()}.tmp")  # partitions may write the same file at once
    with draft.open("wb") as out:
        for file in files:
            out.write(file.read_bytes())
    draft.replace(target)
    return target


def _coverages(exec_files: Mapping[str, Path | None], binaries: Mapping[str, str],
               context: ValidationContext) -> dict[str, ClassCoverage]:
    """Each target's coverage by its existing tests (`exec_files`, by target; `binaries`: binary name -> target),
    from one analyzer run; a target without exec data or whose analysis failed has none (and a warning)."""
    asked = [(binary, target) for binary, target in binaries.items() if exec_files.get(target) is not None]
    answers = analyze_coverages([CoverageQuery((exec_files[target] or Path(),), (binary,)) for binary, target in asked],
                                [context.main_classes], cache_dir=context.helper_cache, tools_dir=context.tools_dir,
                                settings=context.settings)
    found: dict[str, ClassCoverage] = {}
    for (binary, target), answer in zip(asked, answers, strict=True):
        if isinstance(answer, JunitbotError):
            log.warning("the existing tests' coverage of %s could not be measured: %s", binary, answer)
        elif binary in answer:
            found[target] = answer[binary]
    return found


def _is_jupiter(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "org.junit.jupiter" in text


def _run_with_coverage(
    tests: Sequence[str], classpath: Sequence[str], scratch: Path, *, context: ValidationContext,
    classes: Sequence[str], agents: tuple[JavaAgent, ...] = (),
) -> Path:
    """Run `tests` once, in name order, with per-test coverage of `classes` (and `agents` beside JaCoCo); the folder
    of per-test data. Failing tests count all the same: what they ran before failing is what the suite exercises."""
    per_test = scratch / "per-test"
    covered, launch = context.covered_launch(classpath, includes=package_includes(list(classes)),
                                             exec_file=scratch / "jacoco.exec", per_test=per_test, agents=agents)
    run_junit(test_classes=tests, classpath=covered, workdir=scratch / "run", conditions=RunConditions(order="name"),
              launch=launch)
    return per_test


def _mutant_fields(report: MutationReport | None, binary: str) -> dict[str, object]:
    if report is None or report.error or report.timed_out:
        return {}
    mine = [m for m in report.mutants if m.class_name == binary or m.class_name.startswith(binary + "$")]
    return {"mutants_killed": tuple(sorted(m.key for m in mine if m.detected)), "mutants_total": len(mine),
            "mutants_alive": tuple(f"{m.method}@{m.line}: {m.description or m.mutator}"
                                   for m in sorted(mine, key=lambda m: (m.line, m.key)) if not m.detected)}


def _mutants_by_target(
    mutate: Callable[[Sequence[str], str], MutationReport], runnable: Sequence[str],
    tests_by_target: Mapping[str, Sequence[str]], rows: Mapping[str, TypeRow],
) -> dict[str, tuple[MutationReport, str | None]]:
    """Each target's PIT report (one run of every `runnable` test) and what to note of it. One test of a wide suite
    can end PIT's minion (commons-text's TextStringBuilderTest allocates GiB arrays to expect an OutOfMemoryError,
    and StringTokenizer's baseline lost every kill): where PIT failed, the test classes named after the targets run
    again alone, and a target with one says what its own tests kill."""
    report = mutate(runnable, "pit")
    simple = {target.rsplit(".", 1)[-1] for target in tests_by_target}
    named = [t for t in runnable if class_named_by_test(rows[t].name) in simple]
    result: dict[str, tuple[MutationReport, str | None]] = {t: (report, None) for t in tests_by_target}
    if not report.error or report.timed_out or not 0 < len(named) < len(runnable):
        return result
    log.info("mutation analysis of the existing tests failed (%s); again with the %d test classes named after the "
             "targets", report.error, len(named))
    again = mutate(named, "pit-named")
    if again.error:
        return result
    for target, tests in tests_by_target.items():
        own = [t.rsplit(".", 1)[-1] for t in tests if t in named]
        if own:
            result[target] = (again, f"its mutants measured with {', '.join(own)} alone (PIT failed on all "
                                     f"{len(tests)} of its test classes: {report.error})")
    return result


def _joined(note: str | None, more: str | None) -> str | None:
    return f"{note}; {more}" if note and more else note or more


def _mutation_note(report: MutationReport | None, note: str | None) -> str | None:
    if report is not None and (report.error or report.timed_out):
        why = report.error or "PIT ran out of its time budget"
        return _joined(note, f"mutation score of the existing tests not measured: {why}")
    return note

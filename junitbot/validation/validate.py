"""validate_candidates: static passes, one javac, repeated sandboxed JUnit runs, JaCoCo, per-method verdicts.

Only tests that compile and pass every run are kept. A class keeps its good methods: failing or flaky
ones are removed and the rest compiled again. The first run is also the measured one (JaCoCo, per test), so
a class's runs are its repetitions and PIT's, no more. Nothing is written into the repository: all work
happens in a scratch directory under the state directory.

The steps run in the order below, each taking what it reads (a `ValidationContext` built once per module, the
classes' standing as `Candidacy` records) and returning its result: read top to bottom, this module is one
test's fate.
"""

from __future__ import annotations

import functools
import logging
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from junitbot.analysis import (
    ClassInfo,
    CodeGraph,
    DependencyAnalyzer,
    TestContext,
    parse_test_class,
    prune_tests,
    remove_unused_imports,
    tidy_generated,
)
from junitbot.config import JunitbotConfig, ValidationSettings
from junitbot.errors import JunitbotError, UnknownClassError
from junitbot.validation.build.classpath import classpath_packages, discover_classpaths
from junitbot.validation.build.jdk import java_version
from junitbot.validation.build.models import Classpath, ProjectClasspath
from junitbot.validation.build.tool_choice import judging_tools
from junitbot.validation.candidates import safe_test_path, test_class_name
from junitbot.validation.compiling.javac import compile_batch
from junitbot.validation.compiling.main_classes import module_main_classes
from junitbot.validation.compiling.models import CompileResult
from junitbot.validation.compiling.repair import RepairContext
from junitbot.validation.compiling.rounds import compile_in_rounds
from junitbot.validation.context import IndexedRepo, ValidationContext
from junitbot.validation.judge.keep import keep_what_adds, with_coverage
from junitbot.validation.judge.models import Candidacy, MethodVerdict, ValidationReport, Verdict
from junitbot.validation.judge.verdicts import settle, verdict_of
from junitbot.validation.measure.jacoco import CoverageQuery, analyze_coverages, folder_includes, package_includes
from junitbot.validation.measure.models import ClassCoverage, ProbeHits
from junitbot.validation.measure.per_test import per_test_hits, per_test_owners
from junitbot.validation.models import Severity, TestCandidate, ValidationIssue
from junitbot.validation.review import methods_to_drop, review_sources, review_test_class
from junitbot.validation.review.models import ReviewSummary
from junitbot.validation.run.guard import guard_note
from junitbot.validation.run.isolating import run_isolating
from junitbot.validation.run.launcher import repeat_conditions
from junitbot.validation.run.models import JvmLaunch, TestCaseResult
from junitbot.validation.run.sandbox import describe_isolation
from junitbot.validation.run.side_by_side import side_by_side
from junitbot.validation.static import KnownTypes, broken_tests, error_scope, run_static_checks

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]

# Where the covered run (the first repetition) writes its JaCoCo data, under the scratch folder.
_EXEC_FILE = "jacoco.exec"
_PER_TEST = "per-test"


def validate_candidates(
    candidates: Sequence[TestCandidate],
    *,
    repo: IndexedRepo,
    config: JunitbotConfig,
    classpath: Classpath | ProjectClasspath | None = None,
    progress: ProgressCallback | None = None,
) -> ValidationReport:
    """Validate every candidate, each against its own module's classpath and release; one bad candidate never
    stops the others."""
    settings = config.validation
    project = as_project(classpath) or discover_classpaths(repo.root, settings, state=repo.state)
    groups: dict[str, list[TestCandidate]] = defaultdict(list)
    for candidate in candidates:
        groups[project.module_for(candidate.path).module].append(candidate)
    modules = {m.module: m for m in project.modules}
    reports = [_validate_module(group, repo, settings, modules.get(module, project.primary), progress)
               for module, group in sorted(groups.items())]
    return merge_reports(reports) if reports else _validate_module([], repo, settings, project.primary, progress)


def as_project(classpath: Classpath | ProjectClasspath | None) -> ProjectClasspath | None:
    """A single classpath as a one-module project (callers may pass either)."""
    if classpath is None or isinstance(classpath, ProjectClasspath):
        return classpath
    return ProjectClasspath(modules=(classpath,), notes=classpath.notes)


def merge_reports(reports: Sequence[ValidationReport]) -> ValidationReport:
    """One report of several validations (modules, rounds): verdicts in path order, seconds added up."""
    seconds: dict[str, float] = {}
    for report in reports:
        for stage, value in report.seconds.items():
            seconds[stage] = round(seconds.get(stage, 0.0) + value, 3)
    first = reports[0]
    return ValidationReport(
        verdicts=tuple(sorted((v for r in reports for v in r.verdicts), key=lambda v: v.path)),
        classpath_source=first.classpath_source, frameworks=first.frameworks, isolation=reports[-1].isolation,
        main_build_reused=all(r.main_build_reused for r in reports),
        main_build_failed=tuple(dict.fromkeys(f for r in reports for f in r.main_build_failed)), seconds=seconds,
        tools={k: v for r in reports for k, v in r.tools.items()},
        review=ReviewSummary.merged(r.review for r in reports if r.review is not None)
        if any(r.review is not None for r in reports) else None)


def _validate_module(
    candidates: Sequence[TestCandidate], repo: IndexedRepo, settings: ValidationSettings, module: Classpath,
    progress: ProgressCallback | None,
) -> ValidationReport:
    """One module's candidates: its main classes built (or reused), its context built, then every step in a
    scratch folder removed afterwards."""
    started = time.perf_counter()
    main = module_main_classes(repo.root, repo.graph.source_files(test=False), classpath=module,
                               cache_root=repo.state.root / "build" / "main")
    seconds = {"main_build": time.perf_counter() - started}
    scratch = Path(tempfile.mkdtemp(prefix="validate-", dir=repo.state.ensure().root))
    try:
        context = ValidationContext.for_module(repo.root, module, settings=settings, state=repo.state,
                                               scratch=scratch, main_classes=main.classes_dir)
        verdicts, stages = _verdicts(candidates, context, repo.graph, progress or _no_progress)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    seconds |= stages
    seconds["total"] = time.perf_counter() - started
    return ValidationReport(
        verdicts=tuple(sorted(verdicts, key=lambda v: v.path)),
        classpath_source=module.source,
        frameworks=module.frameworks,
        isolation=f"{describe_isolation(context.isolation)}; {guard_note(java_version(context.java_home))}",
        main_build_reused=main.reused,
        main_build_failed=main.failed,
        seconds={k: round(v, 3) for k, v in seconds.items()},
        tools=judging_tools(module.entries, tools_dir=repo.state.tools, settings=settings),
        review=review_sources(v.source for v in verdicts if v.kept and v.source is not None),
    )


def _no_progress(stage: str, done: int, total: int) -> None:
    return None


def _verdicts(
    candidates: Sequence[TestCandidate], context: ValidationContext, graph: CodeGraph, progress: ProgressCallback,
) -> tuple[list[Verdict], dict[str, float]]:
    """The steps in order: static passes, compile rounds, repeated runs, then review, measurement and the keep rule
    for what passed; the verdicts, and the seconds of the compile and run stages."""
    seconds: dict[str, float] = {}
    classes, rejected = _prepare(candidates, context, graph)
    progress("static", len(candidates), len(candidates))
    tick = time.perf_counter()
    repairs = RepairContext(graph.fqns_named, graph.class_info, assertj=context.module.frameworks.assertj is not None)
    classes = _compile(classes, context, repairs)
    seconds["compile"] = time.perf_counter() - tick
    progress("compile", len(classes), len(classes))
    tick = time.perf_counter()
    runnable = [c for c in classes if c.compiled]
    repetitions = context.settings.repetitions
    runs = _repeated_runs(runnable, context, graph)
    progress("run", repetitions, repetitions + 1)
    measured, coverage = _prune_and_measure([settle(c, runs) for c in runnable], context, graph)
    progress("run", repetitions + 1, repetitions + 1)
    seconds["run"] = time.perf_counter() - tick
    return [*rejected, *(verdict_of(c, coverage) for c in _replaced(classes, measured))], seconds


def _prepare(
    candidates: Sequence[TestCandidate], context: ValidationContext, graph: CodeGraph,
) -> tuple[list[Candidacy], list[Verdict]]:
    """Static passes; a method with an ERROR is dropped, the rest of its class written under `scratch/src` for
    compilation. An ERROR that concerns every method (see `error_scope`) rejects the class."""
    analyzer = DependencyAnalyzer(graph)
    known = KnownTypes(graph.class_info, classpath_packages(context.module.entries))
    classes: list[Candidacy] = []
    rejected: list[Verdict] = []
    for candidate in candidates:
        try:
            relative = safe_test_path(candidate.path)
            subject, test_context = _subject(candidate.target, graph, analyzer)
        except JunitbotError as e:
            rejected.append(_rejected(candidate, "input", "bad-candidate", str(e)))
            continue
        check = functools.partial(run_static_checks, subject=subject, context=test_context,
                                  frameworks=context.module.frameworks, settings=context.settings, known=known)
        checked, issues = candidate.source, check(candidate)
        broken = broken_tests(checked) if any(i.category == "syntax-error" for i in issues) else {}
        if broken:  # a syntax error inside a test method costs that method; the rest is checked without it
            checked = prune_tests(checked, broken)
            issues = [*broken.values(), *check(candidate.model_copy(update={"source": checked}))]
        scope = error_scope(checked, issues)
        dropped = {method: f"static check: {issue.message}" for method, issue in scope.methods.items()}
        names = parse_test_class(candidate.source).test_names
        if scope.file is not None or not set(names) - set(dropped):
            whole = f"static check: {scope.file.message}" if scope.file is not None else None
            rejected.append(Verdict(path=candidate.path, target=subject and subject.fqn, kept=False,
                                    issues=tuple(issues),
                                    methods=tuple(MethodVerdict(name=m, kept=False, reason=whole or dropped[m])
                                                  for m in names)))
            continue
        source = prune_tests(checked, dropped) if dropped else checked
        file = context.scratch / "src" / relative
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(source, encoding="utf-8")
        classes.append(Candidacy(candidate=candidate.model_copy(update={"target": subject and subject.fqn}),
                                 test_class=test_class_name(candidate), file=file, source=source,
                                 issues=tuple(issues), dropped=dropped))
    return classes, rejected


def _subject(target: str | None, graph: CodeGraph,
             analyzer: DependencyAnalyzer) -> tuple[ClassInfo | None, TestContext | None]:
    """The class under test and its test context; (None, None) for a test that names no class."""
    if target is None:
        return None, None
    subject = graph.class_info(analyzer.lookup(target))
    if subject is None:
        raise UnknownClassError(target, candidates=())
    return subject, analyzer.test_context_for(subject.fqn)


def _rejected(candidate: TestCandidate, pass_name: str, category: str, message: str) -> Verdict:
    issue = ValidationIssue(severity=Severity.ERROR, pass_name=pass_name, category=category, message=message)
    return Verdict(path=candidate.path, target=candidate.target, kept=False, issues=(issue,))


def _compile(classes: Sequence[Candidacy], context: ValidationContext, repair: RepairContext) -> list[Candidacy]:
    """One javac per round for all that still fail: deterministic repairs to a fixpoint, then a test method that
    does not compile costs that method, not its class (`compile_in_rounds`)."""
    if not classes:
        return []
    outcomes = compile_in_rounds([c.file for c in classes], repair=repair,
                                 javac=lambda files: _javac(files, context))
    return [c.model_copy(update={
        "source": o.source, "compiled": o.compiled, "failure": o.failure, "repairs": (*c.repairs, *o.repairs),
        "dropped": {**c.dropped, **o.dropped}, "issues": (*c.issues, *o.issues)})
        for c, o in ((c, outcomes[c.file]) for c in classes)]


def _javac(files: Sequence[Path], context: ValidationContext) -> dict[Path, CompileResult]:
    return compile_batch(files, classpath=context.test_classpath, out_dir=context.classes_dir, options=context.javac)


def _methods(classes: Sequence[Candidacy]) -> dict[str, set[str]]:
    return {c.test_class: set(parse_test_class(c.source).test_names) for c in classes}


def _repeated_runs(
    classes: Sequence[Candidacy], context: ValidationContext, graph: CodeGraph,
) -> list[list[TestCaseResult]]:
    """The repeated runs of `classes` (`validation.repetitions`, side by side up to `validation.parallel_runs`).
    The first, in name order, runs under JaCoCo with the per-test listener: it is also the run `_measure` reads, so
    measuring starts no JVM of its own."""
    methods = _methods(classes)
    if not methods:
        return [[] for _ in range(context.settings.repetitions)]
    runs = []
    for index, conditions in enumerate(repeat_conditions(context.settings.repetitions), 1):
        classpath, launch = _covered_launch(classes, context, graph) if index == 1 else (
            list(context.test_classpath), context.launch())
        runs.append(functools.partial(run_isolating, methods, classpath=classpath,
                                      workdir=context.scratch / f"run-{index}", conditions=conditions, launch=launch))
    return side_by_side(runs, context.settings.parallel_runs)


def _covered_launch(
    classes: Sequence[Candidacy], context: ValidationContext, graph: CodeGraph,
) -> tuple[list[str], JvmLaunch]:
    """The measured run's classpath and launch: JaCoCo over the targets' packages, or every main class when a test
    names no class, each test's data under `_PER_TEST`."""
    named = sorted({graph.binary_name(c.candidate.target) for c in classes if c.candidate.target is not None})
    everything = any(c.candidate.target is None for c in classes)
    return context.covered_launch(context.test_classpath, exec_file=context.scratch / _EXEC_FILE,
                                  includes=folder_includes(context.main_classes) if everything
                                  else package_includes(named), per_test=context.scratch / _PER_TEST)


def _prune_and_measure(
    classes: Sequence[Candidacy], context: ValidationContext, graph: CodeGraph,
) -> tuple[list[Candidacy], dict[str, ClassCoverage]]:
    """Drop what a reviewer would reject, remove dropped methods and the imports nothing uses any more, compile
    the changed classes, and measure what is left (`_measure`); every class's standing back, and the coverage."""
    reviewed = [_reviewed(c) for c in classes]
    tidied = _tidy([c for c in reviewed if c.failure is None and _left(c)], context)
    measured, coverage = _measure([c for c in tidied if c.failure is None], context, graph,
                                  replaced=[c.candidate.path for c in classes])
    return _replaced(reviewed, tidied, measured), coverage


def _reviewed(candidacy: Candidacy) -> Candidacy:
    """What a reviewer would reject (a pin of a mock's default answer, a duplicate) goes before measuring; in a
    person's tests it is a finding to look at, not a reason to drop their method."""
    findings = review_test_class(candidacy.source)
    if candidacy.candidate.written_by == "junitbot":
        dropped = dict(candidacy.dropped)
        for method, why in methods_to_drop(findings).items():
            dropped.setdefault(method, f"reviewer lint: {why}")
        return candidacy.model_copy(update={"dropped": dropped})
    warnings = (ValidationIssue(severity=Severity.WARNING, pass_name="review", category=f.rule, message=f.message,
                                line=f.line, method=f.method) for f in findings if f.drops_method)
    return candidacy.model_copy(update={"issues": (*candidacy.issues, *warnings)})


def _left(candidacy: Candidacy) -> bool:
    """Whether any test method of the class is still kept."""
    return bool(set(parse_test_class(candidacy.source).test_names) - set(candidacy.dropped))


def _tidy(classes: Sequence[Candidacy], context: ValidationContext) -> list[Candidacy]:
    """Dropped methods and the imports nothing uses any more are removed, and the changed classes compiled; one
    that no longer compiles fails."""
    # An import only a dropped method used, or one the class never used (`Mockito.*` in a class
    # without mocks), is left out of the kept class (issue "Real Maven builds ...": lint and review).
    # A fixture only dropped methods used goes with them.
    tidied = [c.model_copy(update={"source": _tidied(c)}) for c in classes]
    changed = [t for t, c in zip(tidied, classes, strict=True) if t.source != c.source]
    for candidacy in changed:
        candidacy.file.write_text(candidacy.source, encoding="utf-8")
    results = _javac([c.file for c in changed], context) if changed else {}
    failed = {c.file for c in changed if not results[c.file].compiled}
    return [c.model_copy(update={"failure": "does not compile once failing methods and unused imports are removed"})
            if c.file in failed else c for c in tidied]


def _tidied(candidacy: Candidacy) -> str:
    """The class's source without its dropped methods and what only they used; junitbot's own with a value helper
    that now serves one test put back where it is used, and no numbered helper name where a lower one is free."""
    source = (prune_tests(candidacy.source, set(candidacy.dropped)) if candidacy.dropped
              else remove_unused_imports(candidacy.source))
    return tidy_generated(source) if candidacy.candidate.written_by == "junitbot" else source


def _measure(
    classes: Sequence[Candidacy], context: ValidationContext, graph: CodeGraph, *, replaced: Sequence[str],
) -> tuple[list[Candidacy], dict[str, ClassCoverage]]:
    """From the covered run's per-test coverage (the first repetition: a method failing there failed already), keep
    only the methods that add something beyond the repository's own tests (`validation.require_gain`), and measure
    the coverage of what is left; every class's standing back, and the coverage.

    Coverage is keyed by the classes' source names (`Money.Builder`; JaCoCo knows it as `Money$Builder`): the
    targets', or every main class's when a test names no class (to say which classes it exercised).
    """
    if not classes:
        return [], {}
    settings = context.settings
    targets = {graph.binary_name(t): t for t in sorted({c.candidate.target for c in classes
                                                        if c.candidate.target is not None})}
    everything = any(c.candidate.target is None for c in classes)
    exec_file, per_test = context.scratch / _EXEC_FILE, context.scratch / _PER_TEST
    hits = _hits(per_test)
    ran = [c.model_copy(update={"passed_source": prune_tests(c.source, c.dropped) if c.dropped else c.source})
           if c.failure is None and c.candidate.target is not None else c for c in classes]
    named = [c for c in ran if c.failure is None and c.candidate.target is not None]
    if (settings.require_gain or settings.mutation) and hits and named:
        ran = _replaced(ran, keep_what_adds(named, hits, context=context, graph=graph, replaced=replaced))
        ran = _replaced(ran, _tidy([c for c in ran if c.failure is None], context))
    keep = [c for c in ran if c.failure is None]
    exec_files = _kept_exec_files(keep, per_test) if hits else [exec_file]
    if not exec_files:
        return ran, {}
    # One analyzer run: the kept tests' coverage, and each class's merged with its existing tests' exec data.
    merging = [c for c in keep if c.gain is not None and c.baseline_exec is not None
               and Path(c.baseline_exec).is_file()]
    queries = [CoverageQuery(tuple(exec_files), None if everything else tuple(targets)),
               *(CoverageQuery((Path(c.baseline_exec or ""), *exec_files),
                               (graph.binary_name(c.candidate.target or ""),)) for c in merging)]
    measured, *merged = analyze_coverages(queries, [context.main_classes], cache_dir=context.helper_cache,
                                          tools_dir=context.tools_dir, settings=settings)
    if isinstance(measured, JunitbotError):
        log.warning("coverage could not be measured: %s", measured)
        return ran, {}
    coverage = {targets.get(name, name.replace("$", ".")): c for name, c in measured.items()}
    with_existing = {c.candidate.target: _merged(c, found, graph) for c, found in zip(merging, merged, strict=True)}
    covered = [with_coverage(c, coverage[c.candidate.target], with_existing.get(c.candidate.target))
               for c in keep if c.gain is not None and c.candidate.target in coverage]
    return _replaced(ran, covered), coverage


def _merged(candidacy: Candidacy, found: dict[str, ClassCoverage] | JunitbotError,
            graph: CodeGraph) -> ClassCoverage | None:
    """The class's coverage by its kept tests and its existing tests together, None when it was not measured."""
    if isinstance(found, JunitbotError):
        log.warning("the suite's coverage with the existing tests could not be measured: %s", found)
        return None
    return found.get(graph.binary_name(candidacy.candidate.target or ""))


def _hits(per_test: Path) -> dict[str, ProbeHits]:
    """Each test's probes from the per-test data; none when it cannot be read (then every passing method is kept)."""
    try:
        return per_test_hits(per_test)
    except JunitbotError as e:
        log.warning("per-test coverage could not be read; every passing method is kept: %s", e)
        return {}


def _kept_exec_files(classes: Sequence[Candidacy], per_test: Path) -> list[Path]:
    """The per-test exec files of the kept methods and of their classes' own work (set-up, construction)."""
    owners = {c.test_class for c in classes} | {f"{c.test_class}#{m}" for c in classes
                                                for m in parse_test_class(c.source).test_names}
    return [path for owner, path in per_test_owners(per_test) if owner in owners]


def _replaced(classes: Sequence[Candidacy], *updates: Sequence[Candidacy]) -> list[Candidacy]:
    """`classes`, each in its latest standing among `updates` (later ones win; a class is known by its file)."""
    latest = {c.file: c for update in updates for c in update}
    return [latest.get(c.file, c) for c in classes]

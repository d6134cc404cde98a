"""validate_candidates: static passes, one javac, repeated sandboxed JUnit runs, JaCoCo, per-method verdicts.

Only tests that compile and pass every run are kept. A class keeps its good methods: failing or flaky
ones are removed and the rest compiled and run again. Nothing is written into the repository: all work
happens in a scratch directory under the state directory.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from junitbot.analysis import (
    ClassInfo,
    CodeGraph,
    DependencyAnalyzer,
    TestContext,
    parse_test_class,
    prune_tests,
    remove_unused_imports,
)
from junitbot.config import JunitbotConfig, ValidationSettings
from junitbot.errors import JunitbotError, UnknownClassError
from junitbot.state import StateDir
from junitbot.validation.build.classpath import classpath_packages, discover_classpaths, resource_folders
from junitbot.validation.build.jdk import java_version
from junitbot.validation.build.models import Classpath, ProjectClasspath
from junitbot.validation.build.tool_choice import judging_tools
from junitbot.validation.candidates import safe_test_path, test_class_name
from junitbot.validation.compiling.main_classes import module_main_classes
from junitbot.validation.compiling.repair import RepairContext
from junitbot.validation.compiling.rounds import ModuleJavac, compile_in_rounds
from junitbot.validation.judge.models import MethodVerdict, SuiteFigures, SuiteGain, ValidationReport, Verdict
from junitbot.validation.judge.selection import NOTHING_NEW, select_methods
from junitbot.validation.measure.baseline import Baseline, measure_baselines
from junitbot.validation.measure.jacoco import agent_option, analyze_coverage, folder_includes, package_includes
from junitbot.validation.measure.models import ClassCoverage, Counter, Mutant, MutationReport, ProbeHits
from junitbot.validation.measure.per_test import per_test_config, per_test_hits, per_test_listener, per_test_owners
from junitbot.validation.measure.pit import run_mutation_analysis
from junitbot.validation.models import Severity, TestCandidate, ValidationIssue
from junitbot.validation.review import methods_to_drop, review_test_class, summarize
from junitbot.validation.review.models import ReviewSummary
from junitbot.validation.run.guard import guard_note
from junitbot.validation.run.isolating import run_isolating
from junitbot.validation.run.launcher import WHOLE_CLASS, repeat_conditions
from junitbot.validation.run.models import RunConditions, TestCaseResult
from junitbot.validation.run.sandbox import describe_isolation, detect_isolation
from junitbot.validation.static import error_scope, run_static_checks

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]


@dataclass
class _Work:
    """One candidate on its way through validation."""

    candidate: TestCandidate
    test_class: str
    file: Path
    source: str
    issues: list[ValidationIssue] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    compiled: bool = False
    outcomes: dict[str, list[tuple[str, str | None]]] = field(default_factory=lambda: defaultdict(list))
    dropped: dict[str, str] = field(default_factory=dict)
    flaky: list[str] = field(default_factory=list)
    failure: str | None = None
    adds: dict[str, str] = field(default_factory=dict)  # kept method -> what it adds beyond the baseline
    passed_source: str | None = None  # every passing method, before the gain rule dropped any
    gain: SuiteGain | None = None
    survivors: tuple[str, ...] = ()
    baseline_exec: str | None = None


def validate_candidates(
    candidates: Sequence[TestCandidate],
    *,
    root: Path,
    graph: CodeGraph,
    config: JunitbotConfig,
    state: StateDir,
    classpath: Classpath | ProjectClasspath | None = None,
    progress: ProgressCallback | None = None,
) -> ValidationReport:
    """Validate every candidate, each against its own module's classpath and release; one bad candidate never
    stops the others."""
    project = as_project(classpath) or discover_classpaths(root, config.validation, state=state)
    groups: dict[str, list[TestCandidate]] = defaultdict(list)
    for candidate in candidates:
        groups[project.module_for(candidate.path).module].append(candidate)
    modules = {m.module: m for m in project.modules}
    reports = [_validate_module(group, root=root, graph=graph, config=config, state=state,
                                classpath=modules.get(module, project.primary), progress=progress)
               for module, group in sorted(groups.items())]
    return merge_reports(reports) if reports else _validate_module(
        [], root=root, graph=graph, config=config, state=state, classpath=project.primary, progress=progress)


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
    candidates: Sequence[TestCandidate], *, root: Path, graph: CodeGraph, config: JunitbotConfig, state: StateDir,
    classpath: Classpath, progress: ProgressCallback | None,
) -> ValidationReport:
    started = time.perf_counter()
    report = progress or (lambda stage, done, total: None)
    settings = config.validation
    seconds: dict[str, float] = {}
    tick = time.perf_counter()
    main = module_main_classes(root, graph.source_files(test=False), classpath=classpath,
                               cache_root=state.root / "build" / "main")
    seconds["main_build"] = time.perf_counter() - tick
    isolation = detect_isolation(settings.isolation)
    scratch = Path(tempfile.mkdtemp(prefix="validate-", dir=state.ensure().root))
    javac = ModuleJavac.for_module(root, classpath, timeout_s=settings.batch_timeout_s)
    try:
        works, rejected = _prepare(candidates, scratch, graph, config, classpath)
        report("static", len(candidates), len(candidates))
        test_cp = [str(scratch / "classes"), str(main.classes_dir), *resource_folders(root, classpath),
                   *classpath.entries]
        tick = time.perf_counter()
        repairs = RepairContext(graph.fqns_named, graph.class_info, assertj=classpath.frameworks.assertj is not None)
        _compile(works, scratch, test_cp, repairs, javac)
        seconds["compile"] = time.perf_counter() - tick
        report("compile", len(works), len(works))
        tick = time.perf_counter()
        runnable = [w for w in works if w.compiled]
        for index, conditions in enumerate(repeat_conditions(settings.repetitions), 1):
            _judge_run(runnable, run_isolating(_methods(runnable), test_cp, scratch, conditions, config, isolation,
                                                tools_dir=state.tools, java_home=javac.java_home,
                                                basedir=root / classpath.module))
            report("run", index, settings.repetitions + 1)
        for work in runnable:
            _settle(work)
        coverage = _prune_and_measure(runnable, scratch, test_cp, main.classes_dir, config, isolation, state,
                                      binary_name=graph.binary_name, javac=javac, graph=graph, module=classpath,
                                      root=root)
        report("run", settings.repetitions + 1, settings.repetitions + 1)
        seconds["run"] = time.perf_counter() - tick
        verdicts = [*rejected, *(_verdict(w, coverage) for w in works)]
        review = ReviewSummary.merged(summarize(review_test_class(v.source)) for v in verdicts
                                      if v.kept and v.source is not None)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    seconds["total"] = time.perf_counter() - started
    return ValidationReport(
        verdicts=tuple(sorted(verdicts, key=lambda v: v.path)),
        classpath_source=classpath.source,
        frameworks=classpath.frameworks,
        isolation=f"{describe_isolation(isolation)}; {guard_note(java_version(javac.java_home))}",
        main_build_reused=main.reused,
        main_build_failed=main.failed,
        seconds={k: round(v, 3) for k, v in seconds.items()},
        tools=judging_tools(classpath.entries, tools_dir=state.tools, settings=settings),
        review=review,
    )


def _prepare(
    candidates: Sequence[TestCandidate], scratch: Path, graph: CodeGraph, config: JunitbotConfig,
    classpath: Classpath,
) -> tuple[list[_Work], list[Verdict]]:
    """Static passes; a method with an ERROR is dropped, the rest of its class written under `scratch/src` for
    compilation. An ERROR that concerns every method (see `error_scope`) rejects the class."""
    analyzer = DependencyAnalyzer(graph)
    packages = classpath_packages(classpath.entries)
    works: list[_Work] = []
    rejected: list[Verdict] = []
    for candidate in candidates:
        try:
            relative = safe_test_path(candidate.path)
            subject, context = _subject(candidate.target, graph, analyzer)
        except JunitbotError as e:
            rejected.append(_rejected(candidate, "input", "bad-candidate", str(e)))
            continue
        issues = run_static_checks(candidate, subject=subject, context=context, frameworks=classpath.frameworks,
                                   settings=config.validation, class_info=graph.class_info,
                                   known_packages=packages)
        scope = error_scope(candidate.source, issues)
        dropped = {method: f"static check: {issue.message}" for method, issue in scope.methods.items()}
        names = parse_test_class(candidate.source).test_names
        if scope.file is not None or not set(names) - set(dropped):
            whole = f"static check: {scope.file.message}" if scope.file is not None else None
            rejected.append(Verdict(path=candidate.path, target=subject and subject.fqn, kept=False,
                                    issues=tuple(issues),
                                    methods=tuple(MethodVerdict(name=m, kept=False, reason=whole or dropped[m])
                                                  for m in names)))
            continue
        source = prune_tests(candidate.source, dropped) if dropped else candidate.source
        file = scratch / "src" / relative
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(source, encoding="utf-8")
        works.append(_Work(candidate=candidate.model_copy(update={"target": subject and subject.fqn}),
                           test_class=test_class_name(candidate), file=file, source=source,
                           issues=list(issues), dropped=dropped))
    return works, rejected


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


def _compile(works: Sequence[_Work], scratch: Path, classpath: Sequence[str], repair: RepairContext,
             javac: ModuleJavac) -> None:
    """One javac per round for all that still fail: deterministic repairs to a fixpoint, then a test method that
    does not compile costs that method, not its class (`compile_in_rounds`)."""
    if not works:
        return
    outcomes = compile_in_rounds([w.file for w in works], repair=repair,
                                 javac=lambda files: javac(files, classpath=classpath, out_dir=scratch / "classes"))
    for work in works:
        outcome = outcomes[work.file]
        work.source, work.compiled, work.failure = outcome.source, outcome.compiled, outcome.failure
        work.repairs.extend(outcome.repairs)
        work.dropped.update(outcome.dropped)
        work.issues.extend(outcome.issues)


def _methods(works: Sequence[_Work]) -> dict[str, set[str]]:
    return {w.test_class: set(parse_test_class(w.source).test_names) for w in works}


def _judge_run(works: Sequence[_Work], cases: Sequence[TestCaseResult]) -> None:
    """Record each method's outcome in this run; a whole-class failure fails the class."""
    by_class: dict[str, list[TestCaseResult]] = defaultdict(list)
    for case in cases:
        by_class[case.test_class].append(case)
    for work in works:
        for case in by_class.get(work.test_class, []):
            if case.method == WHOLE_CLASS:
                work.failure = work.failure or _failure(case.status, case.message)
            else:
                work.outcomes[case.method].append((case.status, case.message))


def _failure(status: str, message: str | None) -> str:
    """A failed outcome as a verdict says it; what the guard refused is said as it is ("tried to ...")."""
    return _short(message) if status == "refused" else f"{status}: {_short(message)}"


def _settle(work: _Work) -> None:
    """Methods that failed in every run are dropped as failing; outcomes that differ are flaky; a method that tried
    what the guard refuses is dropped for that, in whichever run it tried."""
    for method, outcomes in work.outcomes.items():
        statuses = {status for status, _ in outcomes}
        if statuses == {"passed"}:
            continue
        message = next((m for s, m in outcomes if s != "passed"), None)
        if statuses <= {"passed", "skipped"} and work.candidate.written_by == "person":
            # A person's @Disabled or assumption is theirs to decide: said, not dropped (junitbot's own would add
            # nothing skipped, and go).
            work.issues.append(ValidationIssue(severity=Severity.WARNING, pass_name="junit", category="skipped",
                                               message=f"skipped: {_short(message)}", method=method))
            continue
        if "refused" in statuses:
            work.dropped[method] = _short(next(m for s, m in outcomes if s == "refused"))
        elif "passed" in statuses:
            work.flaky.append(method)
            work.dropped[method] = f"flaky: passed in some runs, {_first_failure(outcomes)} in others"
        else:
            work.dropped[method] = _failure(_first_failure(outcomes), message)


def _first_failure(outcomes: Sequence[tuple[str, str | None]]) -> str:
    return next(s for s, _ in outcomes if s != "passed")


def _short(message: str | None) -> str:
    lines = (message or "").strip().splitlines()
    return lines[0][:300] if lines else "no message"


def _prune_and_measure(
    works: Sequence[_Work], scratch: Path, classpath: Sequence[str], main_classes: Path, config: JunitbotConfig,
    isolation: str, state: StateDir, *, binary_name: Callable[[str], str], javac: ModuleJavac, graph: CodeGraph,
    module: Classpath, root: Path,
) -> dict[str, ClassCoverage]:
    """Remove dropped methods and the imports nothing uses any more, compile the changed classes, run what is kept
    once more under JaCoCo with per-test coverage, and keep only the methods that add something beyond the
    repository's own tests (`validation.require_gain`).

    Coverage is keyed by the classes' source names (`Money.Builder`; JaCoCo knows it as `Money$Builder`): the
    targets', or every main class's when a test names no class (to say which classes it exercised).
    """
    for work in works:
        # What a reviewer would reject (a pin of a mock's default answer, a duplicate) goes before measuring;
        # in a person's tests it is a finding to look at, not a reason to drop their method.
        findings = review_test_class(work.source)
        if work.candidate.written_by == "junitbot":
            for method, why in methods_to_drop(findings).items():
                work.dropped.setdefault(method, f"reviewer lint: {why}")
        else:
            work.issues.extend(ValidationIssue(severity=Severity.WARNING, pass_name="review", category=f.rule,
                                               message=f.message, line=f.line, method=f.method)
                               for f in findings if f.drops_method)
    keep = _tidy([w for w in works
                  if w.failure is None and set(parse_test_class(w.source).test_names) - set(w.dropped)],
                 scratch, classpath, javac)
    if not keep:
        return {}
    settings = config.validation
    named = sorted({w.candidate.target for w in keep if w.candidate.target is not None})
    targets = {binary_name(t): t for t in named}
    everything = any(w.candidate.target is None for w in keep)
    exec_file = scratch / "jacoco.exec"
    cache = state.root / "build" / "jacoco"
    includes = folder_includes(main_classes) if everything else package_includes(list(targets))
    agent = agent_option(exec_file=exec_file, includes=includes, cache_dir=cache, settings=settings,
                         tools_dir=state.tools)
    per_test = scratch / "per-test"
    listener = per_test_listener(classpath, cache_dir=cache, settings=settings, tools_dir=state.tools)
    cases = run_isolating(_methods(keep), [*classpath, str(listener)], scratch, RunConditions(order="name"), config,
                           isolation, agent, tools_dir=state.tools, java_home=javac.java_home,
                           junit_config=per_test_config(per_test), writable=[per_test], basedir=root / module.module)
    for case in cases:
        if case.status in ("passed", "skipped"):  # skipped: a person's @Disabled, kept in _settle
            continue
        work = next(w for w in keep if w.test_class == case.test_class)
        if case.method == WHOLE_CLASS:
            work.failure = f"failed when run again: {_short(case.message)}"
        else:
            work.dropped.setdefault(case.method, f"failed when run again: {_short(case.message)}")
    keep = [w for w in keep if w.failure is None]
    try:
        hits = per_test_hits(per_test)
    except JunitbotError as e:
        log.warning("per-test coverage could not be read; every passing method is kept: %s", e)
        hits = {}
    named_works = [w for w in keep if w.candidate.target is not None]
    for work in named_works:
        work.passed_source = prune_tests(work.source, work.dropped) if work.dropped else work.source
    if (settings.require_gain or settings.mutation) and hits and named_works:
        _keep_what_adds(named_works, hits, root=root, scratch=scratch, classpath=classpath, main_classes=main_classes,
                        config=config, isolation=isolation, state=state, binary_name=binary_name, graph=graph,
                        module=module, replaced=[w.candidate.path for w in works])
        keep = _tidy([w for w in keep if w.failure is None], scratch, classpath, javac)
    exec_files = _kept_exec_files(keep, per_test) if hits else [exec_file]
    if not exec_files:
        return {}
    try:
        measured = analyze_coverage(exec_files, [main_classes], cache_dir=cache,
                                    classes=None if everything else list(targets), tools_dir=state.tools,
                                    settings=settings)
    except JunitbotError as e:
        log.warning("coverage could not be measured: %s", e)
        return {}
    coverage = {targets.get(name, name.replace("$", ".")): c for name, c in measured.items()}
    for work in keep:
        if work.gain is not None and work.candidate.target in coverage:
            work.gain = _with_coverage(work, coverage[work.candidate.target], exec_files, main_classes, cache,
                                       state, settings, binary_name)
    return coverage


def _tidy(works: list[_Work], scratch: Path, classpath: Sequence[str], javac: ModuleJavac) -> list[_Work]:
    """Dropped methods and the imports nothing uses any more are removed, and the changed classes compiled."""
    pruned = []
    for work in works:
        # An import only a dropped method used, or one the class never used (`Mockito.*` in a class
        # without mocks), is left out of the kept class (issue "Real Maven builds ...": lint and review).
        # A fixture only dropped methods used goes with them.
        tidy = prune_tests(work.source, set(work.dropped)) if work.dropped else remove_unused_imports(work.source)
        if tidy != work.source:
            work.source = tidy
            work.file.write_text(work.source, encoding="utf-8")
            pruned.append(work)
    if pruned:
        results = javac([w.file for w in pruned], classpath=classpath, out_dir=scratch / "classes")
        for work in pruned:
            if not results[work.file].compiled:
                work.failure = "does not compile once failing methods and unused imports are removed"
    return [w for w in works if w.failure is None]


def _keep_what_adds(
    works: Sequence[_Work], hits: Mapping[str, ProbeHits], *, root: Path, scratch: Path, classpath: Sequence[str],
    main_classes: Path, config: JunitbotConfig, isolation: str, state: StateDir, binary_name: Callable[[str], str],
    graph: CodeGraph, module: Classpath, replaced: Sequence[str],
) -> None:
    """TestGen-LLM's filter with mutants: a method stays only if it covers an edge or kills a mutant that the
    existing tests of its class and the methods before it do not. A class whose own tests already do everything
    these tests do gets nothing, and says so. Without `validation.require_gain` nothing is dropped, but what each
    method adds and the suite before → after are measured all the same."""
    settings = config.validation
    targets = sorted({w.candidate.target for w in works if w.candidate.target is not None})
    try:
        baselines = measure_baselines(targets, root=root, graph=graph, classpath=module,
                                      main_classes=main_classes, state_root=state.root, tools_dir=state.tools,
                                      settings=settings, isolation=isolation, binary_name=binary_name,
                                      replaced=replaced, mutation=settings.mutation)
    except JunitbotError as e:  # the existing tests could not be measured: judge the new ones against nothing
        log.warning("the existing tests could not be measured as the baseline: %s", e)
        baselines = {t: Baseline(target=t, note=f"existing tests not measured: {e}") for t in targets}
    mutants = run_mutation_analysis(
        target_classes=[binary_name(t) for t in targets], test_classes=[w.test_class for w in works],
        classpath=classpath, workdir=scratch / "pit", history_file=_pit_history(state, module),
        tools_dir=state.tools, settings=settings, java_home=module.java_home) if settings.mutation else None
    if mutants is not None and (mutants.error or mutants.timed_out):
        log.warning("mutation analysis: %s", mutants.error or "PIT ran out of its time budget")
    for work in works:
        target = work.candidate.target or ""
        binary = binary_name(target)
        baseline = baselines[target]
        mine = _class_mutants(mutants, binary)
        kills: dict[str, set[str]] = defaultdict(set)
        for mutant in mine:
            for test in mutant.killing_tests:
                kills[test].add(mutant.key)
        methods = [m for m in parse_test_class(work.source).test_names if m not in work.dropped]
        gains = select_methods([f"{work.test_class}#{m}" for m in methods], hits=hits, kills=kills,
                               baseline_probes=baseline.probes, baseline_kills=baseline.mutants_killed,
                               classes=[binary])
        prune = settings.require_gain and work.candidate.written_by == "junitbot"
        for method in methods:
            gain = gains[f"{work.test_class}#{method}"]
            if gain.adds:
                work.adds[method] = gain.describe()
            elif prune:
                work.dropped[method] = NOTHING_NEW
        if not work.adds and prune:
            work.failure = ("its existing tests already cover and kill everything these tests do"
                            if not baseline.empty else NOTHING_NEW)
            continue
        kept_ids = {f"{work.test_class}#{m}" for m in methods if m not in work.dropped}
        total = len(mine) if mine else None
        generated = {m.key for m in mine if set(m.killing_tests) & kept_ids}
        # Without the existing tests' mutants (none, or PIT failed on them) only the generated alone are known.
        known = baseline.empty or baseline.mutants_total is not None
        work.gain = SuiteGain(
            existing_tests=baseline.tests,
            before=None if baseline.empty else _figures(
                baseline.coverage, len(baseline.mutants_killed) if total and known else None, total),
            generated=_figures(None, len(generated) if total else None, total),
            after=_figures(None, len(set(baseline.mutants_killed) | generated) if total and known else None, total),
            note=baseline.note)
        work.baseline_exec = baseline.exec_file
        # What no test kills yet, for the model's next round (issue 17: mutant-guided prompts, as Meta's ACH).
        killed = generated | set(baseline.mutants_killed)
        work.survivors = tuple(f"line {m.line}: {m.description or m.mutator} (in {m.method})"
                               for m in sorted(mine, key=lambda m: (m.line, m.key)) if m.key not in killed)


def _figures(coverage: ClassCoverage | None, killed: int | None, total: int | None) -> SuiteFigures:
    mutants = None if killed is None or total is None else Counter(covered=killed, missed=max(0, total - killed))
    if coverage is None:
        return SuiteFigures(mutants=mutants)
    return SuiteFigures(lines=coverage.lines, branches=coverage.branches, mutants=mutants)


def _with_coverage(work: _Work, generated: ClassCoverage, exec_files: Sequence[Path], main_classes: Path,
                   cache: Path, state: StateDir, settings: ValidationSettings,
                   binary_name: Callable[[str], str]) -> SuiteGain | None:
    """The gain with lines and branches: the kept methods' alone, and with the existing tests' (merged exec)."""
    gain = work.gain
    if gain is None:
        return None
    after = generated
    if work.baseline_exec is not None and Path(work.baseline_exec).is_file():
        binary = binary_name(work.candidate.target or "")
        try:
            merged = analyze_coverage([Path(work.baseline_exec), *exec_files], [main_classes], cache_dir=cache,
                                      classes=[binary], tools_dir=state.tools, settings=settings)
            after = merged.get(binary, generated)
        except JunitbotError as e:
            log.warning("the suite's coverage with the existing tests could not be measured: %s", e)
    return gain.model_copy(update={
        "generated": gain.generated.model_copy(update={"lines": generated.lines, "branches": generated.branches}),
        "after": gain.after.model_copy(update={"lines": after.lines, "branches": after.branches})})


def _class_mutants(report: MutationReport | None, binary: str) -> list[Mutant]:
    if report is None or report.error or report.timed_out:
        return []
    return [m for m in report.mutants if m.class_name == binary or m.class_name.startswith(binary + "$")]


def _kept_exec_files(works: Sequence[_Work], per_test: Path) -> list[Path]:
    """The per-test exec files of the kept methods and of their classes' own work (set-up, construction)."""
    owners = {w.test_class for w in works} | {f"{w.test_class}#{m}" for w in works
                                              for m in parse_test_class(w.source).test_names}
    return [path for owner, path in per_test_owners(per_test) if owner in owners]


def _pit_history(state: StateDir, module: Classpath) -> Path:
    return state.root / "pit" / (module.module.replace("/", "_") or "_root") / "history.bin"


def _verdict(work: _Work, coverage: Mapping[str, ClassCoverage]) -> Verdict:
    target = work.candidate.target
    methods = parse_test_class(work.candidate.source).test_names
    verdicts = tuple(
        MethodVerdict(name=m, kept=work.failure is None and m not in work.dropped,
                      reason=work.failure or work.dropped.get(m), adds=work.adds.get(m))
        for m in methods
    )
    kept = any(v.kept for v in verdicts)
    return Verdict(
        path=work.candidate.path,
        target=work.candidate.target,
        kept=kept,
        issues=tuple(work.issues),
        compiled=work.compiled,
        methods=verdicts,
        flaky=tuple(sorted(set(work.flaky))),
        coverage=coverage.get(target) if kept and target is not None else None,
        exercised=tuple(sorted(name for name, measured in coverage.items() if measured.lines.covered))
        if kept and target is None else (),
        source=work.source if kept else None,
        passed_source=work.passed_source if kept and work.passed_source != work.source else None,
        repairs=tuple(work.repairs),
        gain=work.gain if kept else None,
        survivors=work.survivors if kept else (),
    )

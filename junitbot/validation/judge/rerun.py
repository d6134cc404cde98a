"""rerun_tests: written test classes run as written against a build, each method's outcome with expected versus
actual (issue 15: run the generated tests before regenerating; tests that catch a change, run on the base commit;
publish only what passed).

As written means no repairs and no static passes: a repair would hide a signature change. One javac per module
and round: a method whose lines javac rejects is "not-compiled" with javac's message, removed with what only it
used, and the rest compiled again (`compile_in_rounds`, at most 3 removals); an error outside every method costs
the class. The compiled classes run once in one guarded, sandboxed JVM, as validation runs them (`run_isolating`);
a method that fails runs again alone, and passing then makes it "flaky", not a behaviour change. With coverage,
the JaCoCo line and branch coverage of each class's target by that class alone (per-test exec data).
Nothing is written into the repository: the work happens in a scratch folder under the state directory.
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

from junitbot.analysis import Span, parse_test_class
from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.state import StateDir
from junitbot.validation.build.classpath import discover_classpaths, resource_folders
from junitbot.validation.build.models import Classpath, ProjectClasspath
from junitbot.validation.candidates import safe_test_path, test_class_name
from junitbot.validation.compiling.main_classes import MainBuild, module_main_classes
from junitbot.validation.compiling.models import CompileOutcome
from junitbot.validation.compiling.rounds import ModuleJavac, compile_in_rounds
from junitbot.validation.judge.models import RerunClass, RerunReport, TestOutcome
from junitbot.validation.measure.jacoco import agent_option, analyze_coverage, package_includes
from junitbot.validation.measure.per_test import per_test_config, per_test_listener, per_test_owners
from junitbot.validation.models import TestCandidate, ValidationIssue
from junitbot.validation.run.expectations import expected_and_actual, thrown_value
from junitbot.validation.run.isolating import run_isolating
from junitbot.validation.run.launcher import WHOLE_CLASS
from junitbot.validation.run.models import RunConditions, TestCaseResult
from junitbot.validation.run.sandbox import detect_isolation

log = logging.getLogger(__name__)

_RETRIES = 20
"""At most this many failing methods of a module run again alone (a JVM each); the rest keep their failure."""
_Runner = Callable[[Mapping[str, Sequence[str]]], list[TestCaseResult]]
_SEVERITY = ("passed", "skipped", "failed", "error", "timeout", "refused")
"""A method with several cases (parameterized, repeated) ends as its worst."""


def rerun_tests(
    tests: Sequence[TestCandidate], *, root: Path, config: JunitbotConfig, state: StateDir,
    main_sources: Sequence[tuple[str, str]], classpath: ProjectClasspath | None = None, coverage: bool = True,
    commit: str | None = None,
) -> RerunReport:
    """Run `tests` as written against the build of `root`: its main sources (`main_sources`, (repo-relative path,
    blob sha) pairs, e.g. `graph.source_files(test=False)` or `worktrees.main_sources_at`) compiled for each
    module, or the build's own output where the module's `main_classes` lies inside `root` (a head's build output
    is never used for another tree, such as a base commit's worktree). One bad file never stops the others.
    """
    started = time.perf_counter()
    project = classpath or discover_classpaths(root, config.validation, state=state)
    groups: dict[str, list[TestCandidate]] = defaultdict(list)
    for test in tests:
        groups[project.module_for(test.path).module].append(test)
    modules = {m.module: m for m in project.modules}
    classes: list[RerunClass] = []
    notes: list[str] = []
    for module, group in sorted(groups.items()):
        classes += _rerun_module(group, root=root, config=config, state=state,
                                 module=modules.get(module, project.primary), main_sources=main_sources,
                                 coverage=coverage, notes=notes)
    return RerunReport(commit=commit, classes=tuple(sorted(classes, key=lambda c: c.path)),
                       seconds=round(time.perf_counter() - started, 3), notes=tuple(notes))


@dataclass
class _Written:
    """One test file on its way: as written, then as compiled."""

    test: TestCandidate
    test_class: str
    file: Path
    methods: tuple[str, ...]
    spans: Mapping[str, Span]  # each test method's lines in the file as written
    compiled: CompileOutcome | None = None
    outcomes: dict[tuple[str, str], TestOutcome] = field(default_factory=dict)
    note: str | None = None


def _rerun_module(
    tests: Sequence[TestCandidate], *, root: Path, config: JunitbotConfig, state: StateDir, module: Classpath,
    main_sources: Sequence[tuple[str, str]], coverage: bool, notes: list[str],
) -> list[RerunClass]:
    settings = config.validation
    scratch = Path(tempfile.mkdtemp(prefix="rerun-", dir=state.ensure().root))
    written, refused = _write(tests, scratch / "src")
    try:
        try:
            main = module_main_classes(root, main_sources, classpath=_own_build(module, root),
                                       cache_root=_main_cache(root, state))
        except JunitbotError as e:
            notes.append(f"module {module.module or '.'}: the main classes could not be built: {e}")
            return [*refused, *(_whole(w, f"main classes not built: {e}", compiled=False) for w in written)]
        if main.failed:
            notes.append(f"main sources that do not compile, left out: {', '.join(main.failed[:10])}")
        test_cp = [str(scratch / "classes"), str(main.classes_dir), *resource_folders(root, module), *module.entries]
        javac = ModuleJavac.for_module(root, module, timeout_s=settings.batch_timeout_s)
        outcomes = compile_in_rounds([w.file for w in written], repair=None,
                                     javac=lambda files: javac(files, classpath=test_cp, out_dir=scratch / "classes"))
        for work in written:
            work.compiled = outcomes[work.file]
            _not_compiled(work)
        runnable = [w for w in written if w.compiled is not None and w.compiled.compiled]
        measured = _run(runnable, root=root, config=config, state=state, module=module, main=main, test_cp=test_cp,
                        scratch=scratch, coverage=coverage, notes=notes)
        return [*refused, *(_result(w, measured.get(w.test_class)) for w in written)]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _write(tests: Sequence[TestCandidate], src: Path) -> tuple[list[_Written], list[RerunClass]]:
    """Each test's source under `src` at its path; a path that could escape is refused, said in its class."""
    written: list[_Written] = []
    refused: list[RerunClass] = []
    for test in tests:
        try:
            relative = safe_test_path(test.path)
        except JunitbotError as e:
            refused.append(RerunClass(path=test.path, test_class=test_class_name(test), target=test.target,
                                      compiled=False, outcomes=(), note=str(e)))
            continue
        file = src / relative
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(test.source, encoding="utf-8")
        parsed = parse_test_class(test.source)
        written.append(_Written(test=test, test_class=test_class_name(test), file=file, methods=parsed.test_names,
                                spans={m.name: m.span for m in parsed.test_methods}))
    return written, refused


def _own_build(module: Classpath, root: Path) -> Classpath:
    """The module's classpath, without the build's main classes when they are not `root`'s own (a base worktree
    run with the head's classpath must compile the base's sources, not reuse the head's classes)."""
    own = module.main_classes
    if own is None or Path(own).resolve().is_relative_to(root.resolve()):
        return module
    return module.model_copy(update={"main_classes": None})


def _main_cache(root: Path, state: StateDir) -> Path:
    """Where main classes compiled by junitbot are cached: validation's folder for the repository itself, one of
    its own for a tree in the state directory (a base worktree), so head and base builds do not replace each
    other (both are cached by content)."""
    inside = root.resolve().is_relative_to(state.root.resolve())
    if not inside:
        return state.root / "build" / "main"
    return state.root / "build" / "main-at" / root.resolve().relative_to(state.root.resolve()).as_posix().replace(
        "/", "_")


def _not_compiled(work: _Written) -> None:
    """The methods javac rejected, each with javac's message and line; the whole class when it did not compile."""
    outcome = work.compiled
    assert outcome is not None
    spans = work.spans
    first: dict[str, ValidationIssue] = {}
    for issue in outcome.issues:
        if issue.method is not None:
            first.setdefault(issue.method, issue)
    failing = set(outcome.dropped) | (set(work.methods) if not outcome.compiled else set())
    for method in sorted(failing):
        cause = first.get(method)
        span = spans.get(method)
        line = cause.line if cause is not None else None
        if span is not None and (line is None or not span.start_line <= line <= span.end_line):
            line = span.start_line  # found in a later round, whose lines moved: the method's own line
        message = cause.message if cause is not None else outcome.failure or outcome.dropped.get(method)
        work.outcomes[(work.test_class, method)] = TestOutcome(test_class=work.test_class, method=method,
                                                               status="not-compiled", message=message, line=line)
    if not outcome.compiled:
        work.note = outcome.failure or "does not compile"


def _run(
    works: Sequence[_Written], *, root: Path, config: JunitbotConfig, state: StateDir, module: Classpath,
    main: MainBuild, test_cp: Sequence[str], scratch: Path, coverage: bool, notes: list[str],
) -> dict[str, tuple[float | None, float | None]]:
    """Run the compiled classes once (under JaCoCo with `coverage`), the failing methods again alone; the
    coverage of each class's target by it, keyed by test class."""
    if not works:
        return {}
    settings = config.validation
    isolation = detect_isolation(settings.isolation)
    run_dir = scratch / "per-test"
    targets = {w.test_class: _binary_name(w.test.target, w.test_class, main.classes_dir) for w in works} \
        if coverage else {}
    measured = sorted({t for t in targets.values() if t is not None})
    classpath, agent, junit_config, writable = list(test_cp), None, None, []
    cache = state.root / "build" / "jacoco"
    try:
        if measured:
            agent = agent_option(exec_file=scratch / "jacoco.exec", includes=package_includes(measured),
                                 cache_dir=cache, settings=settings, tools_dir=state.tools)
            classpath.append(str(per_test_listener(test_cp, cache_dir=cache, settings=settings,
                                                   tools_dir=state.tools)))
            junit_config, writable = per_test_config(run_dir), [run_dir]
    except JunitbotError as e:
        notes.append(f"coverage not measured: {e}")
        classpath, agent, junit_config, writable, measured = list(test_cp), None, None, [], []

    def run(methods: Mapping[str, Sequence[str]], agent: str | None = None) -> list[TestCaseResult]:
        return run_isolating(methods, classpath if agent else test_cp, scratch, RunConditions(order="name"), config,
                             isolation, agent, tools_dir=state.tools, java_home=module.java_home,
                             junit_config=junit_config if agent else None, writable=writable if agent else (),
                             basedir=root / module.module)

    try:
        cases = run({w.test_class: [m for m in w.methods if (w.test_class, m) not in w.outcomes] for w in works},
                    agent)
    except JunitbotError as e:
        notes.append(f"the tests could not run: {e}")
        for work in works:
            work.note = work.note or f"did not run: {e}"
        return {}
    for work in works:
        _judge(work, [c for c in cases if c.test_class.partition("$")[0] == work.test_class])
        _lines_as_written(work)
    _retry_alone(works, run, notes)
    return _coverage(works, targets, run_dir, main, cache, state, config, notes) if measured else {}


def _judge(work: _Written, cases: Sequence[TestCaseResult]) -> None:
    """Each method's outcome from its cases (the worst of a parameterized method's); a whole-class failure (a JVM
    that died, a failing @BeforeAll) is the class's note and every method's outcome without a case of its own."""
    whole = next((c for c in cases if c.method == WHOLE_CLASS), None)
    by_method: dict[tuple[str, str], list[TestCaseResult]] = defaultdict(list)
    for case in cases:
        if case.method != WHOLE_CLASS:
            by_method[(case.test_class, case.method)].append(case)
    for key, own in by_method.items():
        worst = max(own, key=lambda c: _SEVERITY.index(c.status))
        work.outcomes[key] = _outcome(worst)
    if whole is not None:
        work.note = work.note or f"{whole.status}: {whole.message}"
    for method in work.methods:
        if (work.test_class, method) not in work.outcomes and not any(k[1] == method for k in by_method):
            stand_in = whole or TestCaseResult(test_class=work.test_class, method=method, status="error",
                                               message="JUnit reported no result for this method")
            work.outcomes[(work.test_class, method)] = _outcome(stand_in.model_copy(update={"method": method}))


def _lines_as_written(work: _Written) -> None:
    """The lines of the run are of the compiled source, from which methods that did not compile were removed: each
    goes back to the line of the file as written (the same line of the same member there)."""
    compiled = work.compiled
    if compiled is None or compiled.source == work.test.source:
        return
    written = {(m.owner, m.kind, m.names): m.span.start_line for m in parse_test_class(work.test.source).members}
    run = parse_test_class(compiled.source).members
    for key, outcome in work.outcomes.items():
        if outcome.line is None or outcome.status == "not-compiled":
            continue
        member = next((m for m in run if m.span.start_line <= outcome.line <= m.span.end_line
                       and m.kind != "class"), None)
        start = written.get((member.owner, member.kind, member.names)) if member is not None else None
        if member is not None and start is not None:
            work.outcomes[key] = outcome.model_copy(update={"line": start + outcome.line - member.span.start_line})


def _outcome(case: TestCaseResult) -> TestOutcome:
    """A case as an outcome: a failed assertion's expected and actual, an exception as the value it gave."""
    said = case.detail or case.message
    pair = expected_and_actual(said) if case.status in ("failed", "error", "timeout") else None
    expected, actual = pair if pair is not None else (None, None)
    if pair is None and case.status == "error":
        actual = thrown_value(case.message)  # an exception where a value was expected
    return TestOutcome(test_class=case.test_class, method=case.method, status=case.status, message=said,
                       expected=expected, actual=actual, line=case.line)


def _retry_alone(works: Sequence[_Written], run: _Runner, notes: list[str]) -> None:
    """Each failing method once more in a JVM of its own: passing then, it is flaky, not changed behaviour."""
    failing = [(w, key) for w in works for key, o in sorted(w.outcomes.items())
               if o.status in ("failed", "error", "timeout") and w.note is None]
    if len(failing) > _RETRIES:
        notes.append(f"{len(failing) - _RETRIES} failing methods were not run again alone (at most {_RETRIES})")
    for work, (test_class, method) in failing[:_RETRIES]:
        try:
            again = run({f"{test_class}#{method}": ()})
        except JunitbotError as e:
            log.info("%s#%s not run again: %s", test_class, method, e)
            continue
        own = [c for c in again if c.method == method]
        if own and all(c.status == "passed" for c in own):
            first = work.outcomes[(test_class, method)]
            work.outcomes[(test_class, method)] = first.model_copy(update={"status": "flaky"})


def _binary_name(target: str | None, test_class: str, classes_dir: Path) -> str | None:
    """The binary name of the class under test (`com.acme.Money.Builder` -> `com.acme.Money$Builder`) as compiled
    under `classes_dir`; a simple name is looked up in the test's package. None when there is no such class."""
    if not target:
        return None
    names = [target] if "." in target else [f"{test_class.rpartition('.')[0]}.{target}".lstrip("."), target]
    for name in names:
        parts = name.split(".")
        for split in range(len(parts), 0, -1):
            binary = ".".join(parts[:split]) + "".join(f"${p}" for p in parts[split:])
            if (classes_dir / (binary.replace(".", "/") + ".class")).is_file():
                return binary
    return None


def _coverage(
    works: Sequence[_Written], targets: Mapping[str, str | None], run_dir: Path, main: MainBuild, cache: Path,
    state: StateDir, config: JunitbotConfig, notes: list[str],
) -> dict[str, tuple[float | None, float | None]]:
    """Line and branch coverage of each class's target from the exec files of that class and its methods."""
    try:
        owners = per_test_owners(run_dir)
    except JunitbotError as e:
        notes.append(f"coverage not measured: {e}")
        return {}
    figures: dict[str, tuple[float | None, float | None]] = {}
    for work in works:
        target = targets.get(work.test_class)
        files = [f for owner, f in owners if owner.partition("#")[0].partition("$")[0] == work.test_class
                 and f.is_file() and f.stat().st_size > 0]
        if target is None or not files:
            continue
        try:
            found = analyze_coverage(files, [main.classes_dir], cache_dir=cache, classes=[target],
                                     tools_dir=state.tools, settings=config.validation)
        except JunitbotError as e:
            log.warning("coverage of %s by %s not measured: %s", target, work.test_class, e)
            continue
        if target in found:
            figures[work.test_class] = (found[target].lines.ratio, found[target].branches.ratio)
    return figures


def _whole(work: _Written, note: str, *, compiled: bool) -> RerunClass:
    return RerunClass(path=work.test.path, test_class=work.test_class, target=work.test.target, compiled=compiled,
                      outcomes=(), note=note)


def _result(work: _Written, coverage: tuple[float | None, float | None] | None) -> RerunClass:
    compiled = work.compiled is not None and work.compiled.compiled
    lines, branches = coverage or (None, None)
    return RerunClass(path=work.test.path, test_class=work.test_class, target=work.test.target, compiled=compiled,
                      outcomes=tuple(o for _, o in sorted(work.outcomes.items())), line_coverage=lines,
                      branch_coverage=branches, note=work.note)

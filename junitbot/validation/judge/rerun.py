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

import dataclasses
import logging
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from junitbot.analysis import Span, parse_test_class
from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.state import StateDir
from junitbot.validation.build.classpath import discover_classpaths
from junitbot.validation.build.models import Classpath, ProjectClasspath
from junitbot.validation.candidates import safe_test_path, test_class_name
from junitbot.validation.compiling.javac import compile_batch
from junitbot.validation.compiling.main_classes import module_main_classes
from junitbot.validation.compiling.models import CompileOutcome
from junitbot.validation.compiling.rounds import compile_in_rounds
from junitbot.validation.context import ValidationContext
from junitbot.validation.judge.models import Checkout, RerunClass, RerunReport, TestOutcome
from junitbot.validation.measure.jacoco import CoverageQuery, analyze_coverages, package_includes
from junitbot.validation.measure.per_test import per_test_owners
from junitbot.validation.models import TestCandidate, ValidationIssue
from junitbot.validation.run.expectations import expected_and_actual, thrown_value
from junitbot.validation.run.isolating import run_isolating
from junitbot.validation.run.models import WHOLE_CLASS, RunConditions, TestCaseResult

log = logging.getLogger(__name__)

_RETRIES = 20
"""At most this many failing methods of a module run again alone (a JVM each); the rest keep their failure."""
_Runner = Callable[[Mapping[str, Sequence[str]], bool], list[TestCaseResult]]
_SEVERITY = ("passed", "skipped", "failed", "error", "timeout", "refused")
"""A method with several cases (parameterized, repeated) ends as its worst."""
_Figures = tuple[float | None, float | None]  # line and branch coverage of a class's target


def rerun_tests(
    tests: Sequence[TestCandidate], *, tree: Checkout, settings: ValidationSettings, state: StateDir,
    classpath: ProjectClasspath | None = None, coverage: bool = True,
) -> RerunReport:
    """Run `tests` as written against the build of `tree`: its main sources (`graph.source_files(test=False)` or
    `main_sources_at`) compiled for each module, or the build's own output where the module's `main_classes` lies
    inside the tree (a head's build output is never used for another tree, such as a base commit's worktree).
    One bad file never stops the others.
    """
    started = time.perf_counter()
    project = classpath or discover_classpaths(tree.root, settings, state=state)
    groups: dict[str, list[TestCandidate]] = defaultdict(list)
    for test in tests:
        groups[project.module_for(test.path).module].append(test)
    modules = {m.module: m for m in project.modules}
    classes: list[RerunClass] = []
    notes: list[str] = []
    for module, group in sorted(groups.items()):
        found, said = _rerun_module(group, tree=tree, settings=settings, state=state,
                                    module=modules.get(module, project.primary), coverage=coverage)
        classes += found
        notes += said
    return RerunReport(commit=tree.commit, classes=tuple(sorted(classes, key=lambda c: c.path)),
                       seconds=round(time.perf_counter() - started, 3), notes=tuple(notes))


@dataclass(frozen=True)
class _Written:
    """One test file: as written, then as compiled and run (each step returns it updated)."""

    test: TestCandidate
    test_class: str
    file: Path
    methods: tuple[str, ...]
    spans: Mapping[str, Span]  # each test method's lines in the file as written
    compiled: CompileOutcome | None = None
    outcomes: Mapping[tuple[str, str], TestOutcome] = field(default_factory=dict)
    note: str | None = None


def _rerun_module(
    tests: Sequence[TestCandidate], *, tree: Checkout, settings: ValidationSettings, state: StateDir,
    module: Classpath, coverage: bool,
) -> tuple[list[RerunClass], list[str]]:
    """The module's tests compiled (no repairs) and run in a scratch folder; their results, and notes on the run."""
    scratch = Path(tempfile.mkdtemp(prefix="rerun-", dir=state.ensure().root))
    written, refused = _write(tests, scratch / "src")
    try:
        try:
            main = module_main_classes(tree.root, tree.main_sources, classpath=_own_build(module, tree.root),
                                       cache_root=_main_cache(tree.root, state))
        except JunitbotError as e:
            return ([*refused, *(_whole(w, f"main classes not built: {e}", compiled=False) for w in written)],
                    [f"module {module.module or '.'}: the main classes could not be built: {e}"])
        notes = [f"main sources that do not compile, left out: {', '.join(main.failed[:10])}"] if main.failed else []
        context = ValidationContext.for_module(tree.root, module, settings=settings, state=state, scratch=scratch,
                                               main_classes=main.classes_dir)
        outcomes = compile_in_rounds([w.file for w in written], repair=None, javac=lambda files: compile_batch(
            files, classpath=context.test_classpath, out_dir=context.classes_dir, options=context.javac))
        written = [_compiled(w, outcomes[w.file]) for w in written]
        ran, measured, said = _run([w for w in written if w.compiled is not None and w.compiled.compiled],
                                   context, coverage=coverage)
        latest = {w.file: w for w in ran}
        return ([*refused, *(_result(latest.get(w.file, w), measured.get(w.test_class)) for w in written)],
                [*notes, *said])
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


def _compiled(work: _Written, outcome: CompileOutcome) -> _Written:
    """The file after the compile rounds: the methods javac rejected, each with javac's message and line; the
    whole class's note when it did not compile."""
    first: dict[str, ValidationIssue] = {}
    for issue in outcome.issues:
        if issue.method is not None:
            first.setdefault(issue.method, issue)
    failing = set(outcome.dropped) | (set(work.methods) if not outcome.compiled else set())
    outcomes = dict(work.outcomes)
    for method in sorted(failing):
        cause = first.get(method)
        span = work.spans.get(method)
        line = cause.line if cause is not None else None
        if span is not None and (line is None or not span.start_line <= line <= span.end_line):
            line = span.start_line  # found in a later round, whose lines moved: the method's own line
        message = cause.message if cause is not None else outcome.failure or outcome.dropped.get(method)
        outcomes[(work.test_class, method)] = TestOutcome(test_class=work.test_class, method=method,
                                                          status="not-compiled", message=message, line=line)
    note = work.note if outcome.compiled else outcome.failure or "does not compile"
    return dataclasses.replace(work, compiled=outcome, outcomes=outcomes, note=note)


def _run(
    works: Sequence[_Written], context: ValidationContext, *, coverage: bool,
) -> tuple[list[_Written], dict[str, _Figures], list[str]]:
    """Run the compiled classes once (under JaCoCo with `coverage`), the failing methods again alone; the files
    after the run, the coverage of each class's target by it (keyed by test class), and notes on the run."""
    if not works:
        return [], {}, []
    notes: list[str] = []
    run_dir = context.scratch / "per-test"
    targets = {w.test_class: _binary_name(w.test.target, w.test_class, context.main_classes) for w in works} \
        if coverage else {}
    measured = sorted({t for t in targets.values() if t is not None})
    plain = (list(context.test_classpath), context.launch())
    covering = plain
    if measured:
        try:
            covering = context.covered_launch(context.test_classpath, includes=package_includes(measured),
                                              exec_file=context.scratch / "jacoco.exec", per_test=run_dir)
        except JunitbotError as e:
            notes.append(f"coverage not measured: {e}")
            measured = []

    def run(methods: Mapping[str, Sequence[str]], covered: bool = False) -> list[TestCaseResult]:
        classpath, launch = covering if covered else plain
        return run_isolating(methods, classpath=classpath, workdir=context.scratch / "run",
                             conditions=RunConditions(order="name"), launch=launch)

    try:
        cases = run({w.test_class: [m for m in w.methods if (w.test_class, m) not in w.outcomes] for w in works},
                    True)
    except JunitbotError as e:
        notes.append(f"the tests could not run: {e}")
        return [dataclasses.replace(w, note=w.note or f"did not run: {e}") for w in works], {}, notes
    works = [_lines_as_written(_judge(w, [c for c in cases if c.test_class.partition("$")[0] == w.test_class]))
             for w in works]
    works, said = _retry_alone(works, run)
    if not measured:
        return works, {}, [*notes, *said]
    figures, uncovered = _coverage(works, targets, run_dir, context)
    return works, figures, [*notes, *said, *uncovered]


def _judge(work: _Written, cases: Sequence[TestCaseResult]) -> _Written:
    """Each method's outcome from its cases (the worst of a parameterized method's); a whole-class failure (a JVM
    that died, a failing @BeforeAll) is the class's note and every method's outcome without a case of its own."""
    whole = next((c for c in cases if c.method == WHOLE_CLASS), None)
    by_method: dict[tuple[str, str], list[TestCaseResult]] = defaultdict(list)
    for case in cases:
        if case.method != WHOLE_CLASS:
            by_method[(case.test_class, case.method)].append(case)
    outcomes = dict(work.outcomes)
    for key, own in by_method.items():
        worst = max(own, key=lambda c: _SEVERITY.index(c.status))
        outcomes[key] = _outcome(worst)
    note = (work.note or f"{whole.status}: {whole.message}") if whole is not None else work.note
    for method in work.methods:
        if (work.test_class, method) not in outcomes and not any(k[1] == method for k in by_method):
            stand_in = whole or TestCaseResult(test_class=work.test_class, method=method, status="error",
                                               message="JUnit reported no result for this method")
            outcomes[(work.test_class, method)] = _outcome(stand_in.model_copy(update={"method": method}))
    return dataclasses.replace(work, outcomes=outcomes, note=note)


def _lines_as_written(work: _Written) -> _Written:
    """The lines of the run are of the compiled source, from which methods that did not compile were removed: each
    goes back to the line of the file as written (the same line of the same member there)."""
    compiled = work.compiled
    if compiled is None or compiled.source == work.test.source:
        return work
    written = {(m.owner, m.kind, m.names): m.span.start_line for m in parse_test_class(work.test.source).members}
    run = parse_test_class(compiled.source).members
    outcomes = dict(work.outcomes)
    for key, outcome in work.outcomes.items():
        if outcome.line is None or outcome.status == "not-compiled":
            continue
        member = next((m for m in run if m.span.start_line <= outcome.line <= m.span.end_line
                       and m.kind != "class"), None)
        start = written.get((member.owner, member.kind, member.names)) if member is not None else None
        if member is not None and start is not None:
            outcomes[key] = outcome.model_copy(update={"line": start + outcome.line - member.span.start_line})
    return dataclasses.replace(work, outcomes=outcomes)


def _outcome(case: TestCaseResult) -> TestOutcome:
    """A case as an outcome: a failed assertion's expected and actual, an exception as the value it gave."""
    said = case.detail or case.message
    pair = expected_and_actual(said) if case.status in ("failed", "error", "timeout") else None
    expected, actual = pair if pair is not None else (None, None)
    if pair is None and case.status == "error":
        actual = thrown_value(case.message)  # an exception where a value was expected
    return TestOutcome(test_class=case.test_class, method=case.method, status=case.status, message=said,
                       expected=expected, actual=actual, line=case.line)


def _retry_alone(works: Sequence[_Written], run: _Runner) -> tuple[list[_Written], list[str]]:
    """Each failing method once more in a JVM of its own: passing then, it is flaky, not changed behaviour."""
    failing = [(w.file, key) for w in works for key, o in sorted(w.outcomes.items())
               if o.status in ("failed", "error", "timeout") and w.note is None]
    notes = ([f"{len(failing) - _RETRIES} failing methods were not run again alone (at most {_RETRIES})"]
             if len(failing) > _RETRIES else [])
    flaky: set[tuple[Path, tuple[str, str]]] = set()
    for file, (test_class, method) in failing[:_RETRIES]:
        try:
            again = run({f"{test_class}#{method}": ()}, False)
        except JunitbotError as e:
            log.info("%s#%s not run again: %s", test_class, method, e)
            continue
        own = [c for c in again if c.method == method]
        if own and all(c.status == "passed" for c in own):
            flaky.add((file, (test_class, method)))
    return [dataclasses.replace(w, outcomes={key: o.model_copy(update={"status": "flaky"})
                                             if (w.file, key) in flaky else o for key, o in w.outcomes.items()})
            if any(f == w.file for f, _ in flaky) else w for w in works], notes


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
    works: Sequence[_Written], targets: Mapping[str, str | None], run_dir: Path, context: ValidationContext,
) -> tuple[dict[str, _Figures], list[str]]:
    """Line and branch coverage of each class's target from the exec files of that class and its methods; and a
    note when the per-test data cannot be read."""
    try:
        owners = per_test_owners(run_dir)
    except JunitbotError as e:
        return {}, [f"coverage not measured: {e}"]
    asked: list[tuple[str, str, list[Path]]] = []
    for work in works:
        target = targets.get(work.test_class)
        files = [f for owner, f in owners if owner.partition("#")[0].partition("$")[0] == work.test_class
                 and f.is_file() and f.stat().st_size > 0]
        if target is not None and files:
            asked.append((work.test_class, target, files))
    answers = analyze_coverages([CoverageQuery(tuple(files), (target,)) for _, target, files in asked],
                                [context.main_classes], cache_dir=context.helper_cache, tools_dir=context.tools_dir,
                                settings=context.settings)
    figures: dict[str, _Figures] = {}
    for (test_class, target, _), found in zip(asked, answers, strict=True):
        if isinstance(found, JunitbotError):
            log.warning("coverage of %s by %s not measured: %s", target, test_class, found)
        elif target in found:
            figures[test_class] = (found[target].lines.ratio, found[target].branches.ratio)
    return figures, []


def _whole(work: _Written, note: str, *, compiled: bool) -> RerunClass:
    return RerunClass(path=work.test.path, test_class=work.test_class, target=work.test.target, compiled=compiled,
                      outcomes=(), note=note)


def _result(work: _Written, coverage: _Figures | None) -> RerunClass:
    compiled = work.compiled is not None and work.compiled.compiled
    lines, branches = coverage or (None, None)
    return RerunClass(path=work.test.path, test_class=work.test_class, target=work.test.target, compiled=compiled,
                      outcomes=tuple(o for _, o in sorted(work.outcomes.items())), line_coverage=lines,
                      branch_coverage=branches, note=work.note)

"""Compiling test classes in rounds: deterministic repairs to a fixpoint, then a test method that still does not
compile costs that method, not its class (issue 18).

Each round is one javac over every file still failing: javac's start costs about a second, so the rounds, not
the files, set the time. A failing file gets the repairs its errors call for; once none applies, or its errors
come back as they were, each test method an error lies in is removed with what only it used, and the rest is
compiled again. javac reports flow errors (an unreported exception) only for a class that otherwise attributes,
so a repair may follow a removal. An error outside every test method (an import, a field, a helper or set-up
method the tests share) costs the class, and its reason says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from junitbot.analysis import Span, check_statements, parse_test_class, prune_tests, remove_statements
from junitbot.validation.build.classpath import test_sources
from junitbot.validation.build.models import Classpath
from junitbot.validation.compiling.models import CompileOutcome, CompileResult, JavacOptions
from junitbot.validation.compiling.repair import RepairContext, repair_compile_errors
from junitbot.validation.models import Severity, ValidationIssue

# Bounds per file, so the rounds end (at most 1 + 4 + 3 javac calls, whatever the number of files).
REPAIR_ROUNDS = 4
REMOVAL_ROUNDS = 3

Javac = Callable[[Sequence[Path]], Mapping[Path, CompileResult]]


def module_javac(root: Path, module: Classpath, *, timeout_s: float) -> JavacOptions:
    """How the module's tests compile, as the build compiles them: its release, JDK and annotation processors, and
    its test sources (helpers, base classes) on `-sourcepath`."""
    return JavacOptions(release=module.release, processor_path=module.processor_path, java_home=module.java_home,
                        timeout_s=timeout_s, source_path=tuple(test_sources(root, module)))


@dataclass
class _File:
    """One file on its way through the rounds."""

    file: Path
    source: str
    compiled: bool = False
    repairs: list[str] = field(default_factory=list)
    dropped: dict[str, str] = field(default_factory=dict)
    costs: list[ValidationIssue] = field(default_factory=list)  # the errors that cost a method
    issues: tuple[ValidationIssue, ...] = ()
    failure: str | None = None
    seen: set[frozenset[tuple[str, str]]] = field(default_factory=set)
    repaired: int = 0
    removed: int = 0
    salvaged: bool = False

    def edit(self, source: str) -> None:
        self.source = source
        self.file.write_text(source, encoding="utf-8")

    def fail(self, why: str, errors: Sequence[ValidationIssue]) -> bool:
        self.failure, self.issues = why, (*self.costs, *errors)
        return False

    def outcome(self) -> CompileOutcome:
        return CompileOutcome(path=str(self.file), source=self.source, compiled=self.compiled,
                              repairs=tuple(self.repairs), dropped=self.dropped, issues=self.issues,
                              failure=self.failure)


def compile_in_rounds(files: Sequence[Path], *, javac: Javac,
                      repair: RepairContext | None) -> dict[Path, CompileOutcome]:
    """Compile `files` (their sources on disk, rewritten as they are repaired) with one `javac` call per round;
    each file's outcome: the source that compiled, its repairs and removed methods, or why it did not.
    `repair` None: tests as written, no repairs (a repair would hide what changed: issue 15), only removals."""
    states = [_File(file=f, source=f.read_text(encoding="utf-8")) for f in files]
    pending = states
    while pending:
        results = javac([s.file for s in pending])
        pending = [s for s in pending if _next_round(s, results[s.file], repair)]
    return {s.file: s.outcome() for s in states}


def _next_round(state: _File, result: CompileResult, context: RepairContext | None) -> bool:
    """Take one round's result; True when the file was changed and goes to the next round."""
    if result.compiled:
        state.compiled, state.issues = True, (*state.costs, *result.issues)  # what cost a method stays said
        return False
    errors = [i for i in result.issues if i.severity is Severity.ERROR]
    return (context is not None and (_repair(state, errors, context) or _drop_failing_checks(state, errors))) or \
        _remove_failing_tests(state, errors)


def _repair(state: _File, errors: Sequence[ValidationIssue], context: RepairContext) -> bool:
    """Apply the deterministic repairs, unless the bound is reached or the errors are those of an earlier round
    (then the repairs did not help). Lines move as imports are added, so errors compare without them."""
    key = frozenset((i.category, i.message) for i in errors)
    if key in state.seen or state.repaired == REPAIR_ROUNDS:
        return False
    state.seen.add(key)
    fixed, applied = repair_compile_errors(state.source, errors, context)
    if fixed == state.source:
        return False
    state.repaired += 1
    state.repairs.extend(applied)
    state.edit(fixed)
    return True


def _drop_failing_checks(state: _File, errors: Sequence[ValidationIssue]) -> bool:
    """Salvage at statement level (issue 29: a model's twelve right set-ups were lost to one assertion each on a
    method that does not exist): where every error of a test method lies in its checking statements and the method
    keeps another check, those statements go and the method stays. False when nothing could be salvaged."""
    if state.salvaged:
        return False
    checks = check_statements(state.source)
    parsed = parse_test_class(state.source)
    doomed: dict[str, list[Span]] = {}
    for error in errors:
        owner = parsed.test_at(error.line)
        span = next((s for s in checks.get(owner or "", ()) if error.line is not None
                     and s.start_line <= error.line <= s.end_line), None)
        if owner is None or span is None:
            doomed.pop(owner or "", None)
            checks.pop(owner or "", None)  # an error outside its checks: the method is judged whole
            continue
        doomed.setdefault(owner, []).append(span)
    spans = [s for owner, found in doomed.items() if len(set(found)) < len(checks.get(owner, ())) for s in found]
    if not spans:
        return False
    state.salvaged = True
    state.repairs.append(f"removed {len(set(spans))} checking statements that do not compile, keeping their "
                         f"methods: {', '.join(sorted(o for o in doomed if any(s in spans for s in doomed[o])))}")
    state.edit(remove_statements(state.source, set(spans)))
    return True


def _remove_failing_tests(state: _File, errors: Sequence[ValidationIssue]) -> bool:
    """Remove the test methods the errors lie in; False, with the class's failure, when an error lies outside
    every test method, when no test method would be left, or when the bound is reached."""
    if not errors:
        return state.fail("does not compile: javac failed without naming an error", errors)
    parsed = parse_test_class(state.source)
    owners = [parsed.test_at(i.line) for i in errors]
    # The method an error lies in, named: the lines are of this round's source, which the report does not show.
    errors = [i.model_copy(update={"method": o}) if o is not None else i for o, i in zip(owners, errors, strict=True)]
    if None in owners:
        outside = errors[owners.index(None)]
        where = f"line {outside.line}: " if outside.line is not None else ""
        shared = " (outside its test methods, so it costs the class)" if outside.line is not None else ""
        return state.fail(f"does not compile: {where}{_first_line(outside.message)}{shared}", errors)
    owned = [(owner, issue) for owner, issue in zip(owners, errors, strict=True) if owner is not None]
    first: dict[str, ValidationIssue] = {}
    for owner, issue in owned:
        first.setdefault(owner, issue)
    tests = set(parsed.test_names)
    if tests <= set(first):
        name, issue = owned[0]
        which = (f"its only test method {name}() has an error" if len(tests) == 1
                 else f"every test method has an error; the first, in {name}()")
        return state.fail(f"does not compile: {which}: line {issue.line}: {_first_line(issue.message)}", errors)
    pruned = prune_tests(state.source, set(first))
    if state.removed == REMOVAL_ROUNDS or pruned == state.source:
        return state.fail(f"does not compile, even after {state.removed} rounds of removing test methods: "
                          f"line {errors[0].line}: {_first_line(errors[0].message)}", errors)
    state.removed += 1
    for name, issue in first.items():
        state.dropped[name] = f"does not compile: {_first_line(issue.message)}"
    state.costs += [issue for _, issue in owned]
    state.edit(pruned)
    return True


def _first_line(message: str) -> str:
    lines = message.strip().splitlines()
    return lines[0][:300] if lines else "no message"

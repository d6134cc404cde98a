"""Catching changes: what a push changed, member by member, and what junitbot's own tests say about it.

Before anything is regenerated, the generated tests of the changed classes and of the dependents that use a changed
member run on the new head, as written. A test that fails there is a behaviour change: it is reported first, never
silently re-pinned. Only the classes whose tests changed outcome, lost coverage or have none yet are regenerated;
the rest are left alone, so a refactoring gives no pull request churn. After generation, the new tests of changed
classes also run on the base commit (in a worktree of its own): one that fails there catches this change.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path

from junitbot.analysis import (
    CodeGraph,
    MemberChange,
    MemberUse,
    change_impact,
    changed_members,
    is_test_path,
    parse_test_class,
    prune_tests,
)
from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.generation import GenerationResult, generated_target
from junitbot.generation.models import CHANGED_CONSTRUCTOR
from junitbot.generation.output import test_path
from junitbot.runs.history import CoverageEntry, load_coverage
from junitbot.runs.models import BehaviourChange, CatchingTest, ChangeCheck, RunPlan
from junitbot.runs.report import member_label, percent
from junitbot.runs.targets import selected_by_config
from junitbot.state import StateDir
from junitbot.validation import (
    Checkout,
    RerunClass,
    RerunReport,
    TestCandidate,
    TestOutcome,
    Verdict,
    base_classpath,
    base_worktree,
    discover_classpaths,
    main_sources_at,
    rerun_tests,
)
from junitbot.validation.judge.selection import adds_nothing

log = logging.getLogger(__name__)

_NOT_A_FAILURE = ("passed", "skipped", "flaky")
# What a changed member must be for a new test of it to be able to fail on the base: it existed there.
_EXISTED_AT_BASE = ("body", "signature", "field", "type")


def check_changes(root: Path, config: JunitbotConfig, state: StateDir, plan: RunPlan,
                  graph: CodeGraph) -> ChangeCheck | None:
    """For an incremental run (a base commit and changed files): the changed members, their users, the generated
    tests of both run on the work tree, and which classes to regenerate (`regenerated`) or leave (`left_alone`).

    None for full passes and named classes, which regenerate what they name."""
    if plan.base is None or plan.changed_paths is None or plan.classes:
        return None
    started = time.perf_counter()
    rows = {row.fqn: row for row in graph.types()}
    test_paths = {row.path for row in rows.values() if row.is_test}
    sources = [p for p in plan.changed_paths if p.endswith(".java") and p not in test_paths and not is_test_path(p)]
    try:
        changes = tuple(changed_members(root, plan.base, None, sources))
    except JunitbotError as e:  # the base is gone (a shallow clone): class-level impact, as before
        log.warning("what changed since %s cannot be read (%s): every dependent is a target", plan.base[:12], e)
        return None
    main = {fqn for fqn, row in rows.items() if not row.is_test and selected_by_config(row.path, config)}
    changed = sorted({c.owner for c in changes} & main)
    all_uses, touched = change_impact(graph, changes, depth=config.impact_depth)
    uses = {user: found for user, found in all_uses.items() if user in main and user not in changed}
    tests = _generated_tests(root, graph, config, [*changed, *uses])
    tick = time.perf_counter()
    notes: list[str] = []
    rerun = None
    try:
        rerun = rerun_tests([TestCandidate(path=path, source=source, target=target)
                             for target, (path, source) in sorted(tests.items())],
                            tree=Checkout(root=root, main_sources=tuple(graph.source_files(test=False)),
                                          commit=plan.head),
                            settings=config.validation, state=state, coverage=True) if tests else None
    except JunitbotError as e:  # every class with tests is then regenerated ("could not run"), nothing is lost
        log.warning("the generated tests could not run on the head: %s", e)
        notes.append(f"the generated tests could not run on the head: {e}")
    seconds = {"members": round(tick - started, 3), "rerun": round(time.perf_counter() - tick, 3)}
    by_target = {c.target: c for c in rerun.classes} if rerun else {}
    regenerated, probing, left_alone = _classify(changed, uses, changes, by_target, load_coverage(state), tests)
    changed_files = set(sources)
    for fqn in sorted(fqn for fqn, row in rows.items() if fqn in main and row.path in changed_files
                      and fqn not in regenerated and fqn not in left_alone):
        left_alone[fqn] = "its file changed, but no member of it did (comments or formatting)"
    found = tuple(_behaviour_changes(rerun.classes if rerun else (), changes, uses, plan.head,
                                     {path: source for path, source in tests.values()}))
    flaky = tuple(f"{o.test_class}.{o.method}" for c in (rerun.classes if rerun else ()) for o in c.outcomes
                  if o.status == "flaky")
    return ChangeCheck(base=plan.base, head=plan.head, member_changes=changes, uses=uses,
                       touched={fqn: names for fqn, names in touched.items() if fqn in main},
                       rerun=tuple(sorted(path for path, _ in tests.values())), behaviour_changes=found, flaky=flaky,
                       regenerated=regenerated, probing=probing, left_alone=left_alone,
                       notes=(*notes, *(rerun.notes if rerun else ())), seconds=seconds)


def catch_changes(root: Path, config: JunitbotConfig, state: StateDir, check: ChangeCheck | None,
                  result: GenerationResult) -> tuple[ChangeCheck | None, GenerationResult]:
    """The new tests of classes whose existing members changed, run on the base commit (a worktree cached by
    commit): a method that passed here and fails there catches this change. It is kept even where the gain rule
    had dropped it for covering nothing new (Meta's ACH keeps exactly these). A class regenerated only to look
    for such tests (`probing`) that found none keeps its old tests: it moves to `left_alone` and is not written."""
    if check is None or check.base is None:
        return check, result
    existed = {c.owner for c in check.member_changes if c.kind in _EXISTED_AT_BASE}
    verdicts = to_run_on_base(result.validation.verdicts if result.validation else (), existed)
    catching: tuple[CatchingTest, ...] = ()
    notes = list(check.notes)
    started = time.perf_counter()
    if verdicts:
        try:
            rerun = _run_on_base(root, config, state, check.base, [
                TestCandidate(path=v.path, source=v.passed_source or v.source or "", target=v.target)
                for v in verdicts])
        except JunitbotError as e:
            log.warning("the new tests could not run on the base %s: %s", check.base[:12], e)
            notes.append(f"the new tests could not run on the base {check.base[:12]}: {e}")
        else:
            notes += rerun.notes
            catching = fewest_put_back(tuple(_catching(verdicts, rerun, check.base)), verdicts)
            result = _keep_catching(result, catching)
    caught = {c.target for c in catching}
    unfruitful = [fqn for fqn in check.probing if fqn not in caught]
    left_alone = {**check.left_alone, **dict.fromkeys(unfruitful, "changed, but its generated tests still pass, cover "
                                                      "as much as before, and no new test fails before the change")}
    regenerated = {fqn: why for fqn, why in check.regenerated.items() if fqn not in unfruitful}
    seconds = {**check.seconds, "base": round(time.perf_counter() - started, 3)}
    return check.model_copy(update={"catching": catching, "regenerated": regenerated, "left_alone": left_alone,
                                    "seconds": seconds, "notes": tuple(notes)}), result


def touched_methods(check: ChangeCheck) -> dict[str, tuple[str, ...]]:
    """By class: the names of its methods a change touched (their bodies or signatures, or new ones), and of those
    that call a touched member, in its own class (a public method over a fixed private helper) or through which a
    user calls it; a run tries them with more inputs, since a change shows only on inputs that take its new path
    (CODEC-311's letters outside ASCII). `<init>` says a constructor changed."""
    found: dict[str, set[str]] = {fqn: set(names) for fqn, names in check.touched.items()}
    for change in check.member_changes:
        if change.kind in ("body", "signature", "added") and "/" in change.member:
            found.setdefault(change.owner, set()).add(change.member.split("/", 1)[0])
    for user, uses in check.uses.items():
        found.setdefault(user, set()).update(u.via.split("/", 1)[0] for u in uses if "/" in u.via)
    # A changed constructor stays (`<init>`): every instance method reads the state it builds (CODEC-338).
    return {fqn: tuple(sorted(n for n in names if n == CHANGED_CONSTRUCTOR or not n.startswith("<")))
            for fqn, names in found.items()}


def to_run_on_base(verdicts: Sequence[Verdict], existed: Collection[str]) -> list[Verdict]:
    """The verdicts of classes that existed at the base whose passing methods run there: those kept, and those whose
    every method was dropped only for adding nothing to the suite (they passed, and one may catch this change)."""
    return [v for v in verdicts if v.target in existed and (
        (v.kept and v.source) or (v.passed_source and all(adds_nothing(m.reason) for m in v.methods)))]


def _catching(verdicts: Sequence[Verdict], rerun: RerunReport, base: str) -> Iterable[CatchingTest]:
    """Methods that passed on the head (kept, or dropped only for adding nothing) and fail on the base."""
    passed = {(v.path, m.name) for v in verdicts for m in v.methods if m.kept or adds_nothing(m.reason)}
    for ran in rerun.classes:
        for outcome in ran.outcomes:
            if (ran.path, outcome.method) in passed and outcome.status in ("failed", "error", "timeout"):
                yield CatchingTest(target=ran.target or "", test_path=ran.path, method=outcome.method,
                                   base_commit=base, base_failure=_outcome_text(outcome))


# Catching methods put back per test class beyond those kept anyway: one fix often fails several sibling inputs
# (CODEC-313: six short inputs of a strict codec), and a maintainer needs one or two to see what changed.
_PUT_BACK = 2


def fewest_put_back(catching: Sequence[CatchingTest], verdicts: Sequence[Verdict]) -> tuple[CatchingTest, ...]:
    """The catching methods worth keeping: every one the gain rule kept, and of those it dropped at most `_PUT_BACK`
    per test class, other acted-on methods first (`encode_...` before a second `encodeQuotedPrintable_...`)."""
    kept = {(v.path, m.name) for v in verdicts for m in v.methods if m.kept}
    chosen: list[CatchingTest] = []
    by_path: dict[str, list[CatchingTest]] = {}
    for test in catching:
        (chosen if (test.test_path, test.method) in kept else by_path.setdefault(test.test_path, [])).append(test)
    for tests in by_path.values():
        firsts: dict[str, CatchingTest] = {}
        for test in tests:
            firsts.setdefault(test.method.split("_", 1)[0], test)
        chosen += [*firsts.values(), *(t for t in tests if t not in firsts.values())][:_PUT_BACK]
    return tuple(t for t in catching if t in chosen)


def _keep_catching(result: GenerationResult, catching: Sequence[CatchingTest]) -> GenerationResult:
    """`result` with each catching method kept, put back from the passing source where the gain rule dropped it."""
    wanted: dict[str, set[str]] = {}
    for test in catching:
        wanted.setdefault(test.test_path, set()).add(test.method)
    if result.validation is None or not wanted:
        return result
    verdicts = []
    for verdict in result.validation.verdicts:
        names = wanted.get(verdict.path, set())
        back = {m.name for m in verdict.methods if m.name in names and not m.kept}
        if not back or verdict.passed_source is None:
            verdicts.append(verdict)
            continue
        keep = {m.name for m in verdict.methods if m.kept} | back
        source = prune_tests(verdict.passed_source, {m.name for m in verdict.methods if m.name not in keep})
        methods = tuple(m.model_copy(update={"kept": True, "reason": None, "adds": "fails before this change: it "
                                             "catches it"}) if m.name in back else m for m in verdict.methods)
        verdicts.append(verdict.model_copy(update={"source": source, "methods": methods, "kept": True}))
    sources = {v.path: v.source for v in verdicts}
    candidates = tuple(c.model_copy(update={"source": sources.get(c.path) or c.source}) for c in result.candidates)
    return result.model_copy(update={"validation": result.validation.model_copy(update={"verdicts": tuple(verdicts)}),
                                     "candidates": candidates})


def _run_on_base(root: Path, config: JunitbotConfig, state: StateDir, base: str,
                 tests: Sequence[TestCandidate]) -> RerunReport:
    """The tests compiled and run against the main classes of `base`, built in its own worktree; the head's
    dependencies (the classpath of the build) are kept, its compiled classes are not."""
    project = base_classpath(discover_classpaths(root, config.validation, state=state))
    tree = Checkout(root=base_worktree(root, base, state),
                    main_sources=tuple(main_sources_at(root, base, ignore=config.ignore)), commit=base)
    return rerun_tests(tests, tree=tree, settings=config.validation, state=state, classpath=project, coverage=False)


def _generated_tests(root: Path, graph: CodeGraph, config: JunitbotConfig,
                     targets: Iterable[str]) -> dict[str, tuple[str, str]]:
    """target → (path, source) of its generated test in the work tree, where junitbot's marker says it is its."""
    found: dict[str, tuple[str, str]] = {}
    for fqn in targets:
        info = graph.class_info(fqn)
        if info is None:
            continue
        path = test_path(info.fqn, info.package, info.file, suffix=config.generation.test_suffix)
        try:
            source = (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if generated_target(source) == fqn:
            found[fqn] = (path, source)
    return found


def _classify(changed: Sequence[str], uses: Mapping[str, Sequence[MemberUse]], changes: Sequence[MemberChange],
              reruns: Mapping[str | None, RerunClass], history: Mapping[str, CoverageEntry],
              tests: Mapping[str, object]) -> tuple[dict[str, str], tuple[str, ...], dict[str, str]]:
    """(regenerated, probing, left alone), each class with why. A changed class is always regenerated; where its
    tests still pass and it has no new members, only to look for tests that catch the change (probing)."""
    regenerated: dict[str, str] = {}
    left_alone: dict[str, str] = {}
    probing: list[str] = []
    for fqn in changed:
        why, regenerate = _decide(reruns.get(fqn), history.get(fqn), has_tests=fqn in tests, uses=())
        added = sorted(c.member.split("/")[0] for c in changes if c.owner == fqn and c.kind == "added" and c.visible)
        if added:  # new API: no test of it can exist yet, whatever the coverage says (its lines lower the share)
            prefix = why if regenerate else f"changed, {why}"
            regenerate, why = True, f"{prefix}; new members without tests: {', '.join(added)}"
        if not regenerate:  # its tests still pass: new ones are written, and kept only if one catches the change
            probing.append(fqn)
            why = f"changed, {why}: new tests are kept only if one fails before the change"
        regenerated[fqn] = why
    for fqn, used in sorted(uses.items()):
        why, regenerate = _decide(reruns.get(fqn), history.get(fqn), has_tests=fqn in tests, uses=used)
        (regenerated if regenerate else left_alone)[fqn] = why
    return regenerated, tuple(probing), left_alone


def _decide(rerun: RerunClass | None, before: CoverageEntry | None, *, has_tests: bool,
            uses: Sequence[MemberUse]) -> tuple[str, bool]:
    """(why, regenerate?) for one class: regenerate when its generated tests fail, lost coverage or are missing
    (a changed class); leave it when they still pass and cover as much as before."""
    using = f"uses {', '.join(sorted({member_label(u.member) for u in uses}))}; " if uses else ""
    if not has_tests:
        if uses:
            return f"{using}it has no generated tests (a full pass adds them)", False
        return "changed; it has no generated tests yet", True
    if rerun is None:
        return f"{using}its generated tests could not run", True
    failed = [o for o in rerun.outcomes if o.status not in _NOT_A_FAILURE]
    if not rerun.compiled:
        return f"{using}its generated tests no longer compile{f': {rerun.note}' if rerun.note else ''}", True
    if failed:
        return f"{using}behaviour changed: {len(failed)} of {len(rerun.outcomes)} generated tests fail", True
    # Lines, not branches: a refactoring moves javac's branches around without changing what is tested.
    if _fell(rerun.line_coverage, before.line if before else None):
        return (f"{using}its generated tests still pass but cover fewer lines "
                f"({percent(before.line if before else None)} → {percent(rerun.line_coverage)})"), True
    return f"{using}its {len(rerun.outcomes)} generated tests still pass and cover as much as before", False


def _behaviour_changes(classes: Iterable[RerunClass], changes: Sequence[MemberChange],
                       uses: Mapping[str, Sequence[MemberUse]], head: str | None,
                       sources: Mapping[str, str]) -> Iterable[BehaviourChange]:
    """The failing generated tests, each with the changed members its class has or uses and where they are."""
    by_key = {c.key: c for c in changes}
    for rerun in classes:
        target = rerun.target or ""
        keys = [c.key for c in changes if c.owner == target] or [u.member for u in uses.get(target, ())]
        keys = list(dict.fromkeys(keys))
        bodies = {name: m.source for m in parse_test_class(sources.get(rerun.path, "")).methods for name in m.names}
        for outcome in rerun.outcomes:
            if outcome.status in _NOT_A_FAILURE:
                continue
            # The changed members this test calls by name; all of its class's when it names none of them.
            called = [k for k in keys if _calls(bodies.get(outcome.method, ""), k)] or keys
            at = tuple(dict.fromkeys((by_key[k].file, by_key[k].lines[0]) for k in called
                                     if k in by_key and by_key[k].lines))
            yield BehaviourChange(target=target, test_path=rerun.path, test_class=outcome.test_class,
                                  method=outcome.method, status=outcome.status, expected=outcome.expected,
                                  actual=outcome.actual, message=outcome.message, line=outcome.line, commit=head,
                                  changes=tuple(called), at=at)


def _calls(body: str, key: str) -> bool:
    """Whether a test body calls the member `owner#name/arity` by name (`new Owner(` for a constructor)."""
    owner, _, member = key.partition("#")
    name = member.split("/")[0]
    if name == "<init>":
        return f"new {owner.rsplit('.', 1)[-1]}(" in body
    return re.search(rf"\b{re.escape(name)}\s*\(", body) is not None


def _outcome_text(outcome: TestOutcome) -> str:
    if outcome.expected is not None or outcome.actual is not None:
        return f"expected {outcome.expected}, got {outcome.actual}"
    return outcome.message or outcome.status


def _fell(now: float | None, before: float | None) -> bool:
    return before is not None and now is not None and now < before - 1e-9


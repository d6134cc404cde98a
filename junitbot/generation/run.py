"""`junitbot run`: change set → targets → generation → validation → kept tests written, with a report."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from junitbot.analysis import CodeGraph, open_checkout, update_graph
from junitbot.config import JunitbotConfig
from junitbot.generation.generate import GenerationResult
from junitbot.generation.history import load_coverage
from junitbot.generation.llm_run import generate_with_backend
from junitbot.generation.output import WriteOutcome, remove_orphans, write_tests
from junitbot.generation.targets import Target, prioritize_full_pass, targets_for
from junitbot.state import StateDir

ProgressCallback = Callable[[str, int, int], None]
_LAST_RUN = "last-run.json"


class ClassResult(BaseModel):
    """One target's outcome: kept tests (and dropped ones with reasons), coverage, or why it was skipped."""

    model_config = ConfigDict(frozen=True)

    target: str
    status: str
    reason: str
    test_path: str | None = None
    kept: tuple[str, ...] = ()
    dropped: tuple[tuple[str, str], ...] = ()
    line_coverage: float | None = None
    branch_coverage: float | None = None
    issues: tuple[str, ...] = ()
    origin: str | None = Field(default=None, description="llm, corrected, merged or template; None if nothing kept")
    model: str | None = None
    rounds: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    notes: tuple[str, ...] = ()


class RunReport(BaseModel):
    """Everything one run did, for the terminal, the JSON report and the markdown report."""

    model_config = ConfigDict(frozen=True)

    commit: str | None
    mode: str
    backend: str
    dry_run: bool
    targets: int
    results: tuple[ClassResult, ...]
    files: tuple[WriteOutcome, ...] = ()
    report_dir: str | None = None
    seconds: dict[str, float] = Field(default_factory=dict)

    @property
    def kept(self) -> int:
        return sum(1 for r in self.results if r.status == "kept")


class RunPlan(BaseModel):
    """What a run covers: the mode, and the changed files (None: every class) or the named classes."""

    model_config = ConfigDict(frozen=True)

    mode: str
    head: str | None
    changed_paths: tuple[str, ...] | None
    classes: tuple[str, ...] = ()
    dry_run: bool = False
    max_classes: int | None = None


def run_pipeline(
    root: Path,
    config: JunitbotConfig,
    state: StateDir,
    *,
    full: bool = False,
    since: str | None = None,
    classes: Sequence[str] = (),
    dry_run: bool = False,
    progress: ProgressCallback | None = None,
) -> RunReport:
    """One run of the main job on a repository, calling the stages directly (Dagster runs the same stages)."""
    started = time.perf_counter()
    summary = update_graph(root, state, config, progress=progress)
    plan = plan_run(root, state, summary.commit, full=full, since=since, classes=classes, dry_run=dry_run)
    with CodeGraph.open(state.graph_db) as graph:
        targets = select_targets(graph, config, plan, state)
        result = generate_with_backend(targets, root=root, graph=graph, config=config, state=state,
                                       commit=summary.commit, progress=progress)
    report = finish_run(root, config, state, plan, targets, result)
    return save_report(report.model_copy(update={"seconds": {**report.seconds,
                                                             "total": round(time.perf_counter() - started, 3)}}),
                       state)


def plan_run(
    root: Path, state: StateDir, head: str | None, *, full: bool = False, since: str | None = None,
    classes: Sequence[str] = (), dry_run: bool = False, max_classes: int | None = None,
) -> RunPlan:
    """Named classes; or everything; or the files changed since REV or since the last run (else everything)."""
    mode, changed = _changed_paths(root, state, head, full=full, since=since, classes=classes)
    return RunPlan(mode=mode, head=head, changed_paths=None if changed is None else tuple(changed),
                   classes=tuple(classes), dry_run=dry_run, max_classes=max_classes)


def select_targets(graph: CodeGraph, config: JunitbotConfig, plan: RunPlan,
                   state: StateDir | None = None) -> list[Target]:
    """The run's targets; a full pass puts classes without tests, then the most depended-upon, then the least
    covered (from the coverage history in `state`) first."""
    targets = targets_for(graph, config, changed_paths=plan.changed_paths, classes=plan.classes)
    if plan.changed_paths is None and not plan.classes:
        history = load_coverage(state) if state is not None else {}
        targets = prioritize_full_pass(graph, targets, {fqn: entry.line for fqn, entry in history.items()})
    return targets


def finish_run(
    root: Path, config: JunitbotConfig, state: StateDir, plan: RunPlan, targets: Sequence[Target],
    result: GenerationResult,
) -> RunReport:
    """Write the kept tests (unless a dry run), remove tests of classes that are gone, record the commit."""
    with CodeGraph.open(state.graph_db) as graph:
        test_files = [path for path, _ in graph.source_files(test=True)]
        existing = {row.fqn for row in graph.types()}
    verdicts = {v.target: v for v in (result.validation.verdicts if result.validation else ())}
    outcomes = {o.target: o for o in result.llm}
    results = [_with_origin(_class_result(t.fqn, t.reason, verdicts.get(t.fqn), result.skipped), result,
                            outcomes.get(t.fqn)) for t in targets]
    files: list[WriteOutcome] = []
    if not plan.dry_run:
        files += write_tests(root, {v.path: v.source for v in verdicts.values() if v.kept and v.source})
        files += remove_orphans(root, test_files, existing)
        _record_run(state, plan.head)
    return RunReport(commit=plan.head, mode=plan.mode, backend=result.backend, dry_run=plan.dry_run,
                     targets=len(targets), results=tuple(results), files=tuple(files), seconds=dict(result.seconds))


def _changed_paths(
    root: Path, state: StateDir, head: str | None, *, full: bool, since: str | None, classes: Sequence[str]
) -> tuple[str, list[str] | None]:
    """(mode, changed paths): None means every class (a full pass)."""
    if classes:
        return "classes", None
    if full:
        return "full", None
    checkout = open_checkout(root)
    base = since or _last_run(state)
    if checkout is None or head is None or base is None:
        return "full (no earlier run to compare with)", None
    if not checkout.is_ancestor(base, head):
        return f"full ({base[:12]} is not an ancestor of HEAD)", None
    changes = checkout.changes_since(base, head, ())
    paths = sorted({*changes.paths, *checkout.dirty(())})
    return f"incremental since {base[:12]}", paths


def _with_origin(result: ClassResult, generation: GenerationResult, outcome: object) -> ClassResult:
    """Where a kept class came from and what the model run did to it (rounds, tokens, corrections)."""
    origin = generation.origin(result.target)
    notes: list[str] = []
    extra: dict[str, object] = {"origin": origin}
    if outcome is not None:
        extra.update(model=getattr(outcome, "model", None), rounds=getattr(outcome, "rounds", 0),
                     tokens_in=getattr(outcome, "tokens_in", 0), tokens_out=getattr(outcome, "tokens_out", 0))
        for record in getattr(outcome, "history", ()):
            what = "; ".join(record.fixed) or "; ".join(record.problems[:3]) or record.status
            notes.append(f"round {record.round} ({record.status}): {'fixed ' if record.fixed else ''}{what}")
        notes += [f"corrected {c.method}: expected {c.expected} -> {c.actual} (the actual value was deterministic)"
                  for c in getattr(outcome, "corrections", ())]
        notes += list(getattr(outcome, "notes", ()))
    return result.model_copy(update={**extra, "notes": tuple(notes)})


def _class_result(target: str, reason: str, verdict: object, skipped: Sequence[object]) -> ClassResult:
    from junitbot.generation.models import Skip
    from junitbot.validation import Verdict

    skip = next((s for s in skipped if isinstance(s, Skip) and s.target == target), None)
    if skip is not None:
        return ClassResult(target=target, status="skipped", reason=skip.reason)
    if not isinstance(verdict, Verdict):
        return ClassResult(target=target, status="skipped", reason="nothing was generated")
    coverage = verdict.coverage
    return ClassResult(
        target=target,
        status="kept" if verdict.kept else "dropped",
        reason=reason,
        test_path=verdict.path,
        kept=tuple(m.name for m in verdict.methods if m.kept),
        dropped=tuple((m.name, m.reason or "") for m in verdict.methods if not m.kept),
        line_coverage=coverage.lines.ratio if coverage else None,
        branch_coverage=coverage.branches.ratio if coverage else None,
        issues=tuple(f"{i.severity.value} {i.category}: {i.message}" for i in verdict.issues
                     if i.severity.value == "ERROR"),
    )


def _last_run(state: StateDir) -> str | None:
    path = state.root / _LAST_RUN
    if not path.is_file():
        return None
    try:
        commit = json.loads(path.read_text()).get("commit")
    except (ValueError, AttributeError):
        return None
    return commit if isinstance(commit, str) else None


def _record_run(state: StateDir, commit: str | None) -> None:
    if commit is not None:
        (state.ensure().root / _LAST_RUN).write_text(json.dumps({"commit": commit}))


def save_report(report: RunReport, state: StateDir) -> RunReport:
    """Write report.json and report.md into a new run directory; returns the report with its path."""
    directory = state.ensure().root / "runs" / datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    directory.mkdir(parents=True, exist_ok=True)
    report = report.model_copy(update={"report_dir": str(directory)})
    (directory / "report.json").write_text(report.model_dump_json(indent=2))
    (directory / "report.md").write_text(markdown_report(report))
    return report


def markdown_report(report: RunReport) -> str:
    """The run as markdown: a summary line, a table per class, dropped tests with reasons."""
    def percent(value: float | None) -> str:
        return "–" if value is None else f"{value:.0%}"

    lines = [
        "# junitbot run",
        "",
        f"{report.kept} of {report.targets} classes got tests ({report.mode}; backend `{report.backend}`"
        f"{'; dry run, nothing written' if report.dry_run else ''}).",
        "",
        "| class | status | from | tests kept | dropped | lines | branches | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in report.results:
        note = r.reason.replace("|", "\\|")
        lines.append(f"| `{r.target}` | {r.status} | {r.origin or '–'} | {len(r.kept)} | {len(r.dropped)} | "
                     f"{percent(r.line_coverage)} | {percent(r.branch_coverage)} | {note} |")
    model_runs = [r for r in report.results if r.model]
    if model_runs:
        lines += ["", "## Model", "", "| class | model | rounds | tokens in | tokens out |", "|---|---|---|---|---|"]
        lines += [f"| `{r.target}` | {r.model} | {r.rounds} | {r.tokens_in} | {r.tokens_out} |" for r in model_runs]
    noted = [(r.target, note) for r in report.results for note in r.notes]
    if noted:
        lines += ["", "## Notes", ""]
        lines += [f"- `{target}`: {note}" for target, note in noted]
    dropped = [(r.target, name, why) for r in report.results for name, why in r.dropped]
    if dropped:
        lines += ["", "## Dropped tests", ""]
        lines += [f"- `{target}.{name}`: {why}" for target, name, why in dropped]
    if report.files:
        lines += ["", "## Files", ""]
        lines += [f"- {f.action}: `{f.path}`" + (f" ({f.reason})" if f.reason else "") for f in report.files]
    return "\n".join(lines) + "\n"

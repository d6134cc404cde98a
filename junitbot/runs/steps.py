"""The steps of one run after planning: targets (capped), generation with the plan's backend, the build gate,
finish.

`pipeline.run_pipeline` calls them in order; each Dagster asset calls one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from junitbot.analysis import CodeGraph
from junitbot.config import JunitbotConfig
from junitbot.generation import (
    GenerationJob,
    GenerationResult,
    ProgressCallback,
    Target,
    WriteOutcome,
    generate,
    remove_orphans,
    write_tests,
)
from junitbot.generation.llm import open_backend
from junitbot.runs.changes import touched_methods
from junitbot.runs.gate import apply_gate
from junitbot.runs.history import load_coverage, record_coverage
from junitbot.runs.models import ChangeCheck, ClassResult, KeptCheck, RunPlan, RunReport, TargetList
from junitbot.runs.plan import instructions_for, record_run
from junitbot.runs.report import class_results, dependency_advice, module_summaries, run_directory
from junitbot.runs.targets import prioritize_full_pass, targets_for
from junitbot.state import StateDir
from junitbot.validation import GateResult, TestCandidate, gate_tests
from junitbot.validation.judge.recheck import recheck_files


def select_targets(graph: CodeGraph, config: JunitbotConfig, plan: RunPlan, state: StateDir,
                   check: ChangeCheck | None = None) -> TargetList:
    """The run's targets, at most `plan.max_classes`; a full pass puts classes without tests, then the most
    depended-upon, then the least covered (from the coverage history in `state`) first. With an incremental
    run's change check, only the classes it says to regenerate."""
    targets = targets_for(graph, config, changed_paths=plan.changed_paths, classes=plan.classes,
                          regenerate=check.regenerated if check is not None else None)
    touched = touched_methods(check) if check is not None else {}
    targets = [t.model_copy(update={"changed": touched[t.fqn]}) if touched.get(t.fqn) else t for t in targets]
    if plan.changed_paths is None and not plan.classes:
        history = load_coverage(state)
        targets = prioritize_full_pass(graph, targets, {fqn: entry.line for fqn, entry in history.items()})
    return TargetList(targets=tuple(targets[: plan.max_classes]),
                      left_for_later=max(0, len(targets) - plan.max_classes))


def generate_for_plan(
    root: Path, config: JunitbotConfig, state: StateDir, plan: RunPlan, targets: Sequence[Target], *,
    graph: CodeGraph, progress: ProgressCallback | None = None,
) -> GenerationResult:
    """Tests for `targets` from the plan's backend (`template`, or `auto` without a model: no model), with the
    plan's instructions for each target (the no-model generator does not read them)."""
    settings = config.generation.llm_settings().model_copy(update={"backend": plan.backend})
    job = GenerationJob(root=root, graph=graph, config=config, state=state, commit=plan.head,
                        run_directory=run_directory(state, plan.run_id),
                        instructions=instructions_for(plan.instructions, (t.fqn for t in targets)),
                        **({"progress": progress} if progress else {}))
    with open_backend(settings) as (backend, choice):
        return generate(targets, job, backend).model_copy(update={"backend_reason": choice.source})


def gate_in_build(root: Path, config: JunitbotConfig, state: StateDir, result: GenerationResult) -> GenerationResult:
    """The last gate: the kept tests run in the project's own build (`mvn test`, in a scratch copy), and what it
    drops leaves `result`. Only for a Maven build (a root pom.xml) with `validation.build_gate` on; the result
    records the gate either way, so the report can say whether the build judged the tests and why not."""
    if not config.validation.build_gate:
        gate = GateResult(ran=False, judged=False, why="switched off (validation.build_gate: false)")
    elif not (root / "pom.xml").is_file():
        gate = GateResult(ran=False, judged=False, why="not a Maven build (no pom.xml at the root)")
    else:
        verdicts = result.validation.verdicts if result.validation else ()
        kept = [TestCandidate(path=v.path, source=v.source, target=v.target) for v in verdicts if v.kept and v.source]
        gate = gate_tests(root, kept, settings=config.validation, state=state)
    return apply_gate(result, gate)


def finish_run(
    root: Path, state: StateDir, plan: RunPlan, targets: Sequence[Target], result: GenerationResult,
    changes: ChangeCheck | None = None,
) -> RunReport:
    """Write the kept tests (unless a dry run), remove tests of classes that are gone, record the commit and
    the coverage measured; the report of what was done."""
    with CodeGraph.open(state.graph_db) as graph:
        test_files = [path for path, _ in graph.source_files(test=True)]
        existing = {row.fqn for row in graph.types()}
    # Classes the change check left alone after all keep their tests as they are (no churn).
    held = dict(changes.left_alone) if changes else {}
    verdicts = [v for v in (result.validation.verdicts if result.validation else ()) if v.target not in held]
    results = tuple(ClassResult(target=r.target, status="unchanged", reason=held[r.target]) if r.target in held
                    else r for r in class_results(targets, result))
    files: list[WriteOutcome] = []
    if not plan.dry_run:
        files += write_tests(root, {v.path: v.source for v in verdicts if v.kept and v.source})
        files += remove_orphans(root, test_files, existing)
        record_run(state, plan.head)
    report = RunReport(commit=plan.head, mode=plan.mode, backend=result.backend, run_id=plan.run_id,
                       backend_reason=result.backend_reason, dry_run=plan.dry_run,
                       targets=len(targets), results=results, files=tuple(files), advice=dependency_advice(result),
                       seconds=dict(result.seconds), gate=result.gate, modules=module_summaries(result),
                       resolution=result.classpath.resolution if result.classpath else None,
                       review=result.validation.review if result.validation else None, changes=changes)
    if not plan.dry_run:
        record_coverage(state, report)
    return report


def check_kept(root: Path, config: JunitbotConfig, state: StateDir, report: RunReport) -> RunReport:
    """The last check before publishing: the kept test files, as written to the repository, compile and pass
    once more (`kept_tests_pass`); `report.publish_blocked` says why not."""
    on_disk = {f.path for f in report.files if f.action in ("written", "unchanged")}
    kept = {r.test_path: r.target for r in report.results if r.status == "kept" and r.test_path in on_disk}
    if report.dry_run or not kept:
        return report
    results = recheck_files(root, config.validation, state, kept)
    failures = {r.path: r.why or "did not pass" for r in results if not r.ok}
    return report.model_copy(update={"kept_check": KeptCheck(checked=len(results), failures=failures)})

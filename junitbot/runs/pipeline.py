"""run_pipeline: one run of the main job, the steps in order without Dagster (`junitbot run --direct`, the bot).

The Dagster job (`junitbot.assets`) calls the same steps, one per asset, so both give the same report.
"""

from __future__ import annotations

import time
from pathlib import Path

from junitbot.analysis import CodeGraph, update_graph
from junitbot.analysis.models import IndexSummary
from junitbot.config import JunitbotConfig
from junitbot.generation import ProgressCallback
from junitbot.generation.llm.backends.select import choose_backend
from junitbot.runs.changes import catch_changes, check_changes
from junitbot.runs.models import RunReport, RunRequest
from junitbot.runs.partitions import run_full_pass
from junitbot.runs.plan import plan_run
from junitbot.runs.report import save_report
from junitbot.runs.steps import check_kept, finish_run, gate_in_build, generate_for_plan, select_targets
from junitbot.state import StateDir


def update_state(root: Path, config: JunitbotConfig, state: StateDir, *,
                 progress: ProgressCallback | None = None) -> IndexSummary:
    """The graph, then the embedding index (when enabled and the backend reads it), brought up to the work tree;
    the graph's summary."""
    summary = update_graph(root, state, config, progress=progress)
    if config.retrieval.enabled and reads_embeddings(config):
        from junitbot.retrieval.index import update_index

        update_index(state, config)
    return summary


def reads_embeddings(config: JunitbotConfig) -> bool:
    """Whether the run's backend reads the embedding index: a model's prompt context does, the no-model generator
    does not. Embedding a repository the size of commons-lang takes minutes on 2 cores, most of a first template
    run; `junitbot index` and the Dagster embeddings asset still build it."""
    return choose_backend(config.generation.llm_settings()).name != "template"


def run_pipeline(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest, *,
                 progress: ProgressCallback | None = None) -> RunReport:
    """Graph (and embeddings) up to date → plan → the generated tests of what changed run first → targets →
    generation → build gate → tests that catch the change (on the base) → finish → kept tests once more → saved
    report. A full pass goes partition by partition (`runs.partitions`), resumed where an interrupted one
    stopped."""
    started = time.perf_counter()
    summary = update_state(root, config, state, progress=progress)
    indexed = {"index": round(time.perf_counter() - started, 3)}
    if request.mode == "full" and config.full_pass.partitioned:
        with CodeGraph.open(state.graph_db) as graph:
            report = run_full_pass(root, config, state, request, graph=graph, head=summary.commit, progress=progress)
        return save_report(report.model_copy(update={"seconds": {
            **indexed, **report.seconds, "total": round(time.perf_counter() - started, 3)}}), state)
    plan = plan_run(root, state, summary.commit, config, request)
    with CodeGraph.open(state.graph_db) as graph:
        check = check_changes(root, config, state, plan, graph)
        targets = select_targets(graph, config, plan, state, check).targets
        result = generate_for_plan(root, config, state, plan, targets, graph=graph, progress=progress)
    result = gate_in_build(root, config, state, result)
    check, result = catch_changes(root, config, state, check, result)
    report = check_kept(root, config, state, finish_run(root, state, plan, targets, result, check))
    seconds = {**indexed, **report.seconds, "total": round(time.perf_counter() - started, 3)}
    return save_report(report.model_copy(update={"seconds": seconds}), state)

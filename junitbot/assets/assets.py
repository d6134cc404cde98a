"""The assets of one run: changeset → code_graph, embedding_index → impacted_classes → generated_tests →
validated_tests → test_report. Each calls the domain packages and reports what it did as metadata."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

import time
from typing import Any

from dagster import AssetExecutionContext, Config, MetadataValue, Output, asset
from pydantic import Field

from junitbot.analysis import CodeGraph, open_checkout, update_graph
from junitbot.analysis.models import IndexSummary
from junitbot.assets.resources import GenerationBackendResource, GitHubResource, RepositoryResource
from junitbot.generation.generate import GenerationResult
from junitbot.generation.history import record_coverage
from junitbot.generation.llm_run import generate_with_backend
from junitbot.generation.run import (
    RunPlan,
    RunReport,
    finish_run,
    markdown_report,
    plan_run,
    save_report,
    select_targets,
)
from junitbot.generation.targets import Target
from junitbot.retrieval.models import EmbeddingSummary

GROUP = "junitbot"
GPU_POOL = "gpu"
"""Dagster concurrency pool of the assets that may hold a GPU: two runs never generate at once on one."""


class RunOptions(Config):
    """Run config: what this run covers."""

    mode: str = Field(default="incremental", description="incremental, full, or regenerate (the named classes)")
    classes: list[str] = Field(default_factory=list, description="classes to regenerate (mode regenerate)")
    since: str | None = Field(default=None, description="diff from this revision instead of the last run")
    pr_number: int | None = Field(default=None, description="the pull request a regenerate command came from")
    dry_run: bool = Field(default=False, description="validate but write nothing")
    max_classes: int | None = Field(default=None,
                                    description="cap on targets (default: generation.max_classes_per_run)")


@asset(group_name=GROUP, description="The .java files changed since the last run (or everything), and the run mode.")
def changeset(context: AssetExecutionContext, config: RunOptions, repository: RepositoryResource) -> Output[RunPlan]:
    checkout = open_checkout(repository.root)
    head = checkout.head() if checkout else None
    if config.mode not in ("incremental", "full", "regenerate"):
        raise ValueError(f"mode must be incremental, full or regenerate, not {config.mode!r}")
    if config.mode == "regenerate" and not config.classes:
        raise ValueError("mode regenerate needs classes")
    plan = plan_run(repository.root, repository.state(), head, full=config.mode == "full", since=config.since,
                    classes=config.classes if config.mode == "regenerate" else (), dry_run=config.dry_run,
                    max_classes=config.max_classes)
    changed = plan.changed_paths
    return Output(plan, metadata={
        "mode": plan.mode, "commit": head or "", "dry_run": plan.dry_run,
        "changed_files": len(changed) if changed is not None else -1,
        "files": MetadataValue.md("\n".join(f"- `{p}`" for p in (changed or ())[:200]) or "(all)"),
        **({"pr_number": config.pr_number} if config.pr_number else {}),
    })


@asset(group_name=GROUP, deps=[changeset], description="The AST code graph (tree-sitter-java), updated incrementally.")
def code_graph(repository: RepositoryResource) -> Output[IndexSummary]:
    summary = update_graph(repository.root, repository.state(), repository.config())
    return Output(summary, metadata={
        "commit": summary.commit or "", "incremental": summary.incremental, "reason": summary.reason,
        "files": summary.files, "files_parsed": summary.files_parsed, "files_removed": summary.files_removed,
        "classes": summary.classes, "edges": summary.edges, "problems": len(summary.problems),
        "seconds": MetadataValue.json(summary.seconds),
    })


@asset(group_name=GROUP, deps=[code_graph],
       description="Chunks of code and tests embedded into a FAISS index, updated from the graph.")
def embedding_index(repository: RepositoryResource) -> Output[EmbeddingSummary | None]:
    from junitbot.retrieval.index import update_index

    config = repository.config()
    if not config.retrieval.enabled:
        return Output(None, metadata={"enabled": False})
    summary = update_index(repository.state(), config)
    return Output(summary, metadata={
        "commit": summary.commit or "", "model": summary.model, "device": summary.device,
        "index_type": summary.index_type, "reason": summary.reason, "chunks": summary.chunks,
        "chunks_added": summary.chunks_added, "chunks_removed": summary.chunks_removed,
        "embedded": summary.embedded, "reused": summary.reused, "seconds": MetadataValue.json(summary.seconds),
        "warnings": MetadataValue.json(list(summary.warnings)),
    })


@asset(group_name=GROUP, deps=[code_graph, embedding_index],
       description="Changed classes and their dependents (impact analysis), minus what config excludes.")
def impacted_classes(context: AssetExecutionContext, changeset: RunPlan,
                     repository: RepositoryResource) -> Output[list[Target]]:
    settings = repository.config()
    with CodeGraph.open(repository.state().graph_db) as graph:
        targets = select_targets(graph, settings, changeset, repository.state())
    cap = changeset.max_classes or settings.generation.max_classes_per_run
    left = targets[cap:]
    targets = targets[:cap]
    rows = "\n".join(f"| `{t.fqn}` | {t.reason} |" for t in targets[:300])
    return Output(targets, metadata={
        "targets": len(targets), "left_for_later": len(left),
        "targets_table": MetadataValue.md("| class | why |\n|---|---|\n" + rows if targets else "(none)"),
    })


@asset(group_name=GROUP, pool=GPU_POOL,
       description="Candidate tests per target from the generation backend, checked in its generate-validate loop.")
def generated_tests(context: AssetExecutionContext, impacted_classes: list[Target], changeset: RunPlan,
                    repository: RepositoryResource, backend: GenerationBackendResource) -> Output[GenerationResult]:
    config = repository.config()
    if backend.backend != config.generation.backend:
        config = config.model_copy(update={"generation": config.generation.model_copy(
            update={"backend": backend.backend})})
    state = repository.state()
    with CodeGraph.open(state.graph_db) as graph:
        result = generate_with_backend(impacted_classes, root=repository.root, graph=graph, config=config,
                                       state=state, commit=changeset.head)
    tokens_in = sum(o.tokens_in for o in result.llm)
    tokens_out = sum(o.tokens_out for o in result.llm)
    return Output(result, metadata={
        "backend": result.backend, "configured_backend": config.generation.backend, "targets": len(impacted_classes),
        "tokens_in": tokens_in, "tokens_out": tokens_out,
        "candidates": len(result.candidates), "skipped": len(result.skipped), "scenarios": result.scenarios,
        "observed": result.observed, "seconds": MetadataValue.json(result.seconds),
        "skipped_classes": MetadataValue.md("\n".join(f"- `{s.target}`: {s.reason}" for s in result.skipped[:200])
                                            or "(none)"),
    })


@asset(group_name=GROUP,
       description="Only tests that compiled and passed, written to the repository (unless a dry run).")
def validated_tests(context: AssetExecutionContext, generated_tests: GenerationResult, impacted_classes: list[Target],
                    changeset: RunPlan, repository: RepositoryResource) -> Output[RunReport]:
    tick = time.perf_counter()
    report = finish_run(repository.root, repository.config(), repository.state(), changeset, impacted_classes,
                        generated_tests)
    written = [f.path for f in report.files if f.action == "written"]
    seconds = {**report.seconds, "write": round(time.perf_counter() - tick, 3)}
    return Output(report.model_copy(update={"seconds": seconds}),
                  metadata={
        "kept": report.kept, "targets": report.targets, "written": len(written),
        "coverage": MetadataValue.md(_coverage_table(report)),
        "files": MetadataValue.json([f.model_dump(mode="json") for f in report.files]),
    })


@asset(group_name=GROUP, description="The run's report: markdown and JSON in a run directory of the state.")
def test_report(context: AssetExecutionContext, validated_tests: RunReport,
                repository: RepositoryResource) -> Output[RunReport]:
    state = repository.state()
    report = save_report(validated_tests, state)
    if not report.dry_run:
        record_coverage(state, report)
    return Output(report, metadata={
        "commit": report.commit or "", "mode": report.mode, "kept": report.kept, "targets": report.targets,
        "report_dir": report.report_dir or "", "report": MetadataValue.md(markdown_report(report)),
    })


@asset(group_name=GROUP, description="The bot's pull request with the run's tests and report (needs the github "
                                    "resource's token and repository; skipped without them).")
def test_pull_request(context: AssetExecutionContext, test_report: RunReport, repository: RepositoryResource,
                      github: GitHubResource) -> Output[dict[str, Any] | None]:
    if not (github.token and github.repository):
        return Output(None, metadata={"status": "skipped", "reason": "no GitHub token and repository configured"})
    if test_report.dry_run:
        return Output(None, metadata={"status": "skipped", "reason": "dry run"})
    from junitbot.bot.publish_run import publish_run

    delivery = publish_run(repository.root, repository.config(), repository.state(), test_report,
                           token=github.token, repository=github.repository, api_url=github.api_url)
    return Output(delivery.model_dump(mode="json"), metadata={
        "status": delivery.status, "message": delivery.message, "branch": delivery.branch or "",
        **({"pull_request": MetadataValue.url(delivery.pull_url)} if delivery.pull_url else {}),
    })


def _coverage_table(report: RunReport) -> str:
    def percent(value: float | None) -> str:
        return "–" if value is None else f"{value:.0%}"

    rows = [f"| `{r.target}` | {r.status} | {len(r.kept)} | {percent(r.line_coverage)} | {percent(r.branch_coverage)} |"
            for r in report.results]
    header = "| class | status | tests | lines | branches |\n|---|---|---|---|---|\n"
    return header + "\n".join(rows) if rows else "(none)"


ALL_ASSETS: list[Any] = [changeset, code_graph, embedding_index, impacted_classes, generated_tests, validated_tests,
                         test_report, test_pull_request]

"""The assets of one run: changeset → code_graph, embedding_index → changed_behaviour → impacted_classes →
generated_tests → gated_tests → validated_tests → test_report → test_pull_request. Each calls one step of
`junitbot.runs` and reports what it did as metadata."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

import time
from typing import Any

from dagster import AssetExecutionContext, Config, MetadataValue, Output, asset
from pydantic import Field

from junitbot.analysis import CodeGraph, open_checkout, update_graph
from junitbot.analysis.models import IndexSummary
from junitbot.assets.resources import GitHubResource, RepositoryResource
from junitbot.generation import GenerationResult
from junitbot.retrieval.models import EmbeddingSummary
from junitbot.runs import (
    ChangeCheck,
    RunPlan,
    RunReport,
    RunRequest,
    TargetList,
    catch_changes,
    change_lines,
    check_changes,
    coverage_table,
    finish_run,
    gate_in_build,
    gate_summary,
    generate_for_plan,
    markdown_report,
    plan_run,
    save_report,
    select_targets,
    suite_table,
)
from junitbot.validation import GateResult

GROUP = "junitbot"
GPU_POOL = "gpu"
"""Dagster concurrency pool of the assets that may hold a GPU: two runs never generate at once on one."""


class RunOptions(Config):
    """Run config: what this run covers (the fields of `junitbot.runs.RunRequest`, plus the mode by name)."""

    mode: str = Field(default="incremental", description="incremental, full, or regenerate (the named classes)")
    classes: list[str] = Field(default_factory=list, description="classes to regenerate (mode regenerate)")
    since: str | None = Field(default=None, description="diff from this revision instead of the last run")
    pr_number: int | None = Field(default=None, description="the pull request a regenerate command came from")
    dry_run: bool = Field(default=False, description="validate but write nothing")
    max_classes: int | None = Field(default=None,
                                    description="cap on targets (default: generation.max_classes_per_run)")
    backend: str | None = Field(default=None,
                                        description="generator for this run (default: generation.backend)")
    instructions: dict[str, str] = Field(default_factory=dict,
                                         description="class FQN (or '*': every target) → free text for the model")

    def request(self) -> RunRequest:
        """The run request these options describe; an unknown mode or a regenerate without classes is an error."""
        if self.mode not in ("incremental", "full", "regenerate"):
            raise ValueError(f"mode must be incremental, full or regenerate, not {self.mode!r}")
        if self.mode == "regenerate" and not self.classes:
            raise ValueError("mode regenerate needs classes")
        return RunRequest(full=self.mode == "full", since=self.since, dry_run=self.dry_run,
                          classes=tuple(self.classes) if self.mode == "regenerate" else (),
                          max_classes=self.max_classes, pr_number=self.pr_number, instructions=self.instructions)


@asset(group_name=GROUP, description="The .java files changed since the last run (or everything), and the run mode.")
def changeset(context: AssetExecutionContext, config: RunOptions, repository: RepositoryResource) -> Output[RunPlan]:
    checkout = open_checkout(repository.root)
    head = checkout.head() if checkout else None
    plan = plan_run(repository.root, repository.state(), head, repository.config(), config.request())
    if config.backend:  # validated as the plan's backend name
        plan = RunPlan.model_validate({**plan.model_dump(), "backend": config.backend})
    changed = plan.changed_paths
    return Output(plan, metadata={
        "mode": plan.mode, "commit": head or "", "dry_run": plan.dry_run, "backend": plan.backend,
        "max_classes": plan.max_classes, "changed_files": len(changed) if changed is not None else -1,
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


@asset(group_name=GROUP, deps=[code_graph],
       description="What the push changed, member by member, and its generated tests run on the new head first: "
                   "the tests that now fail are behaviour changes; which classes to regenerate and which to leave.")
def changed_behaviour(context: AssetExecutionContext, changeset: RunPlan,
                      repository: RepositoryResource) -> Output[ChangeCheck | None]:
    with CodeGraph.open(repository.state().graph_db) as graph:
        check = check_changes(repository.root, repository.config(), repository.state(), changeset, graph)
    if check is None:
        return Output(None, metadata={"checked": False, "reason": f"{changeset.mode}: nothing to compare with"})
    if check.behaviour_changes:
        context.log.warning(f"{len(check.behaviour_changes)} generated tests fail on the new head")
    return Output(check, metadata={
        "checked": True, "base": check.base or "", "members_changed": len(check.member_changes),
        "users": len(check.uses), "tests_rerun": len(check.rerun), "behaviour_changes": len(check.behaviour_changes),
        "regenerated": len(check.regenerated), "left_alone": len(check.left_alone),
        "report": MetadataValue.md("\n".join(change_lines(check)) or "(nothing changed)"),
        "seconds": MetadataValue.json(check.seconds),
    })


@asset(group_name=GROUP, deps=[code_graph, embedding_index],
       description="The classes to generate tests for: changed classes and the dependents whose tests changed "
                   "outcome (impact analysis), minus what config excludes, capped.")
def impacted_classes(context: AssetExecutionContext, changeset: RunPlan, changed_behaviour: ChangeCheck | None,
                     repository: RepositoryResource) -> Output[TargetList]:
    with CodeGraph.open(repository.state().graph_db) as graph:
        selection = select_targets(graph, repository.config(), changeset, repository.state(), changed_behaviour)
    rows = "\n".join(f"| `{t.fqn}` | {t.reason} |" for t in selection.targets[:300])
    return Output(selection, metadata={
        "targets": len(selection.targets), "left_for_later": selection.left_for_later,
        "targets_table": MetadataValue.md("| class | why |\n|---|---|\n" + rows if rows else "(none)"),
    })


@asset(group_name=GROUP, pool=GPU_POOL,
       description="Candidate tests per target from the plan's backend, checked in its generate-validate loop.")
def generated_tests(context: AssetExecutionContext, impacted_classes: TargetList, changeset: RunPlan,
                    repository: RepositoryResource) -> Output[GenerationResult]:
    state = repository.state()
    with CodeGraph.open(state.graph_db) as graph:
        result = generate_for_plan(repository.root, repository.config(), state, changeset,
                                   impacted_classes.targets, graph=graph)
    return Output(result, metadata={
        "backend": result.backend, "configured_backend": changeset.backend, "targets": len(impacted_classes.targets),
        "tokens_in": sum(o.tokens_in for o in result.llm), "tokens_out": sum(o.tokens_out for o in result.llm),
        "candidates": len(result.candidates), "skipped": len(result.skipped), "scenarios": result.scenarios,
        "observed": result.observed, "seconds": MetadataValue.json(result.seconds),
        "skipped_classes": MetadataValue.md("\n".join(f"- `{s.target}`: {s.reason}" for s in result.skipped[:200])
                                            or "(none)"),
    })


@asset(group_name=GROUP, description="The kept tests after the last gate: they also pass in the project's own "
                                    "build (mvn test in a scratch copy), or the build says why it did not judge them.")
def gated_tests(context: AssetExecutionContext, generated_tests: GenerationResult,
                repository: RepositoryResource) -> Output[GenerationResult]:
    result = gate_in_build(repository.root, repository.config(), repository.state(), generated_tests)
    if result.gate is not None:
        context.log.info(gate_summary(result.gate))
    return Output(result, metadata=_gate_metadata(result.gate))


def _gate_metadata(gate: GateResult | None) -> dict[str, Any]:
    if gate is None:
        return {"ran": False}
    dropped = [(c.test_class, m.name, m.reason or "") for c in gate.classes for m in c.dropped]
    dropped += [(c.test_class, "(class)", c.reason or "") for c in gate.classes if not c.kept]
    return {
        "ran": gate.ran, "judged": gate.judged, "why": gate.why or "", "runner": gate.runner,
        "maven": gate.maven.reason if gate.maven else "", "command": " ".join(gate.command), "runs": gate.runs,
        "online": gate.online or "", "isolation": gate.isolation, "seconds": gate.seconds,
        "classes": len(gate.classes), "dropped": len(dropped), "summary": MetadataValue.md(gate_summary(gate)),
        "dropped_tests": MetadataValue.md("\n".join(f"- `{cls}.{name}`: {why}" for cls, name, why in dropped)
                                          or "(none)"),
    }


@asset(group_name=GROUP,
       description="Only tests that compiled and passed, written to the repository (unless a dry run).")
def validated_tests(context: AssetExecutionContext, gated_tests: GenerationResult, impacted_classes: TargetList,
                    changeset: RunPlan, changed_behaviour: ChangeCheck | None,
                    repository: RepositoryResource) -> Output[RunReport]:
    tick = time.perf_counter()
    check, result = catch_changes(repository.root, repository.config(), repository.state(), changed_behaviour,
                                  gated_tests)
    report = finish_run(repository.root, repository.state(), changeset, impacted_classes.targets, result, check)
    written = [f.path for f in report.files if f.action == "written"]
    seconds = {**report.seconds, "write": round(time.perf_counter() - tick, 3)}
    return Output(report.model_copy(update={"seconds": seconds}), metadata={
        "kept": report.kept, "targets": report.targets, "written": len(written),
        "coverage": MetadataValue.md(coverage_table(report)),
        "suite_before_after": MetadataValue.md("\n".join(suite_table(report)) or "(nothing measured)"),
        "mutation_scores": MetadataValue.json({r.target: r.mutation_score for r in report.results
                                               if r.mutation_score is not None}),
        "review_lint": MetadataValue.json({str(k): v for k, v in report.review.counts.items()}
                                          if report.review else {}),
        "files": MetadataValue.json([f.model_dump(mode="json") for f in report.files]),
        "catching_tests": len(check.catching) if check else 0,
    })


@asset(group_name=GROUP, description="The run's report: markdown and JSON in a run directory of the state.")
def test_report(context: AssetExecutionContext, validated_tests: RunReport,
                repository: RepositoryResource) -> Output[RunReport]:
    report = save_report(validated_tests, repository.state())
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


ALL_ASSETS: list[Any] = [changeset, code_graph, embedding_index, changed_behaviour, impacted_classes, generated_tests,
                         gated_tests, validated_tests, test_report, test_pull_request]

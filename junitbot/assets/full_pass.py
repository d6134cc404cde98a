"""The partitioned full pass in Dagster: one op plans the partitions and fans out, one op per partition generates
(run side by side by the executor), one op finishes the pass. Each finished partition is a materialization of the
`full_pass_tests` asset's dynamic partition, so the UI shows the pass's progress per partition. The steps are
those of `junitbot.runs.partitions`, which `junitbot run --full --direct` calls in one process."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

import re
from typing import Any

from dagster import (
    AssetExecutionContext,
    AssetMaterialization,
    Config,
    DynamicOut,
    DynamicOutput,
    DynamicPartitionsDefinition,
    Failure,
    MaterializeResult,
    MetadataValue,
    OpExecutionContext,
    Out,
    Output,
    asset,
    graph,
    op,
)
from pydantic import Field

from junitbot.analysis import CodeGraph, open_checkout
from junitbot.assets.assets import GROUP
from junitbot.assets.resources import RepositoryResource
from junitbot.runs import (
    FullPass,
    PartitionOutcome,
    PassLedger,
    RunReport,
    RunRequest,
    finish_full_pass,
    markdown_report,
    plan_full_pass,
    run_partition,
)
from junitbot.runs.pipeline import update_state

PARTITIONS = "junitbot_full_pass"
FULL_PASS_PARTITIONS = DynamicPartitionsDefinition(name=PARTITIONS)
"""One partition per module and package batch; added to the instance when a pass is planned."""

@asset(group_name=GROUP, partitions_def=FULL_PASS_PARTITIONS,
       description="The tests a full pass kept for one partition (a module's package batch), recorded in the state's "
                   "ledger when the partition finishes and written to the repository when the whole pass finishes. "
                   "full_pass_job materializes every partition; materializing one here runs that partition of the "
                   "pass planned last.")
def full_pass_tests(context: AssetExecutionContext, repository: RepositoryResource) -> MaterializeResult[Any]:
    state = repository.state()
    checkout = open_checkout(repository.root)
    full_pass = PassLedger(state, checkout.head() if checkout else None).plan()
    if full_pass is None:
        raise Failure("no full pass is planned at this commit: run full_pass_job (or `junitbot run --full`)")
    outcome = run_partition(repository.root, repository.config(), state, full_pass, context.partition_key)
    return MaterializeResult(metadata=_partition_metadata(full_pass, outcome))


def _partition_metadata(full_pass: FullPass, outcome: PartitionOutcome) -> dict[str, Any]:
    verdicts = outcome.result.validation.verdicts if outcome.result.validation else ()
    kept = sorted({v.target for v in verdicts if v.kept and v.target})
    return {"classes": len(full_pass.partition(outcome.key).targets), "kept": len(kept),
            "skipped": len(outcome.result.skipped), "seconds": outcome.seconds, "commit": full_pass.plan.head or "",
            "kept_classes": MetadataValue.md("\n".join(f"- `{fqn}`" for fqn in kept) or "(none)")}


class FullPassOptions(Config):
    """Run config of a full pass."""

    dry_run: bool = Field(default=False, description="validate but write nothing")
    max_classes: int | None = Field(default=None,
                                    description="cap on targets (default: generation.max_classes_per_run)")


@op(out={"full_pass": Out(FullPass), "partitions": DynamicOut(str)},
    description="The graph and index brought up to date, the classes split into partitions, each module's classpath "
                "found once; fans out the partitions an earlier, interrupted pass of this commit had not finished.")
def plan_partitions(context: OpExecutionContext, config: FullPassOptions, repository: RepositoryResource):  # type: ignore[no-untyped-def]
    root, settings, state = repository.root, repository.config(), repository.state()
    summary = update_state(root, settings, state)
    checkout = open_checkout(root)
    head = checkout.head() if checkout else summary.commit
    request = RunRequest(full=True, dry_run=config.dry_run, max_classes=config.max_classes)
    with CodeGraph.open(state.graph_db) as code_graph:
        full_pass, done = plan_full_pass(root, settings, state, request, graph=code_graph, head=head)
    keys = [p.key for p in full_pass.partitions]
    known = set(context.instance.get_dynamic_partitions(PARTITIONS))
    context.instance.add_dynamic_partitions(PARTITIONS, [k for k in keys if k not in known])
    for gone in known - set(keys):  # packages that moved or went: the UI shows the repository as it is
        context.instance.delete_dynamic_partition(PARTITIONS, gone)
    todo = [key for key in keys if key not in done] or keys[-1:]  # at least one, so the pass can finish
    yield Output(full_pass, "full_pass", metadata={
        "commit": head or "", "partitions": len(keys), "classes": len(full_pass.targets),
        "finished_before": len(done), "to_run": len([k for k in keys if k not in done]),
        "left_for_later": full_pass.left_for_later, "batch_size": full_pass.batch_size,
        "partition_table": MetadataValue.md(_partition_table(full_pass, set(done))),
    })
    for number, key in enumerate(keys):
        if key in todo:
            yield DynamicOutput(key, output_name="partitions", mapping_key=_mapping_key(number, key))


def _mapping_key(number: int, key: str) -> str:
    """Dagster's mapping keys are identifiers: the partition's place in the pass and its key's letters (the same
    step key for a partition in a resumed pass)."""
    return f"p{number:04d}_" + re.sub(r"\W+", "_", key)[:60]


def _partition_table(full_pass: FullPass, done: set[str]) -> str:
    rows = [f"| `{p.key}` | {len(p.targets)} | {'finished before' if p.key in done else 'to run'} |"
            for p in full_pass.partitions[:300]]
    return "| partition | classes | state |\n|---|---:|---|\n" + "\n".join(rows) if rows else "(no classes)"


# Not in the GPU pool (whose limit is 1): partitions run side by side up to `full_pass.workers`. With the vllm
# backend on one GPU, keep workers at 1 (or give each fleet worker its own GPU).
@op(description="One partition's classes generated and validated, recorded in the ledger.")
def generate_partition(context: OpExecutionContext, full_pass: FullPass, key: str,
                       repository: RepositoryResource) -> str:
    outcome = run_partition(repository.root, repository.config(), repository.state(), full_pass, key)
    metadata = _partition_metadata(full_pass, outcome)
    context.log_event(AssetMaterialization(asset_key=full_pass_tests.key, partition=key, metadata=metadata,
                                           description=f"{metadata['kept']} of {metadata['classes']} classes kept "
                                                       "tests"))
    return key


@op(description="Every partition's kept tests through the build gate at once, written, and the pass's report.")
def finish_pass(context: OpExecutionContext, full_pass: FullPass, finished: list[str],
                repository: RepositoryResource) -> Output[RunReport]:
    report = finish_full_pass(repository.root, repository.config(), repository.state(), full_pass)
    return Output(report, metadata={
        "kept": report.kept, "targets": report.targets, "partitions": len(full_pass.partitions),
        "run_in_this_run": len(finished), "report_dir": report.report_dir or "",
        "report": MetadataValue.md(markdown_report(report)),
    })


@graph(description="A full pass in partitions: planned, generated side by side, finished; resumable.")
def full_pass() -> RunReport:
    planned, partitions = plan_partitions()
    finished = partitions.map(lambda key: generate_partition(planned, key))
    return finish_pass(planned, finished.collect())  # type: ignore[no-any-return]  # an output handle

"""A full pass in partitions: its targets split by module, then into package batches; each partition generated and
recorded on its own, so partitions run in parallel and a killed pass resumes with those it had not finished.

The ledger is a folder of the state, `full-pass/<commit>/`: the pass's plan, then one file per finished partition,
each written atomically (a killed worker leaves a partition recorded whole or not at all). Nothing reaches the
work tree before the pass finishes: the build gate then judges every partition's kept tests in one build, and
the tests are written, so a pass killed halfway leaves the repository as it was. The Dagster job
(`junitbot.pipelines.full_pass`) and `junitbot run --full --direct` call the same functions.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import Field

from junitbot.analysis import CodeGraph
from junitbot.atomic import write_atomically
from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.generation import GenerationResult, ProgressCallback, Target
from junitbot.generation.models import combine_results
from junitbot.records import Record
from junitbot.runs.models import RunPlan, RunReport, RunRequest
from junitbot.runs.plan import plan_run
from junitbot.runs.report import save_report
from junitbot.runs.steps import check_kept, finish_run, gate_in_build, generate_for_plan, select_targets
from junitbot.state import StateDir

_PLAN = "plan.json"
_DONE = "done"


class Partition(Record):
    """Classes of one module generated together: one package, part of one, or several small ones of a module."""

    key: str = Field(description="module/first package, with #n for a part of a package and +n for more packages")
    module: str = Field(description="the build module's folder ('' = the repository root)")
    targets: tuple[Target, ...]


class FullPass(Record):
    """A planned full pass: the run plan (commit, backend, run id) and its partitions, in the pass's order."""

    plan: RunPlan
    partitions: tuple[Partition, ...]
    batch_size: int
    left_for_later: int = 0

    def partition(self, key: str) -> Partition:
        found = next((p for p in self.partitions if p.key == key), None)
        if found is None:
            raise JunitbotError(f"no partition {key!r} in the full pass of {self.plan.head or 'this tree'}")
        return found

    @property
    def targets(self) -> tuple[Target, ...]:
        return tuple(t for p in self.partitions for t in p.targets)

    def same_work(self, other: FullPass) -> bool:
        """Whether `other` covers the same commit, classes, batches and backend (then a resume may reuse it)."""
        mine, theirs = self.plan, other.plan
        return (self.partitions == other.partitions and mine.head == theirs.head and mine.backend == theirs.backend
                and mine.dry_run == theirs.dry_run)


class PartitionOutcome(Record):
    """What one partition produced (its generation result with the validation of every candidate) and how long."""

    key: str
    result: GenerationResult
    seconds: float


def split_targets(targets: Sequence[Target], module_of: Callable[[str], str], batch_size: int) -> tuple[Partition, ...]:
    """Partitions of at most `batch_size` classes: by module, then by package, small packages of a module sharing a
    batch and large ones split; the order of `targets` (a full pass's priority) is kept within and across them."""
    groups: dict[str, dict[str, list[Target]]] = {}
    for target in targets:
        package = target.fqn.rsplit(".", 1)[0] if "." in target.fqn else ""
        groups.setdefault(module_of(target.file), {}).setdefault(package, []).append(target)
    partitions: list[Partition] = []
    for module, packages in groups.items():
        batch: list[Target] = []
        names: list[str] = []
        for package, members in packages.items():
            package = package or "(default package)"
            parts = [members[i:i + batch_size] for i in range(0, len(members), batch_size)]
            for number, part in enumerate(parts, start=1):
                if batch and len(batch) + len(part) > batch_size:
                    partitions.append(_partition(module, names, batch))
                    batch, names = [], []
                batch += part
                names.append(f"{package}#{number}" if len(parts) > 1 else package)
        if batch:
            partitions.append(_partition(module, names, batch))
    return _unique(partitions)


def _partition(module: str, names: Sequence[str], targets: Sequence[Target]) -> Partition:
    label = names[0] + (f"+{len(names) - 1}" if len(names) > 1 else "")
    return Partition(key=f"{module or '.'}/{label}", module=module, targets=tuple(targets))


def _unique(partitions: Sequence[Partition]) -> tuple[Partition, ...]:
    seen: dict[str, int] = {}
    unique = []
    for partition in partitions:
        count = seen[partition.key] = seen.get(partition.key, 0) + 1
        unique.append(partition if count == 1 else partition.model_copy(update={"key": f"{partition.key}~{count}"}))
    return tuple(unique)


class PassLedger:
    """The state folder of one commit's full pass: its plan and its finished partitions."""

    def __init__(self, state: StateDir, commit: str | None) -> None:
        self.folder = state.root / "full-pass" / (commit or "worktree")[:12]

    def plan(self) -> FullPass | None:
        path = self.folder / _PLAN
        try:
            return FullPass.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # none yet, or unreadable: the pass starts anew

    def start(self, full_pass: FullPass) -> None:
        """Begin `full_pass`, forgetting the partitions of any other pass of this commit."""
        shutil.rmtree(self.folder, ignore_errors=True)
        write_atomically(self.folder / _PLAN, full_pass.model_dump_json())

    def finished(self) -> dict[str, PartitionOutcome]:
        """The partitions recorded as done, by key (a file that cannot be read counts as not done)."""
        outcomes = {}
        for path in sorted((self.folder / _DONE).glob("*.json")):
            try:
                outcome = PartitionOutcome.model_validate_json(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            outcomes[outcome.key] = outcome
        return outcomes

    def record(self, outcome: PartitionOutcome) -> None:
        write_atomically(self.folder / _DONE / f"{_file_name(outcome.key)}.json", outcome.model_dump_json())

    def close(self) -> None:
        """The pass finished and its report is saved: the next full pass of this commit starts anew."""
        shutil.rmtree(self.folder, ignore_errors=True)


def _file_name(key: str) -> str:
    """A file name of a partition key: readable, and told apart by a hash where two keys read alike."""
    return re.sub(r"[^\w.-]+", "_", key)[:120] + "-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]


def plan_full_pass(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest, *,
                   graph: CodeGraph, head: str | None) -> tuple[FullPass, dict[str, PartitionOutcome]]:
    """The pass of `request` (a full one) at `head` over the current graph, and the partitions already finished:
    those of an interrupted pass of the same commit, classes and backend. Each module's classpath is found here,
    once, before partitions run side by side."""
    from junitbot.validation import discover_classpaths

    plan = plan_run(root, state, head, config, request.model_copy(update={"full": True, "classes": ()}))
    selection = select_targets(graph, config, plan, state)
    project = discover_classpaths(root, config.validation, state=state)
    partitions = split_targets(selection.targets, lambda path: project.module_for(path).module,
                               config.full_pass.batch_size)
    wanted = FullPass(plan=plan, partitions=partitions, batch_size=config.full_pass.batch_size,
                      left_for_later=selection.left_for_later)
    ledger = PassLedger(state, head)
    earlier = ledger.plan()
    if earlier is not None and earlier.same_work(wanted):
        done = ledger.finished()
        return earlier, {key: outcome for key, outcome in done.items() if key in {p.key for p in partitions}}
    ledger.start(wanted)
    return wanted, {}


def run_partition(root: Path, config: JunitbotConfig, state: StateDir, full_pass: FullPass, key: str, *,
                  progress: ProgressCallback | None = None) -> PartitionOutcome:
    """Generate and validate the partition `key` of `full_pass` and record it in the ledger (a partition already
    recorded is returned as it was)."""
    ledger = PassLedger(state, full_pass.plan.head)
    done = ledger.finished().get(key)
    if done is not None:
        return done
    partition = full_pass.partition(key)
    started = time.perf_counter()
    with CodeGraph.open(state.graph_db) as graph:
        result = generate_for_plan(root, config, state, full_pass.plan, partition.targets, graph=graph,
                                   progress=progress)
    outcome = PartitionOutcome(key=key, result=result, seconds=round(time.perf_counter() - started, 3))
    ledger.record(outcome)
    return outcome


def finish_full_pass(root: Path, config: JunitbotConfig, state: StateDir, full_pass: FullPass) -> RunReport:
    """Every partition's tests judged by the build gate at once, written, the report saved; the ledger closed.
    Raises when a partition is not finished (the pass is then resumed, not finished)."""
    ledger = PassLedger(state, full_pass.plan.head)
    done = ledger.finished()
    missing = [p.key for p in full_pass.partitions if p.key not in done]
    if missing:
        raise JunitbotError(f"{len(missing)} of {len(full_pass.partitions)} partitions of the full pass are not "
                            f"finished ({', '.join(missing[:5])}): run it again to resume")
    results = [done[p.key].result for p in full_pass.partitions]
    result = gate_in_build(root, config, state, combine_results(results))
    report = check_kept(root, config, state, finish_run(root, state, full_pass.plan, full_pass.targets, result))
    seconds = {**report.seconds, "partitions": float(len(full_pass.partitions)),
               "partition_seconds": round(sum(done[p.key].seconds for p in full_pass.partitions), 3)}
    saved = save_report(report.model_copy(update={"seconds": seconds}), state)
    ledger.close()
    return saved


def run_full_pass(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest, *, graph: CodeGraph,
                  head: str | None, progress: ProgressCallback | None = None) -> RunReport:
    """A whole full pass in this process, partition after partition (what Dagster runs side by side): resumed
    where an interrupted pass of the same commit stopped."""
    full_pass, done = plan_full_pass(root, config, state, request, graph=graph, head=head)
    for partition in full_pass.partitions:
        if partition.key not in done:
            run_partition(root, config, state, full_pass, partition.key, progress=progress)
    return finish_full_pass(root, config, state, full_pass)

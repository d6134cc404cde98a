"""One run of the main job: request → plan → targets → generation → build gate → finish → report, and history.

The same steps whether `run_pipeline` calls them in order or Dagster's assets call them one each.
"""

from __future__ import annotations

from junitbot.runs.changes import catch_changes, check_changes
from junitbot.runs.gate import JUNITBOT_RUNNER, apply_gate, judged_by
from junitbot.runs.history import CoverageDrop, CoverageEntry, coverage_drops, load_coverage, record_coverage
from junitbot.runs.models import (
    ALL_TARGETS,
    BehaviourChange,
    CatchingTest,
    ChangeCheck,
    ClassResult,
    KeptCheck,
    ModuleSummary,
    RunMode,
    RunPlan,
    RunReport,
    RunRequest,
    TargetList,
)
from junitbot.runs.partitions import (
    FullPass,
    Partition,
    PartitionOutcome,
    PassLedger,
    finish_full_pass,
    plan_full_pass,
    run_full_pass,
    run_partition,
    split_targets,
)
from junitbot.runs.pipeline import run_pipeline
from junitbot.runs.plan import instructions_for, last_run, plan_run, record_run
from junitbot.runs.report import (
    change_lines,
    coverage_table,
    expectation_lines,
    gate_summary,
    markdown_report,
    percent,
    save_report,
    suite_table,
)
from junitbot.runs.steps import check_kept, finish_run, gate_in_build, generate_for_plan, select_targets
from junitbot.runs.targets import prioritize_full_pass, selected_by_config, targets_for

__all__ = [
    "ALL_TARGETS",
    "JUNITBOT_RUNNER",
    "BehaviourChange",
    "CatchingTest",
    "ChangeCheck",
    "ClassResult",
    "CoverageDrop",
    "CoverageEntry",
    "FullPass",
    "KeptCheck",
    "ModuleSummary",
    "Partition",
    "PartitionOutcome",
    "PassLedger",
    "RunMode",
    "RunPlan",
    "RunReport",
    "RunRequest",
    "TargetList",
    "apply_gate",
    "catch_changes",
    "change_lines",
    "check_changes",
    "check_kept",
    "coverage_drops",
    "coverage_table",
    "expectation_lines",
    "finish_full_pass",
    "finish_run",
    "gate_in_build",
    "gate_summary",
    "generate_for_plan",
    "instructions_for",
    "judged_by",
    "last_run",
    "load_coverage",
    "markdown_report",
    "percent",
    "plan_full_pass",
    "plan_run",
    "prioritize_full_pass",
    "record_coverage",
    "record_run",
    "run_full_pass",
    "run_partition",
    "run_pipeline",
    "save_report",
    "select_targets",
    "selected_by_config",
    "split_targets",
    "suite_table",
    "targets_for",
]

"""The full pass job: the partitioned graph of `assets.full_pass` on an executor that runs partitions side by side
(Dagster's multiprocess executor here; Celery or Kubernetes on a runner fleet: `deploy/dagster/`), and how
`junitbot run --full` executes it against the repository's instance."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from junitbot.config import JunitbotConfig, config_json
from junitbot.errors import JunitbotError
from junitbot.runs import RunReport, RunRequest
from junitbot.state import StateDir

if TYPE_CHECKING:
    from dagster import ExecutorDefinition, JobDefinition

# What every step process of a full pass imports, loaded once into the multiprocess executor's fork server: each step
# then starts as a fork of it instead of a fresh interpreter importing Dagster and junitbot again (1.7 s of CPU a
# step, and a full pass runs several steps per partition).
STEP_MODULES = ("junitbot.pipelines.full_pass", "junitbot.assets.full_pass", "junitbot.runs")

EXECUTORS = ("multiprocess", "celery", "k8s")
"""The executors a full pass can run on: `JUNITBOT_EXECUTOR` picks one for the code location."""


def fleet_executor(name: str, workers: int) -> ExecutorDefinition:
    """The executor called `name`: multiprocess (up to `workers` partitions at once, here), celery
    (dagster-celery: each partition a task on the fleet's workers) or k8s (dagster-k8s: each a Kubernetes job)."""
    if name == "multiprocess":
        from dagster import multiprocess_executor

        return multiprocess_executor.configured({"max_concurrent": workers, "start_method": {"forkserver": {
            "preload_modules": list(STEP_MODULES)}}}, name="multiprocess")
    if name == "celery":
        try:
            from dagster_celery import celery_executor
        except ImportError as e:
            raise JunitbotError("the celery executor needs dagster-celery: pip install 'junitbot[fleet]'") from e
        return celery_executor
    if name == "k8s":
        try:
            from dagster_k8s import k8s_job_executor
        except ImportError as e:
            raise JunitbotError("the k8s executor needs dagster-k8s: pip install 'junitbot[fleet]'") from e
        return k8s_job_executor
    raise JunitbotError(f"unknown executor {name!r}: one of {', '.join(EXECUTORS)}")


def full_pass_job(config: JunitbotConfig, *, executor: str = "multiprocess",
                  resources: dict[str, Any] | None = None) -> JobDefinition:
    """The partitioned full pass as a job on `executor` (the configured `full_pass.workers` for multiprocess)."""
    from junitbot.assets.full_pass import full_pass

    return full_pass.to_job(name="full_pass_job", executor_def=fleet_executor(executor, config.full_pass.workers),
                            resource_defs=resources or {},
                            description="Every class, in partitions (module, then package batches) run side by "
                                        "side; a killed pass resumes with the partitions it had not finished.")


def reconstruct_full_pass_job(path: str, settings_json: str) -> JobDefinition:
    """The job bound to one repository, as each step's process rebuilds it (Dagster's reconstructable job)."""
    from junitbot.assets.resources import RepositoryResource

    config = JunitbotConfig.model_validate_json(settings_json)
    return full_pass_job(config, resources={"repository": RepositoryResource(path=path, config_json=settings_json)})


def execute_full_pass(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest) -> tuple[RunReport,
                                                                                                         str]:
    """Run the full pass job against the repository's instance, partitions on `full_pass.workers` processes;
    returns the report and the run id."""
    from dagster import DagsterInstance, build_reconstructable_job, execute_job

    from junitbot.pipelines.execute import RunFailed, failure_message
    from junitbot.pipelines.instance import dagster_home

    home = dagster_home(state)
    os.environ.setdefault("DAGSTER_HOME", str(home))
    job = build_reconstructable_job("junitbot.pipelines.full_pass", "reconstruct_full_pass_job",
                                    reconstructable_args=(str(root), config_json(config)))  # type: ignore[arg-type]  # typed as a 1-tuple
    run_config = {"ops": {"plan_partitions": {"config": {"dry_run": request.dry_run,
                                                         "max_classes": request.max_classes}}},
                  "loggers": {"console": {"config": {"log_level": "WARNING"}}}}
    with DagsterInstance.from_config(str(home)) as instance, execute_job(
            job, instance=instance, run_config=run_config, raise_on_error=False) as result:
        if not result.success:
            raise RunFailed(failure_message(result.run_id, result.all_events)
                            + " (run it again: the partitions that finished are kept)")
        report = result.output_for_node("finish_pass")
        run_id = result.run_id
    if not isinstance(report, RunReport):
        raise RunFailed(f"run {run_id} gave no report")
    return report, run_id

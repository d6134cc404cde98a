"""The scheduled full pass and the sensor that runs incremental_job when the watched branch moves."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

from dagster import (
    DefaultScheduleStatus,
    DefaultSensorStatus,
    RunRequest,
    ScheduleDefinition,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    sensor,
)

from junitbot.assets.resources import RepositoryResource
from junitbot.config import JunitbotConfig
from junitbot.pipelines.jobs import incremental_job


def full_pass_schedule(config: JunitbotConfig) -> ScheduleDefinition:
    """The nightly pass over every class: the partitioned full pass (`full_pass.partitioned`), else the
    single-run asset job."""
    return ScheduleDefinition(
        name="full_repo_schedule", job_name="full_pass_job" if config.full_pass.partitioned else "full_repo_job",
        cron_schedule=config.schedule.cron,
        execution_timezone=config.schedule.timezone, default_status=DefaultScheduleStatus.STOPPED,
        description="Scheduled full-repo pass (cron from `schedule.cron` in .junitbot.yml).",
    )


def branch_sensor(config: JunitbotConfig):  # type: ignore[no-untyped-def]
    branch = config.schedule.branch

    @sensor(name="branch_head_sensor", job=incremental_job, minimum_interval_seconds=config.schedule.sensor_interval_s,
            default_status=DefaultSensorStatus.STOPPED,
            description=f"Runs incremental_job for each new head of `{branch}` (the commit is the run key).")
    def branch_head_sensor(context: SensorEvaluationContext,
                           repository: RepositoryResource) -> SensorResult | SkipReason:
        from junitbot.analysis import open_checkout

        checkout = open_checkout(repository.root)
        if checkout is None:
            return SkipReason(f"{repository.root} is not a git repository")
        head = checkout.resolve(branch)
        if head is None:
            return SkipReason(f"no branch {branch} in {repository.root}")
        if head == context.cursor:
            return SkipReason(f"{branch} is still at {head[:12]}")
        # The commit is the run key: Dagster never starts two runs for one commit, even if the cursor is lost.
        return SensorResult(run_requests=[RunRequest(run_key=head, tags={"junitbot/commit": head})], cursor=head)

    return branch_head_sensor

"""Run a job through Dagster against the repository's persistent instance (what `junitbot run` does)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.runs import RunReport, RunRequest
from junitbot.state import StateDir

if TYPE_CHECKING:
    from dagster import DagsterEvent

    from junitbot.assets.resources import GitHubResource

_JOBS = {"incremental": "incremental_job", "full": "full_repo_job", "regenerate": "regenerate_job"}


class RunFailed(JunitbotError):
    """A Dagster run of the job failed; the message names the failed steps."""


def execute_run(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest, *,
                publish: bool = False) -> tuple[RunReport, str]:
    """Execute the job of the request's mode in process with `config`, recorded in the instance; returns the
    report and the run id."""
    from dagster import DagsterInstance

    from junitbot.pipelines.definitions import build_definitions
    from junitbot.pipelines.instance import dagster_home

    if request.mode == "full" and config.full_pass.partitioned and not publish:
        from junitbot.pipelines.full_pass import execute_full_pass

        _export_secrets(config)
        return execute_full_pass(root, config, state, request)
    home = dagster_home(state)
    os.environ.setdefault("DAGSTER_HOME", str(home))
    _export_secrets(config)
    defs = build_definitions(root, config, publish=False, github=_github_for_publishing() if publish else None)
    with DagsterInstance.from_config(str(home)) as instance:
        result = defs.resolve_job_def(_JOBS[request.mode]).execute_in_process(
            run_config={"ops": {"changeset": {"config": run_options(request)}},
                        # The instance records every event; the console gets only what needs a person.
                        "loggers": {"console": {"config": {"log_level": "WARNING"}}}},
            instance=instance, raise_on_error=False)
        if not result.success:
            raise RunFailed(failure_message(result.run_id, result.all_events))
        report = result.output_for_node("test_report")
    if not isinstance(report, RunReport):
        raise RunFailed(f"run {result.run_id} gave no report")
    return report, result.run_id


def failure_message(run_id: str, events: Sequence[DagsterEvent]) -> str:
    """`run ID failed in STEPS: MESSAGES`, from a failed run's events."""
    failures = [e for e in events if e.is_step_failure]
    messages = [str(e.step_failure_data.error.message).strip() for e in failures
                if e.step_failure_data.error is not None]
    steps = ", ".join(e.step_key or "" for e in failures) or "the job"
    return f"run {run_id} failed in {steps}: {'; '.join(messages)[:2000]}"


def run_options(request: RunRequest) -> dict[str, object]:
    """The `changeset` asset's run config (`assets.RunOptions`) that asks for `request`."""
    return {"mode": request.mode, "classes": list(request.classes), "since": request.since,
            "dry_run": request.dry_run, "max_classes": request.max_classes, "pr_number": request.pr_number,
            "instructions": dict(request.instructions)}


def dagster_runner(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest) -> RunReport:
    """The bot's runner (`junitbot ci`): the event's run as a Dagster job, recorded in the instance."""
    report, _ = execute_run(root, config, state, request)
    return report


def _export_secrets(config: JunitbotConfig) -> None:
    """The API key stays out of the serialised config the resource holds (the UI shows resources): a key set
    in the configuration reaches the backend through OPENAI_API_KEY, in this process only."""
    key = config.generation.llm.openai_api_key
    if key is not None:
        os.environ["OPENAI_API_KEY"] = key.get_secret_value()


def _github_for_publishing() -> GitHubResource:
    """GitHub from GITHUB_TOKEN and GITHUB_REPOSITORY; the token leaves the environment before any build or test
    JVM starts, so only the resource holds it. Publishing is asked for explicitly (`--publish`)."""
    from junitbot.assets.resources import GitHubResource

    token = os.environ.pop("GITHUB_TOKEN", None)
    repository = os.environ.get("GITHUB_REPOSITORY")
    if not (token and repository):
        raise JunitbotError("--publish needs GITHUB_TOKEN and GITHUB_REPOSITORY (owner/name)")
    return GitHubResource(token=token, repository=repository,
                          api_url=os.environ.get("GITHUB_API_URL", "https://api.github.com"))

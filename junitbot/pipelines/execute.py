"""Run a job through Dagster against the repository's persistent instance (what `junitbot run` does)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from junitbot.errors import JunitbotError
from junitbot.generation.run import RunReport
from junitbot.state import StateDir


class RunFailed(JunitbotError):
    """A Dagster run of the job failed; the message names the failed steps."""


def execute_run(
    root: Path, state: StateDir, *, mode: str = "incremental", classes: Sequence[str] = (), since: str | None = None,
    dry_run: bool = False, max_classes: int | None = None, pr_number: int | None = None,
    state_dir: Path | None = None, publish: bool = False,
) -> tuple[RunReport, str]:
    """Execute the job of `mode` in process, recorded in the instance; returns the report and the run id."""
    from dagster import DagsterInstance

    from junitbot.pipelines.definitions import build_definitions
    from junitbot.pipelines.instance import dagster_home

    home = dagster_home(state)
    os.environ.setdefault("DAGSTER_HOME", str(home))
    job_name = {"incremental": "incremental_job", "full": "full_repo_job", "regenerate": "regenerate_job"}[mode]
    # Publishing from a shell that happens to export GITHUB_TOKEN would surprise: it is asked for explicitly.
    github = None
    if publish:
        from junitbot.assets.resources import GitHubResource

        # Out of the environment before any build tool or test JVM starts: only the resource holds it.
        token = os.environ.pop("GITHUB_TOKEN", None)
        repository = os.environ.get("GITHUB_REPOSITORY")
        if not (token and repository):
            raise JunitbotError("--publish needs GITHUB_TOKEN and GITHUB_REPOSITORY (owner/name)")
        github = GitHubResource(token=token, repository=repository,
                                api_url=os.environ.get("GITHUB_API_URL", "https://api.github.com"))
    defs = build_definitions(root, state_dir, publish=False, github=github)
    options: dict[str, Any] = {"mode": mode, "classes": list(classes), "since": since, "dry_run": dry_run,
                               "max_classes": max_classes, "pr_number": pr_number}
    with DagsterInstance.from_config(str(home)) as instance:
        result = defs.resolve_job_def(job_name).execute_in_process(
            run_config={"ops": {"changeset": {"config": options}},
                        # The instance records every event; the console gets only what needs a person.
                        "loggers": {"console": {"config": {"log_level": "WARNING"}}}},
            instance=instance, raise_on_error=False)
        if not result.success:
            failed = [e.step_key or "" for e in result.all_events if e.is_step_failure]
            messages = [str(e.event_specific_data.error.message).strip()  # type: ignore[union-attr]
                        for e in result.all_events if e.is_step_failure and e.event_specific_data]
            raise RunFailed(f"run {result.run_id} failed in {', '.join(failed) or 'the job'}: "
                            f"{'; '.join(messages)[:2000]}")
        report = result.output_for_node("test_report")
    return report, result.run_id


def dagster_runner(root: Path, config: object, state: StateDir, request: object) -> RunReport:
    """The bot's runner (`junitbot ci`): the event's run as a Dagster job, recorded in the instance."""
    full = bool(getattr(request, "full", False))
    classes = tuple(getattr(request, "classes", ()))
    mode = "regenerate" if classes else "full" if full else "incremental"
    report, _ = execute_run(root, state, mode=mode, classes=classes, since=getattr(request, "since", None),
                            state_dir=state.root)
    return report

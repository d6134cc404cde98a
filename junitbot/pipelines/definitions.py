"""One `Definitions` object per repository: assets, checks, jobs, schedule, sensor and resources."""

from __future__ import annotations

import os
from pathlib import Path

from dagster import Definitions, EnvVar

from junitbot.assets.assets import ALL_ASSETS
from junitbot.assets.checks import ALL_CHECKS
from junitbot.assets.full_pass import full_pass_tests
from junitbot.assets.resources import GitHubResource, RepositoryResource
from junitbot.config import JunitbotConfig, config_json, load_config
from junitbot.pipelines.full_pass import full_pass_job
from junitbot.pipelines.jobs import full_repo_job, incremental_job, regenerate_job
from junitbot.pipelines.schedules import branch_sensor, full_pass_schedule


def _github_from_environment() -> GitHubResource:
    """GITHUB_TOKEN and GITHUB_REPOSITORY when a deployment sets them (an EnvVar keeps the token out of the UI)."""
    if os.environ.get("GITHUB_TOKEN") and os.environ.get("GITHUB_REPOSITORY"):
        return GitHubResource(token=EnvVar("GITHUB_TOKEN"), repository=os.environ["GITHUB_REPOSITORY"],
                              api_url=os.environ.get("GITHUB_API_URL", "https://api.github.com"))
    return GitHubResource()


def build_definitions(repo: str | Path, config: JunitbotConfig | None = None, *, publish: bool = True,
                      github: GitHubResource | None = None, executor: str | None = None) -> Definitions:
    """The code location of one repository, working with `config` (default: the repository's own, read once).

    `publish=False` leaves `test_pull_request` without GitHub, and `github` gives it a resource directly (the
    token then never sits in the process environment). `executor` runs the full pass's partitions: multiprocess
    (default), celery or k8s (default: `JUNITBOT_EXECUTOR`).
    """
    root = Path(repo).resolve()
    config = config or load_config(root)
    full_pass = full_pass_job(config, executor=executor or os.environ.get("JUNITBOT_EXECUTOR", "multiprocess"))
    return Definitions(
        assets=[*ALL_ASSETS, full_pass_tests],
        asset_checks=ALL_CHECKS,
        jobs=[incremental_job, full_repo_job, regenerate_job, full_pass],
        schedules=[full_pass_schedule(config)],
        sensors=[branch_sensor(config)],
        resources={
            "repository": RepositoryResource(path=str(root), config_json=config_json(config)),
            "github": github or (_github_from_environment() if publish else GitHubResource()),
        },
    )

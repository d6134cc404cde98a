"""Dagster resources: the repository under test with its effective configuration, and GitHub."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

from pathlib import Path

from dagster import ConfigurableResource
from pydantic import Field

from junitbot.config import JunitbotConfig
from junitbot.state import StateDir


class RepositoryResource(ConfigurableResource):  # type: ignore[type-arg]  # dagster's generic has no parameter here
    """The Java repository a run works on, its effective configuration (file < environment < flags, resolved
    once by whoever built the definitions) and where its state lives."""

    path: str = Field(description="the repository's root folder")
    config_json: str = Field(description="the effective configuration as JSON (junitbot.config.config_json)")

    @property
    def root(self) -> Path:
        return Path(self.path).resolve()

    def config(self) -> JunitbotConfig:
        return JunitbotConfig.model_validate_json(self.config_json)

    def state(self) -> StateDir:
        return StateDir.for_repo(self.root, self.config()).ensure()


class GitHubResource(ConfigurableResource):  # type: ignore[type-arg]  # dagster's generic has no parameter here
    """Where the bot publishes (the `test_pull_request` asset); empty token means dry runs only."""

    token: str | None = Field(default=None, description="a token with contents and pull-requests write access")
    repository: str | None = Field(default=None, description="owner/name")
    api_url: str = Field(default="https://api.github.com")

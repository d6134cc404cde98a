"""Dagster resources: the repository under test, the generation backend, and GitHub."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

from pathlib import Path

from dagster import ConfigurableResource
from pydantic import Field

from junitbot.config import JunitbotConfig, load_config
from junitbot.state import StateDir


class RepositoryResource(ConfigurableResource):  # type: ignore[type-arg]
    """The Java repository a run works on, and where its state lives."""

    path: str = Field(description="the repository's root folder")
    state_dir: str | None = Field(default=None, description="state directory (default <repo>/.junitbot)")

    @property
    def root(self) -> Path:
        return Path(self.path).resolve()

    def config(self) -> JunitbotConfig:
        return load_config(self.root, overrides={"state_dir": Path(self.state_dir) if self.state_dir else None})

    def state(self) -> StateDir:
        return StateDir.for_repo(self.root, self.config()).ensure()


class GenerationBackendResource(ConfigurableResource):  # type: ignore[type-arg]
    """Which generator writes the tests; `template` needs no model (the other backends plug in here)."""

    backend: str = Field(default="auto", description="auto, vllm, openai, transformers or template (no model)")


class GitHubResource(ConfigurableResource):  # type: ignore[type-arg]
    """Where the bot publishes (the `test_pull_request` asset); empty token means dry runs only."""

    token: str | None = Field(default=None, description="a token with contents and pull-requests write access")
    repository: str | None = Field(default=None, description="owner/name")
    api_url: str = Field(default="https://api.github.com")

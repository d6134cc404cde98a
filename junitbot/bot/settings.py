"""BotSettings: how the bot behaves on GitHub (branches, labels, caps, who may command); pydantic only."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

_TRAILER = re.compile(r"^[A-Za-z][A-Za-z0-9-]*: \S.*$")


class ApiSettings(BaseModel):
    """How the GitHub REST client retries and paces its calls."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    retries: int = Field(default=4, ge=0, le=20, description="retries of a call that failed with 5xx or a rate limit")
    backoff_s: float = Field(default=1.0, ge=0, description="exponential backoff factor between retries, seconds")
    max_rate_limit_wait_s: float = Field(
        default=300.0, ge=0, description="longest wait for a rate limit to reset before the run gives up"
    )
    seconds_between_writes: float = Field(
        default=1.0, ge=0, description="pause between write calls, as GitHub asks of integrations"
    )
    timeout_s: int = Field(default=30, ge=1, description="timeout of one HTTP request")


class BotSettings(BaseModel):
    """Every knob of the GitHub side; functions take it as a parameter, nothing reads it globally."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    branch_pattern: str = Field(
        default="junitbot/{base}", description="the bot branch for a base branch; must contain {base}"
    )
    labels: tuple[str, ...] = Field(default=("junitbot",), description="labels put on the bot's pull requests")
    draft: bool = Field(default=False, description="open pull requests as drafts")
    max_open_pull_requests: int = Field(default=5, ge=1, description="no new bot pull request while this many are open")
    max_new_pull_requests_per_hour: int = Field(default=2, ge=1, description="new bot pull requests per hour")
    max_commands_per_pull_request_per_hour: int = Field(
        default=5, ge=1, description="regenerations one pull request may ask for per hour"
    )
    max_classes_per_command: int = Field(default=20, ge=1, description="class names one command may list")
    mode: Literal["pr", "commit"] = Field(
        default="pr", description="deliver tests as a bot pull request, or commit them onto the PR's own branch"
    )
    allow_commit_mode: bool = Field(default=False, description="allow mode commit (pushes onto people's branches)")
    allow_fork_prs: bool = Field(
        default=False,
        description="run for pull requests from forks; only ever in a job without a write token (split set-up)",
    )
    command_prefix: str = Field(default="/junitbot", pattern=r"^/[\w-]+$", description="what starts a command")
    command_permissions: tuple[str, ...] = Field(
        default=("admin", "maintain", "write"), description="collaborator permissions that may command the bot"
    )
    commit_trailer: str = Field(default="Generated-by: junitbot", description="trailer that marks the bot's commits")
    commit_author_name: str = Field(default="junitbot", description="author and committer name of bot commits")
    commit_author_email: str = Field(
        default="junitbot@users.noreply.github.com", description="author and committer email of bot commits"
    )
    bot_login: str = Field(
        default="github-actions[bot]", description="the login the token acts as (an App: '<slug>[bot]')"
    )
    ignore_logins: tuple[str, ...] = Field(
        default=("dependabot[bot]", "renovate[bot]"), description="senders whose events never trigger the bot"
    )
    remote: str = Field(default="origin", description="git remote (name or URL) the bot pushes to")
    api: ApiSettings = Field(default_factory=ApiSettings)

    @field_validator("branch_pattern")
    @classmethod
    def _has_base(cls, value: str) -> str:
        if "{base}" not in value or value.startswith("{base}"):
            raise ValueError("must contain {base} after a fixed prefix, e.g. 'junitbot/{base}'")
        if any(part in value for part in ("..", " ", "~", "^", ":", "\\")):
            raise ValueError("not a valid git branch name")
        return value

    @field_validator("commit_trailer")
    @classmethod
    def _is_trailer(cls, value: str) -> str:
        if not _TRAILER.match(value):
            raise ValueError("must read 'Key: value', e.g. 'Generated-by: junitbot'")
        return value

    def bot_branch(self, base: str) -> str:
        """`junitbot/{base}` for a base branch."""
        return self.branch_pattern.replace("{base}", base)

    def is_bot_branch(self, branch: str) -> bool:
        """A branch the bot itself pushes (any base)."""
        prefix, _, suffix = self.branch_pattern.partition("{base}")
        return branch.startswith(prefix) and branch.endswith(suffix) and len(branch) > len(prefix) + len(suffix)

    def ignored_logins(self) -> frozenset[str]:
        """Senders the bot never reacts to: other bots and itself."""
        return frozenset(login.lower() for login in (*self.ignore_logins, self.bot_login))

"""The bot's errors: all are JunitbotErrors, so the CLI prints them and exits with 1.

    JunitbotError
    ├── EventError        the GitHub Actions environment or the event payload is missing or malformed
    └── GitHubApiError    a GitHub API call failed after its retries (5xx, rate limit, permissions, ...)
        └── PullExistsError   a pull request is already open for the branch (another run was first)
"""

from __future__ import annotations

from junitbot.errors import JunitbotError


class EventError(JunitbotError):
    """GITHUB_EVENT_NAME / GITHUB_EVENT_PATH (or the payload behind them) cannot be used; says which."""


class GitHubApiError(JunitbotError):
    """A GitHub API call failed for good; the message names the call and GitHub's answer, never the token."""


class PullExistsError(GitHubApiError):
    """GitHub refused a new pull request because one is already open for the branch (a racing run)."""

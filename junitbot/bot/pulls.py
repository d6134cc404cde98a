"""The rolling bot PR on GitHub: found by branch and hidden marker (never by memory), capped, created or updated.

Two runs racing on one branch both see no PR and both try to open one: GitHub refuses the second (422, "already
exists"), which then finds the first and updates it, so one PR remains.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from junitbot.bot.declined import DeclinedPull, record_declined
from junitbot.bot.errors import GitHubApiError, PullExistsError
from junitbot.bot.github import GitHubClient
from junitbot.bot.models import CommentInfo, PullInfo
from junitbot.bot.report import parse_pull_marker, parse_reply_marker
from junitbot.bot.settings import BotSettings
from junitbot.state import StateDir

log = logging.getLogger(__name__)

_HOUR = timedelta(hours=1)


def is_own_pull(pull: PullInfo, settings: BotSettings, repository: str, *, branch: str | None = None) -> bool:
    """A PR of the bot's: from a bot branch of this repository (not a fork), with the bot's marker in its body."""
    if branch is not None and pull.head_ref != branch:
        return False
    return (pull.head_repo == repository and settings.is_bot_branch(pull.head_ref)
            and parse_pull_marker(pull.body) is not None)


def own_pulls(client: GitHubClient, settings: BotSettings, branch: str) -> list[PullInfo]:
    """The bot's PRs from `branch`, newest first, open and closed."""
    return [p for p in client.pulls(state="all", head=branch, limit=30)
            if is_own_pull(p, settings, client.full_name, branch=branch)]


def record_closed(pulls: Sequence[PullInfo], state: StateDir) -> list[int]:
    """Record each closed-unmerged PR's classes as declined; returns the PR numbers newly recorded."""
    recorded = []
    for pull in pulls:
        marker = parse_pull_marker(pull.body)
        if pull.open or pull.merged or marker is None or not marker.classes:
            continue
        if record_declined(state, DeclinedPull(pull_number=pull.number, base=marker.base, classes=marker.classes)):
            log.info("#%d was closed unmerged: %d classes will not be proposed again until they change",
                     pull.number, len(marker.classes))
            recorded.append(pull.number)
    return recorded


def cap_reason(client: GitHubClient, settings: BotSettings, *, now: datetime | None = None) -> str | None:
    """Why no new bot PR may be opened now (open PRs or hourly cap reached), or None."""
    now = now or datetime.now(UTC)
    open_pulls = [p for p in client.pulls(state="open") if is_own_pull(p, settings, client.full_name)]
    if len(open_pulls) >= settings.max_open_pull_requests:
        return (f"{len(open_pulls)} bot pull requests are open (max_open_pull_requests is "
                f"{settings.max_open_pull_requests}): merge or close some first")
    recent = [p for p in client.pulls(state="all", limit=50)
              if is_own_pull(p, settings, client.full_name) and p.created_at is not None and now - p.created_at < _HOUR]
    if len(recent) >= settings.max_new_pull_requests_per_hour:
        return (f"{len(recent)} bot pull requests were opened in the last hour (max_new_pull_requests_per_hour "
                f"is {settings.max_new_pull_requests_per_hour}): the next run will open it")
    return None


def create_or_update(
    client: GitHubClient, settings: BotSettings, *, branch: str, base: str, title: str, body: str,
    existing: PullInfo | None,
) -> tuple[PullInfo, bool]:
    """(the PR, whether it is new): update `existing`, else create; a concurrent creation is found and updated."""
    if existing is None:
        try:
            created = client.create_pull(base=base, head=branch, title=title, body=body, draft=settings.draft)
        except PullExistsError:
            log.info("another run opened the pull request for %s first: updating it instead", branch)
            existing = next((p for p in own_pulls(client, settings, branch) if p.open), None)
            if existing is None:
                raise GitHubApiError(f"GitHub reports an open pull request for {branch}, but none carries "
                                     "junitbot's marker: close it or restore its body") from None
        else:
            client.add_labels(created.number, settings.labels)
            return created, True
    client.update_pull(existing.number, title=title, body=body)
    client.add_labels(existing.number, settings.labels)
    return existing, False


def commands_used(comments: Sequence[CommentInfo], settings: BotSettings, *, now: datetime | None = None) -> int:
    """Regenerations answered on a PR in the last hour, counted from the bot's own reply markers."""
    now = now or datetime.now(UTC)
    used = 0
    for comment in comments:
        marker = parse_reply_marker(comment.body)
        if (marker is not None and marker[1] in ("ran", "failed")
                and comment.author.lower() == settings.bot_login.lower()
                and comment.created_at is not None and now - comment.created_at < _HOUR):
            used += 1
    return used

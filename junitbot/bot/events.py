"""GitHub Actions events: GITHUB_EVENT_NAME + GITHUB_EVENT_PATH → a typed event → a BotAction (what to do).

Loop protection lives here: the bot's own pushes and branches, other bots' events and comments carrying the
bot's hidden marker all plan to `ignore`, with the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from junitbot.bot.commands import find_command
from junitbot.bot.errors import EventError
from junitbot.bot.models import (
    BotAction,
    BotEvent,
    CommentEvent,
    DispatchEvent,
    PullRequestEvent,
    PushEvent,
    ScheduleEvent,
    UserRef,
)
from junitbot.bot.settings import BotSettings
from junitbot.quoting import inline_code

HANDLED_EVENTS = ("push", "issue_comment", "pull_request", "schedule", "workflow_dispatch")
HIDDEN_MARKER = "<!-- junitbot:"
_ZERO_SHA = re.compile(r"^0{40}$")
_EVENT = TypeAdapter[BotEvent](BotEvent)


def load_event(environ: Mapping[str, str]) -> tuple[str, BotEvent | None]:
    """(event name, parsed event); the event is None for events the bot does not handle."""
    name = _required(environ, "GITHUB_EVENT_NAME")
    path = Path(_required(environ, "GITHUB_EVENT_PATH"))
    if name not in HANDLED_EVENTS:
        return name, None
    payload = _read_payload(path)
    if name == "schedule":
        payload = _schedule_payload(payload, environ)
    return name, parse_event(name, payload, source=str(path))


def parse_event(name: str, payload: Mapping[str, Any], *, source: str = "the event payload") -> BotEvent:
    """Validate a payload of a handled event; EventError names the fields that are missing or wrong."""
    try:
        return _EVENT.validate_python({**payload, "kind": name})
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(p) for p in item['loc'][1:]) or '(top)'}: {item['msg']}"
                             for item in e.errors()[:5])
        raise EventError(f"{source}: not a usable {name} payload ({problems})") from e


def _required(environ: Mapping[str, str], name: str) -> str:
    value = environ.get(name, "").strip()
    if not value:
        raise EventError(f"{name} is not set: `junitbot ci` runs inside GitHub Actions (or set it yourself, "
                         "with GITHUB_EVENT_PATH pointing at a webhook payload)")
    return value


def _read_payload(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise EventError(f"GITHUB_EVENT_PATH={path}: no such file") from e
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise EventError(f"GITHUB_EVENT_PATH={path}: not a JSON payload ({e})") from e
    if not isinstance(data, dict):
        raise EventError(f"GITHUB_EVENT_PATH={path}: expected a JSON object, got {type(data).__name__}")
    return data


def _schedule_payload(payload: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """A scheduled run's payload is only `{"schedule": cron}`; the rest comes from the environment."""
    repository = _required(environ, "GITHUB_REPOSITORY")
    ref = _required(environ, "GITHUB_REF")
    default = ref.removeprefix("refs/heads/")
    return {**payload, "repository": payload.get("repository") or {"full_name": repository, "default_branch": default},
            "ref": ref, "sha": environ.get("GITHUB_SHA") or None}


# -- planning ---------------------------------------------------------------------------------------------


def plan_action(event: BotEvent, settings: BotSettings) -> BotAction:
    """What the event asks the bot to do, or why it does nothing (pure)."""
    if isinstance(event, PushEvent):
        return _plan_push(event, settings)
    if isinstance(event, CommentEvent):
        return _plan_comment(event, settings)
    if isinstance(event, PullRequestEvent):
        return _plan_pull_request(event, settings)
    if isinstance(event, ScheduleEvent):
        return _plan_schedule(event)
    return _plan_dispatch(event)


def ignore(reason: str, repository: str) -> BotAction:
    """The plan that does nothing, and says why."""
    return BotAction(kind="ignore", reason=reason, repository=repository)


def _ignored_sender(user: UserRef, settings: BotSettings) -> bool:
    return user.login.lower() in settings.ignored_logins()


def _plan_push(event: PushEvent, settings: BotSettings) -> BotAction:
    repo = event.repository
    if not event.ref.startswith("refs/heads/"):
        return ignore(f"push to {event.ref}: only branch pushes are handled", repo.full_name)
    branch = event.ref.removeprefix("refs/heads/")
    if event.deleted or _ZERO_SHA.match(event.after):
        return ignore(f"branch {branch} was deleted", repo.full_name)
    if settings.is_bot_branch(branch):
        return ignore(f"push to the bot's own branch {branch}", repo.full_name)
    if _ignored_sender(event.sender, settings):
        return ignore(f"push by {event.sender.login}, which never triggers the bot", repo.full_name)
    if event.head_commit is not None and has_trailer(event.head_commit.message, settings.commit_trailer):
        return ignore(f"head commit carries `{settings.commit_trailer}`: the bot's own commit", repo.full_name)
    common: dict[str, Any] = {"repository": repo.full_name, "default_branch": repo.default_branch,
                              "base_branch": branch, "head_sha": event.after}
    if event.created or _ZERO_SHA.match(event.before):
        if branch == repo.default_branch:
            return BotAction(kind="full", reason=f"new default branch {branch}: every class",
                             trigger=f"first push to {branch}", **common)
        return BotAction(kind="incremental", reason=f"new branch {branch}: changes since {repo.default_branch}",
                         diff_base=repo.default_branch, merge_base=True,
                         trigger=f"new branch {branch} ({event.after[:12]})", **common)
    return BotAction(kind="incremental", reason=f"push to {branch}: {event.before[:12]}..{event.after[:12]}",
                     diff_base=event.before, trigger=f"push to {branch}, {event.before[:7]}..{event.after[:7]}",
                     **common)


def _plan_comment(event: CommentEvent, settings: BotSettings) -> BotAction:
    repo = event.repository.full_name
    if event.action != "created":
        return ignore(f"comment {event.action}: only new comments are read", repo)
    if event.issue.pull_request is None:
        return ignore(f"comment on issue #{event.issue.number}, not on a pull request", repo)
    author = event.comment.user
    if author.is_bot or _ignored_sender(author, settings):
        return ignore(f"comment by {author.login}, a bot", repo)
    if HIDDEN_MARKER in event.comment.body:
        return ignore("comment carries the bot's marker", repo)
    command = find_command(event.comment.body, prefix=settings.command_prefix)
    if command is None:
        return ignore("no command in the comment", repo)
    quoted = inline_code(command.line)
    return BotAction(kind="command", reason=f"{quoted} by {author.login} on #{event.issue.number}",
                     repository=repo, default_branch=event.repository.default_branch, command=command,
                     classes=command.args if command.name == "regenerate" else (),
                     pull_number=event.issue.number, comment_id=event.comment.id, actor=author.login,
                     trigger=f"{quoted} by @{author.login}")


def _plan_pull_request(event: PullRequestEvent, settings: BotSettings) -> BotAction:
    repo = event.repository.full_name
    pull = event.pull_request
    if event.action not in ("opened", "synchronize", "reopened"):
        return ignore(f"pull request {event.action}: only opened, synchronize and reopened are handled", repo)
    if settings.is_bot_branch(pull.head.ref):
        return ignore(f"#{event.number} is the bot's own pull request", repo)
    if _ignored_sender(event.sender, settings) or _ignored_sender(pull.user, settings):
        return ignore(f"pull request by {pull.user.login}, which never triggers the bot", repo)
    fork = pull.head.repo is None or pull.head.repo.full_name != repo
    return BotAction(kind="incremental", reason=f"pull request #{event.number}: its own changes",
                     repository=repo, default_branch=event.repository.default_branch, base_branch=pull.head.ref,
                     head_sha=pull.head.sha, diff_base=pull.base.sha, merge_base=True, pull_number=event.number,
                     actor=event.sender.login, fork=fork, trigger=f"pull request #{event.number} ({event.action})")


def _plan_schedule(event: ScheduleEvent) -> BotAction:
    repo = event.repository
    branch = event.ref.removeprefix("refs/heads/")
    return BotAction(kind="full", reason=f"scheduled full pass over {branch}", repository=repo.full_name,
                     default_branch=repo.default_branch, base_branch=branch, head_sha=event.sha,
                     trigger=f"schedule `{event.schedule}`" if event.schedule else "schedule")


def _plan_dispatch(event: DispatchEvent) -> BotAction:
    repo = event.repository
    if not event.ref.startswith("refs/heads/"):
        return ignore(f"workflow_dispatch on {event.ref}: pick a branch", repo.full_name)
    branch = event.ref.removeprefix("refs/heads/")
    inputs = event.inputs or {}
    mode = str(inputs.get("mode") or "").strip().lower() or "full"
    classes = tuple(part for part in re.split(r"[\s,]+", str(inputs.get("classes") or "")) if part)
    common: dict[str, Any] = {"repository": repo.full_name, "default_branch": repo.default_branch,
                              "base_branch": branch, "actor": event.sender.login,
                              "trigger": f"manual run by @{event.sender.login}"}
    if classes:
        return BotAction(kind="classes", reason=f"manual run for {len(classes)} classes", classes=classes, **common)
    if mode == "incremental":
        return BotAction(kind="incremental", reason="manual run: changes since the last run", **common)
    if mode != "full":
        raise EventError(f"workflow_dispatch input mode={mode!r}: expected 'full' or 'incremental'")
    return BotAction(kind="full", reason="manual run: every class", **common)


def has_trailer(message: str, trailer: str) -> bool:
    """Whether a commit message carries the trailer line (`Generated-by: junitbot`), case-insensitive key."""
    key, _, value = trailer.partition(":")
    wanted = (key.strip().lower(), value.strip())
    for line in message.splitlines():
        k, sep, v = line.partition(":")
        if sep and (k.strip().lower(), v.strip()) == wanted:
            return True
    return False

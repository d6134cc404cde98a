"""The GitHub side of junitbot: events and PR comment commands, the rolling bot PR, reports and Action outputs."""

from __future__ import annotations

from junitbot.bot.ci import GitHubFactory, main_ci, pipeline_runner, run_ci
from junitbot.bot.commands import ClassCheck, check_classes, find_command
from junitbot.bot.errors import EventError, GitHubApiError, PullExistsError
from junitbot.bot.events import load_event, parse_event, plan_action
from junitbot.bot.github import GitHubClient, connect_github
from junitbot.bot.models import BotAction, BotEvent, CiOutcome, Command, Delivery, RunOutput
from junitbot.bot.redact import redact, redacting, secret_forms
from junitbot.bot.report import PullRequestView, render_pull_request, template_environment
from junitbot.bot.session import Runner
from junitbot.bot.settings import ApiSettings, BotSettings
from junitbot.runs import RunRequest

__all__ = [
    "ApiSettings",
    "BotAction",
    "BotEvent",
    "BotSettings",
    "CiOutcome",
    "ClassCheck",
    "Command",
    "Delivery",
    "EventError",
    "GitHubApiError",
    "GitHubClient",
    "GitHubFactory",
    "PullExistsError",
    "PullRequestView",
    "RunOutput",
    "RunRequest",
    "Runner",
    "check_classes",
    "connect_github",
    "find_command",
    "load_event",
    "main_ci",
    "parse_event",
    "pipeline_runner",
    "plan_action",
    "redact",
    "redacting",
    "render_pull_request",
    "run_ci",
    "secret_forms",
    "template_environment",
]

"""Publish one finished run as the bot's pull request, outside an Actions event (the Dagster asset does this)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from junitbot.bot import publish
from junitbot.bot.deliver import DeliveryTarget, PublishContext, deliver_pull_request
from junitbot.bot.github import GitHubClient, connect_github
from junitbot.bot.models import Delivery, RunOutput
from junitbot.bot.outbox import Outbox
from junitbot.bot.redact import redacting, secret_forms
from junitbot.bot.report import template_environment
from junitbot.config import ApiSettings, JunitbotConfig
from junitbot.errors import GitError
from junitbot.runs import RunReport
from junitbot.state import StateDir

GitHubFactory = Callable[..., GitHubClient]


def publish_run(root: Path, config: JunitbotConfig, state: StateDir, report: RunReport, *, token: str,
                repository: str, api_url: str, github_factory: GitHubFactory = connect_github) -> Delivery:
    """Deliver the tests `report` wrote as the one rolling pull request for the checked-out branch.

    The same delivery as `junitbot ci` (bot branch, marker, caps, human pushes, declined classes); what was
    sent is also written to the run's directory. The token never leaves the git environment and the client.
    """
    settings = config.bot
    secrets = secret_forms(token)
    with redacting(secrets):
        repo = publish.open_repo(root)
        if repo.head.is_detached:
            raise GitError("the repository is on a detached HEAD: check out the branch the tests are for")
        base = repo.active_branch.name
        client = github_factory(token=token, api_url=api_url, repository=repository,
                                settings=settings.api if isinstance(settings.api, ApiSettings) else ApiSettings())
        outbox = Outbox(client)
        ctx = PublishContext(repo=repo, root=root, repository=repository, settings=settings, state=state,
                             outbox=outbox, client=client, git_env=publish.auth_env(token), dry_run=False,
                             templates=template_environment(root))
        target = DeliveryTarget(base=base, head_sha=report.commit or publish.head_sha(repo), trigger="a Dagster run")
        delivery = deliver_pull_request(ctx, RunOutput(report=report), target)
        if report.report_dir:
            outbox.write(Path(report.report_dir))
    return delivery

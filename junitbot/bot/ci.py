"""`junitbot ci`: one GitHub Actions event → plan → generation run (injected) → delivery, replies and outputs."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, TextIO

from junitbot.bot import publish
from junitbot.bot.conversation import handle_command
from junitbot.bot.deliver import DeliveryTarget, PublishContext, deliver_commit, deliver_pull_request
from junitbot.bot.events import ignore, load_event, plan_action
from junitbot.bot.github import GitHubClient, connect_github
from junitbot.bot.models import BotAction, CiOutcome
from junitbot.bot.outbox import Outbox
from junitbot.bot.outputs import annotations_for, append_summary, write_outputs
from junitbot.bot.redact import redact, redacting, secret_forms
from junitbot.bot.report import render_reply, template_environment
from junitbot.bot.session import (
    Runner,
    Session,
    check_class_names,
    checkout,
    commit_mode,
    describe_check,
    fork_refusal,
    generate,
    outcome_of,
    since_of,
    utc_now,
)
from junitbot.bot.settings import ApiSettings, BotSettings
from junitbot.config import JunitbotConfig, load_config
from junitbot.errors import ConfigError, JunitbotError
from junitbot.runs import RunReport, RunRequest, change_lines, markdown_report
from junitbot.state import StateDir

log = logging.getLogger(__name__)

TOKEN_VARIABLES = ("GITHUB_TOKEN",)
DEFAULT_API_URL = "https://api.github.com"


class GitHubFactory(Protocol):
    """Builds the client (tests point it at a local double through `api_url`)."""

    def __call__(self, *, token: str, api_url: str, repository: str, settings: ApiSettings) -> GitHubClient: ...


def pipeline_runner(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest) -> RunReport:
    """The plain runner: `run_pipeline` in this process (the Dagster job is the other one)."""
    from junitbot.runs import run_pipeline

    return run_pipeline(root, config, state, request)


def run_ci(
    environ: Mapping[str, str],
    root: Path,
    config: JunitbotConfig,
    *,
    runner: Runner,
    github_factory: GitHubFactory = connect_github,
    dry_run: bool = False,
    settings: BotSettings | None = None,
    mode: str | None = None,
    model: str | None = None,
    stdout: TextIO | None = None,
) -> CiOutcome:
    """Handle the event GitHub Actions describes in `environ`; raises JunitbotError (EventError, ...) on failure.

    Without GITHUB_TOKEN, or with `dry_run`, nothing is pushed or sent: the PR body, the patch and the replies
    go to the run directory. GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and `::warning` annotations are written either way.
    """
    settings = settings or BotSettings()
    name, event = load_event(environ)
    action = plan_action(event, settings) if event is not None else ignore(
        f"event {name} is not one junitbot handles", environ.get("GITHUB_REPOSITORY", ""))
    token = environ.get("GITHUB_TOKEN", "").strip()
    secrets = secret_forms(token)
    with redacting(secrets):
        log.info("junitbot ci: %s → %s (%s)", name, action.kind, action.reason)
        session = _start(environ, root, config, settings, action, runner=runner, token=token, dry_run=dry_run,
                         github_factory=github_factory, mode=mode, model=model)
        outcome = CiOutcome(event=name, action=action)
        try:
            outcome = _handle(session, name, action)
        except JunitbotError as e:
            if summary := environ.get("GITHUB_STEP_SUMMARY"):
                append_summary(Path(summary), redact(f"## junitbot\n\n**{name}**: {action.reason}\n\n"
                                                     f"Failed: {e}\n", secrets))
            raise
        finally:
            run_dir = _run_dir(session, outcome)
            if run_dir is not None:
                session.outbox.write(run_dir)
        outcome = outcome.model_copy(update={"run_dir": str(run_dir) if run_dir else None,
                                             "replies": tuple(r.body for r in session.outbox.replies)})
        _finish(session, outcome, stdout or sys.stdout, secrets)
    return outcome


def main_ci(
    *,
    repo: Path = Path("."),
    state_dir: Path | None = None,
    config_file: Path | None = None,
    backend: str | None = None,
    model: str | None = None,
    mode: str | None = None,
    dry_run: bool = False,
    environ: Mapping[str, str] | None = None,
    runner: Runner | None = None,
    settings: BotSettings | None = None,
    stdout: TextIO | None = None,
) -> int:
    """`junitbot ci`: load the config, take the token out of the process environment, run; returns 0.

    JunitbotError propagates (the CLI prints it and exits with 1). With `environ` None the process
    environment is read and GITHUB_TOKEN is removed from it first, so no process the run starts
    (javac, the JUnit JVM running the repository's code) can read the token.
    """
    if environ is None:
        environ = dict(os.environ)
        for variable in TOKEN_VARIABLES:
            os.environ.pop(variable, None)
    if mode not in (None, "pr", "commit"):
        raise ConfigError(f"--mode {mode}: expected 'pr' or 'commit'")
    root = repo.resolve()
    if not root.is_dir():
        raise JunitbotError(f"--repo {repo}: not a directory")
    config = load_config(root, environ=environ, config_file=config_file,
                         overrides={"state_dir": state_dir.resolve() if state_dir else None,
                                    "generation.backend": backend})
    run_ci(environ, root, config, runner=runner or pipeline_runner, dry_run=dry_run,
           settings=settings or _settings_of(config), mode=mode, model=model, stdout=stdout)
    return 0


def _settings_of(config: JunitbotConfig) -> BotSettings:
    """The `bot:` section of the configuration."""
    return config.bot


def _start(environ: Mapping[str, str], root: Path, config: JunitbotConfig, settings: BotSettings,
           action: BotAction, *, runner: Runner, token: str, dry_run: bool, github_factory: GitHubFactory,
           mode: str | None, model: str | None) -> Session:
    repo = publish.open_repo(root)
    client = None
    if token and action.kind != "ignore":
        client = github_factory(token=token, api_url=environ.get("GITHUB_API_URL") or DEFAULT_API_URL,
                                repository=action.repository, settings=settings.api)
    outbox = Outbox(client if not dry_run else None)
    if client is None and action.kind != "ignore":
        outbox.note("no GITHUB_TOKEN: nothing is pushed or sent; the run directory has what would have been")
    publishing = PublishContext(repo=repo, root=root, repository=action.repository, settings=settings,
                                state=StateDir.for_repo(root, config), outbox=outbox, client=client,
                                git_env=publish.auth_env(token), dry_run=dry_run or client is None,
                                templates=template_environment(root), model=model, run_url=_run_url(environ))
    return Session(environ=environ, root=root, config=config, settings=settings, runner=runner, repo=repo,
                   publishing=publishing, mode=mode or settings.mode)


def _handle(session: Session, name: str, action: BotAction) -> CiOutcome:
    if action.kind == "ignore":
        return CiOutcome(event=name, action=action)
    if action.kind == "command":
        return handle_command(session, name, action)
    return _generate(session, name, action)


def _generate(session: Session, name: str, action: BotAction) -> CiOutcome:
    """push, schedule, workflow_dispatch and pull_request: run, then deliver."""
    if action.fork and (refusal := fork_refusal(session)):
        return CiOutcome(event=name, action=action.model_copy(update={"kind": "ignore", "reason": refusal}))
    if action.pull_number is not None and action.head_sha and publish.is_bot_commit(
            session.repo, action.head_sha, session.settings):
        reason = "the pull request's head is the bot's own commit"
        return CiOutcome(event=name, action=action.model_copy(update={"kind": "ignore", "reason": reason}))
    head = checkout(session, action.head_sha)
    classes: tuple[str, ...] = ()
    if action.kind == "classes":
        check = check_class_names(session, action.classes, limit=len(action.classes))
        if not check.ok:
            close = [f"{name} → {', '.join(matches) or 'no close match'}"
                     for name, matches in {**check.unknown, **check.ambiguous}.items()]
            raise JunitbotError(f"workflow_dispatch classes: {describe_check(check, limit=len(action.classes))}"
                                + (f" ({'; '.join(close)})" if close else ""))
        classes = check.resolved
    request = RunRequest(full=action.kind == "full", since=since_of(session, action, head), classes=classes)
    output = generate(session, request)
    base = action.base_branch or action.default_branch
    target = DeliveryTarget(base=base, head_sha=head, trigger=action.trigger, explicit=bool(classes))
    if action.pull_number is not None and not action.fork:
        report_changes(session, action.pull_number, output.report, head)
    if action.pull_number is not None and not action.fork and commit_mode(session):
        delivery = deliver_commit(session.publishing, output, target, base)
    else:
        delivery = deliver_pull_request(session.publishing, output, target)
    return outcome_of(name, action, output, delivery)


def report_changes(session: Session, number: int, report: RunReport, head: str) -> None:
    """A comment on the pushed pull request when its push broke tests junitbot had pinned, or has tests that
    catch it: the behaviour changes (expected against now) and the catching tests, first thing a reviewer sees."""
    check = report.changes
    if check is None or not (check.behaviour_changes or check.catching):
        return
    changes = "\n".join(change_lines(check, heading="####", findings_only=True))
    session.outbox.reply(number, render_reply(session.publishing.templates, "behaviour", command="push",
                                              outcome="behaviour-changes", sha=head, changes=changes))


def _run_url(environ: Mapping[str, str]) -> str | None:
    """This workflow run's page (its job summary holds the full report), from the variables Actions sets."""
    server, repository, run_id = (environ.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY",
                                                                "GITHUB_RUN_ID"))
    return f"{server.rstrip('/')}/{repository}/actions/runs/{run_id}" if server and repository and run_id else None


# -- the end of a run -------------------------------------------------------------------------------------


def _run_dir(session: Session, outcome: CiOutcome) -> Path | None:
    """The run's report directory when there was a run, else a new one under the state dir's reports (None
    when there is nothing to record: an ignored event)."""
    if outcome.report is not None and outcome.report.report_dir:
        return Path(outcome.report.report_dir)
    if session.outbox.empty:
        return None
    return session.state.ensure().reports / f"ci-{utc_now().strftime('%Y%m%dT%H%M%S%fZ')}"


def _finish(session: Session, outcome: CiOutcome, stdout: TextIO, secrets: Sequence[str]) -> None:
    """GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and annotations; every text passes the redactor."""
    delivery = outcome.delivery
    values = {
        "pr-url": (delivery.pull_url or "") if delivery else "",
        "tests-generated": str(outcome.tests_generated),
        "classes": ",".join(outcome.classes),
        "coverage": "" if outcome.coverage is None else f"{outcome.coverage * 100:.1f}",
        "run-dir": outcome.run_dir or "",
    }
    if output := session.environ.get("GITHUB_OUTPUT"):
        write_outputs(Path(output), {k: redact(v, secrets) for k, v in values.items()})
    if summary := session.environ.get("GITHUB_STEP_SUMMARY"):
        append_summary(Path(summary), redact(_summary(session, outcome), secrets))
    if outcome.report is not None:
        for line in annotations_for(outcome.report.results, changes=outcome.report.changes):
            stdout.write(redact(line, secrets) + "\n")
    stdout.flush()


def _summary(session: Session, outcome: CiOutcome) -> str:
    lines = ["## junitbot", "", f"**{outcome.event}**: {outcome.action.reason}"]
    if outcome.action.kind == "ignore":
        lines += ["", "Nothing to do."]
    if outcome.delivery is not None:
        link = f" ({outcome.delivery.pull_url})" if outcome.delivery.pull_url else ""
        lines += ["", f"Delivery: {outcome.delivery.status}: {outcome.delivery.message}{link}"]
    if session.outbox.notes:
        lines += ["", *(f"- {note}" for note in session.outbox.notes)]
    if outcome.report is not None:
        lines += ["", markdown_report(outcome.report).replace("# junitbot run", "### Run", 1)]
    return "\n".join(lines) + "\n"

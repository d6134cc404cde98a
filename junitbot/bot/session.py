"""One `junitbot ci` invocation's working set (Session) and the steps runs and commands share."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import git

from junitbot.bot import publish
from junitbot.bot.commands import ClassCheck, check_classes
from junitbot.bot.deliver import PublishContext
from junitbot.bot.github import GitHubClient
from junitbot.bot.models import BotAction, CiOutcome, Delivery, RunOutput
from junitbot.bot.outbox import Outbox
from junitbot.bot.settings import BotSettings
from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.quoting import inline_code
from junitbot.runs import RunReport, RunRequest
from junitbot.state import StateDir

Runner = Callable[[Path, JunitbotConfig, StateDir, RunRequest], RunReport | RunOutput]
"""Performs one generation run on the checked-out repository and returns its report (or a RunOutput, which adds
impact explanations, coverage before and the model); it writes the test files into the work tree, as
`junitbot run` does (the Dagster job, or `ci.pipeline_runner`)."""


@dataclass(frozen=True)
class Session:
    """Everything one invocation works with: the repository, its config and state, the runner, GitHub."""

    environ: Mapping[str, str]
    root: Path
    config: JunitbotConfig
    settings: BotSettings
    runner: Runner
    repo: git.Repo
    publishing: PublishContext
    mode: str

    @property
    def state(self) -> StateDir:
        return self.publishing.state

    @property
    def client(self) -> GitHubClient | None:
        """The client for reads (None without a token); writes go through `outbox`."""
        return self.publishing.client

    @property
    def outbox(self) -> Outbox:
        return self.publishing.outbox


def generate(session: Session, request: RunRequest) -> RunOutput:
    """Call the runner; a bare RunReport becomes a RunOutput."""
    result = session.runner(session.root, session.config, session.state, request)
    return result if isinstance(result, RunOutput) else RunOutput(report=result)


def fork_refusal(session: Session) -> str | None:
    """Why a fork's code may not run here, or None (allowed by config, and this job can write nothing)."""
    if not session.settings.allow_fork_prs:
        return ("it comes from a fork. Generating tests compiles and runs the pull request's code, and junitbot "
                "never runs a fork's code in a job that holds a write token, so fork pull requests are off by "
                "default (`bot.allow_fork_prs`). A maintainer can run junitbot on the branch locally, or set up "
                "the split workflow described in junitbot's docs/bot.md.")
    if session.outbox.sending:
        return ("it comes from a fork, and this job holds a write token: fork pull requests are only handled by "
                "the unprivileged job of the split set-up (a dry run with a read-only token), see docs/bot.md.")
    return None


def commit_mode(session: Session) -> bool:
    """Mode commit asked for and allowed by config; otherwise a note and a pull request."""
    if session.mode != "commit":
        return False
    if not session.settings.allow_commit_mode:
        session.outbox.note("mode commit is not allowed by the configuration (bot.allow_commit_mode): "
                            "delivering a pull request instead")
        return False
    return True


def checkout(session: Session, sha: str | None) -> str:
    """Make `sha` the checked-out commit (it must be in the clone: `fetch-depth: 0`); returns HEAD's id."""
    if sha is None:
        return publish.head_sha(session.repo)
    if publish.resolve(session.repo, sha) is None:
        raise JunitbotError(f"commit {sha[:12]} is not in the checkout: check out with `fetch-depth: 0`")
    publish.checkout(session.repo, sha)
    return sha


def branch_commit(session: Session, branch: str) -> str:
    """The remote's commit of `branch`, fetched into the clone."""
    return publish.fetch_branch(session.repo, session.settings.remote, branch, env=session.publishing.git_env)


def since_of(session: Session, action: BotAction, head: str) -> str | None:
    """The commit an incremental run diffs from (None: since the last run; other kinds need none)."""
    if action.kind != "incremental" or action.diff_base is None:
        return None
    base = publish.resolve(session.repo, action.diff_base) or publish.resolve(
        session.repo, f"refs/remotes/{session.settings.remote}/{action.diff_base}")
    if base is None and action.merge_base:
        base = branch_commit(session, action.diff_base)
    if base is None:
        session.outbox.note(f"{action.diff_base[:12]} is not in the checkout (a shallow clone?): run_pipeline "
                            "falls back to its last run or a full pass")
        return None
    return publish.merge_base(session.repo, head, base) if action.merge_base else base


def check_class_names(session: Session, names: Sequence[str], *, limit: int) -> ClassCheck:
    """Names checked against the code graph, brought up to date with the checkout first."""
    from junitbot.analysis import CodeGraph, DependencyAnalyzer, update_graph

    if len(names) > limit:
        return ClassCheck(too_many=True)
    update_graph(session.root, session.state, session.config)
    with CodeGraph.open(session.state.graph_db) as graph:
        return check_classes(names, DependencyAnalyzer(graph).lookup, limit=limit)


def describe_check(check: ClassCheck, *, limit: int) -> str:
    """A class check's problems in one sentence (the closest matches of unknown names are listed apart)."""
    if check.too_many:
        return f"at most {limit} classes per command"
    parts = [f"{inline_code(name)} is not a Java class name" for name in check.invalid]
    if check.unknown or check.ambiguous:
        names = ", ".join(inline_code(name) for name in (*check.unknown, *check.ambiguous))
        parts.append(f"{names} {'does' if len(check.unknown) + len(check.ambiguous) == 1 else 'do'} not name "
                     "exactly one class in the code graph")
    return "; ".join(parts)


def outcome_of(name: str, action: BotAction, output: RunOutput, delivery: Delivery) -> CiOutcome:
    """The outcome a run reports as outputs: kept test methods, classes with tests, mean line coverage."""
    report = output.report
    kept = [r for r in report.results if r.status == "kept"]
    coverage = [r.line_coverage for r in kept if r.line_coverage is not None]
    return CiOutcome(event=name, action=action, report=report, delivery=delivery,
                     tests_generated=sum(len(r.kept) for r in kept), classes=tuple(r.target for r in kept),
                     coverage=round(sum(coverage) / len(coverage), 4) if coverage else None,
                     run_dir=report.report_dir)


def utc_now() -> datetime:
    """Now, timezone-aware (GitHub's timestamps are UTC)."""
    return datetime.now(UTC)

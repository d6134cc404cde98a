"""Delivering a run's tests: the rolling bot PR per base branch (mode pr), or a commit on a PR's branch (mode commit).

The bot branch is always one bot commit on the base: this run's test files plus, while the PR is open, the files
of earlier runs that this run did not touch. A branch head that is anything else was pushed by a person: the bot
stops and says so until `/junitbot recreate`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import git
from jinja2.sandbox import SandboxedEnvironment

from junitbot.bot import publish
from junitbot.bot.declined import declined_classes, load_declined, source_hashes
from junitbot.bot.github import GitHubClient
from junitbot.bot.models import Delivery, PullInfo, RunOutput
from junitbot.bot.outbox import Outbox, PullDraft
from junitbot.bot.pulls import cap_reason, create_or_update, own_pulls, record_closed
from junitbot.bot.report import PullMarker, PullRequestView, render_pull_request, render_reply
from junitbot.bot.settings import BotSettings
from junitbot.errors import GitError
from junitbot.generation import generated_target
from junitbot.runs import RunReport
from junitbot.state import StateDir

log = logging.getLogger(__name__)

_PUSH_ATTEMPTS = 3


@dataclass(frozen=True)
class PublishContext:
    """What delivering needs; `client` is None offline, `dry_run` keeps every write in the outbox."""

    repo: git.Repo
    root: Path
    repository: str
    settings: BotSettings
    state: StateDir
    outbox: Outbox
    client: GitHubClient | None
    git_env: Mapping[str, str]
    dry_run: bool
    templates: SandboxedEnvironment  # report.template_environment(root)
    model: str | None = None
    run_url: str | None = None  # the workflow run, whose job summary has the full report


@dataclass(frozen=True)
class DeliveryTarget:
    """Where the tests go: `base` is the branch they are for, `head_sha` the commit they were generated at."""

    base: str
    head_sha: str
    trigger: str
    force: bool = False  # recreate: drop commits people pushed onto the bot branch, carry nothing over
    explicit: bool = False  # classes named by a person: propose them even if declined before


@dataclass(frozen=True)
class _Publication:
    """One delivery's fixed parts: what to publish where; attempts differ only in what the remote holds."""

    ctx: PublishContext
    output: RunOutput
    target: DeliveryTarget
    branch: str
    changes: Mapping[str, str | None]
    declined: tuple[str, ...]
    declined_by: Mapping[str, int]


def deliver_pull_request(ctx: PublishContext, output: RunOutput, target: DeliveryTarget) -> Delivery:
    """Commit the run's tests on the bot branch, force-push it with a lease and open or update the one PR."""
    branch = ctx.settings.bot_branch(target.base)
    if (blocked := _blocked_publishing(ctx, output.report)) is not None:
        return blocked.model_copy(update={"branch": branch})
    existing = _open_pull(ctx, branch, record=True)
    changes, declined = _run_changes(ctx, output.report, target)
    job = _Publication(ctx, output, target, branch, changes, tuple(sorted(declined)), declined)
    if not changes and existing is not None and not target.force:
        return Delivery(status="unchanged", message=f"nothing new: #{existing.number} is left as it is",
                        pull_number=existing.number, pull_url=existing.url, branch=branch, declined=job.declined)
    for _ in range(_PUSH_ATTEMPTS):
        delivery = _attempt(job, existing)
        if delivery is not None:
            return delivery
        log.info("%s moved while this run built its commit: trying again", branch)
        existing = _open_pull(ctx, branch, record=False)
    raise GitError(f"{branch} kept moving under this run ({_PUSH_ATTEMPTS} attempts): another run is publishing")


def _open_pull(ctx: PublishContext, branch: str, *, record: bool) -> PullInfo | None:
    """The bot's open PR for `branch` (recording closed-unmerged ones as declined first)."""
    pulls = own_pulls(ctx.client, ctx.settings, branch) if ctx.client is not None else []
    if record:
        record_closed(pulls, ctx.state)
    return next((p for p in pulls if p.open), None)


def _attempt(job: _Publication, existing: PullInfo | None) -> Delivery | None:
    """Build the commit on what the remote branch holds now and publish it; None when the branch moved."""
    ctx, target, branch = job.ctx, job.target, job.branch
    remote = publish.remote_head(ctx.repo, ctx.settings.remote, branch, env=ctx.git_env, missing_ok=ctx.dry_run)
    carried: dict[str, str | None] = {}
    if remote is not None:
        publish.fetch_branch(ctx.repo, ctx.settings.remote, branch, env=ctx.git_env)
        # People's commits are respected while the PR is open; a closed or merged PR's branch is the bot's again.
        if existing and not target.force and not publish.is_bot_branch_head(ctx.repo, remote, ctx.settings):
            return _blocked(ctx, branch, remote, existing)
        if existing and not target.force:
            carried = _carried(ctx, remote, target.head_sha, job.changes, job.output.report)
    commit = publish.build_commit(ctx.repo, parent=target.head_sha, changes={**carried, **job.changes},
                                  message=f"junitbot: tests on {target.base}\n\n{target.trigger}",
                                  settings=ctx.settings)
    if commit is None:
        return Delivery(status="nothing", message="nothing to change: no commit and no pull request",
                        branch=branch, declined=job.declined)
    unchanged = remote is not None and publish.same_content(ctx.repo, commit, remote)
    if unchanged and existing is not None:
        return Delivery(status="unchanged", message=f"#{existing.number} already holds these tests",
                        pull_number=existing.number, pull_url=existing.url, branch=branch, commit=remote,
                        declined=job.declined)
    if existing is None and ctx.client is not None and (reason := cap_reason(ctx.client, ctx.settings)):
        ctx.outbox.note(f"no new pull request: {reason}")
        return Delivery(status="capped", message=f"no new pull request: {reason}", branch=branch)
    title, body, files = _draft(job, commit, carried, existing)
    if ctx.dry_run or ctx.client is None:
        return Delivery(status="dry-run", message=f"dry run: pull request for {branch} written to the run "
                        "directory, nothing pushed or sent", branch=branch, commit=commit, files=files,
                        declined=job.declined)
    if not unchanged and not publish.push(ctx.repo, remote=ctx.settings.remote, sha=commit, branch=branch,
                                          lease=remote, force=True, env=ctx.git_env):
        return None
    return _open_or_update(job, title, body, existing, remote if unchanged else commit, files)


def deliver_commit(ctx: PublishContext, output: RunOutput, target: DeliveryTarget, branch: str) -> Delivery:
    """Mode commit: the tests as one bot commit on top of `branch` (a PR's own branch), fast-forward only."""
    if (blocked := _blocked_publishing(ctx, output.report)) is not None:
        return blocked.model_copy(update={"branch": branch})
    changes, declined = _run_changes(ctx, output.report, target)
    commit = publish.build_commit(ctx.repo, parent=target.head_sha, changes=changes,
                                  message=f"junitbot: tests on {branch}\n\n{target.trigger}", settings=ctx.settings)
    if commit is None:
        return Delivery(status="nothing", message="nothing to change: no commit", branch=branch,
                        declined=tuple(sorted(declined)))
    ctx.outbox.patch = publish.patch(ctx.repo, target.head_sha, commit)
    files = tuple(sorted(publish.commit_changes(ctx.repo, commit)))
    if ctx.dry_run or ctx.client is None:
        return Delivery(status="dry-run", message=f"dry run: commit for {branch} written to the run directory",
                        branch=branch, commit=commit, files=files)
    if not publish.push(ctx.repo, remote=ctx.settings.remote, sha=commit, branch=branch, lease=None, force=False,
                        env=ctx.git_env):
        return Delivery(status="failed", message=f"{branch} moved while the tests were generated: ask again",
                        branch=branch)
    return Delivery(status="committed", message=f"committed {len(files)} test files onto {branch}",
                    branch=branch, commit=commit, files=files, declined=tuple(sorted(declined)))


# -- steps ------------------------------------------------------------------------------------------------


def _blocked_publishing(ctx: PublishContext, report: RunReport) -> Delivery | None:
    """Nothing is published when the kept tests did not pass once more as written (`kept_tests_pass`)."""
    blocked = report.publish_blocked
    if blocked is None:
        return None
    ctx.outbox.note(f"nothing published: {blocked}")
    return Delivery(status="blocked", message=f"not published: {blocked}")


def _run_changes(ctx: PublishContext, report: RunReport, target: DeliveryTarget) -> tuple[dict[str, str | None],
                                                                                        dict[str, int]]:
    """The run's written and deleted test files (work-tree paths → blob or None), minus declined classes."""
    by_path = {r.test_path: r.target for r in report.results if r.test_path}
    written = [f.path for f in report.files if f.action == "written"]
    targets = {path: by_path.get(path) or _target_of_file(ctx.root / path) for path in written}
    declined: dict[str, int] = {}
    if not target.explicit:
        hashes = source_hashes(ctx.state, {t for t in targets.values() if t})
        declined = declined_classes(load_declined(ctx.state), target.base, hashes)
        if declined:
            ctx.outbox.note(f"left out, declined before and unchanged since: {', '.join(sorted(declined))}")
    kept = [path for path in written if targets[path] not in declined]
    changes: dict[str, str | None] = dict(publish.store_files(ctx.repo, ctx.root, kept))
    prefix = _prefix(ctx.repo, ctx.root)
    changes |= {prefix + f.path: None for f in report.files if f.action == "deleted"}
    return changes, declined


def _carried(ctx: PublishContext, remote: str, base: str, changes: Mapping[str, str | None],
             report: RunReport) -> dict[str, str | None]:
    """Files of the open PR's commit this run did not regenerate: generated tests of classes that still exist,
    at paths where the new base has no file of a person's."""
    prefix = _prefix(ctx.repo, ctx.root)
    touched = {prefix + f.path for f in report.files} | {prefix + r.test_path for r in report.results if r.test_path}
    carried: dict[str, str | None] = {}
    candidates = {p: b for p, b in publish.commit_changes(ctx.repo, remote).items() if p not in changes
                  and p not in touched}
    targets = {p: generated_target(publish.read_blob(ctx.repo, b).decode("utf-8", "replace"))
               for p, b in candidates.items() if b}
    alive = source_hashes(ctx.state, {t for t in targets.values() if t})
    for path, blob in candidates.items():
        if blob is None:
            carried[path] = None
        elif targets.get(path) in alive and _not_a_persons_file(ctx.repo, base, path):
            carried[path] = blob
    return carried


def _not_a_persons_file(repo: git.Repo, base: str, path: str) -> bool:
    """The base has no file at `path`, or one junitbot generated."""
    blob = publish.blob_at(repo, base, path)
    return blob is None or generated_target(publish.read_blob(repo, blob).decode("utf-8", "replace")) is not None


def _draft(job: _Publication, commit: str, carried: Mapping[str, str | None],
           existing: PullInfo | None) -> tuple[str, str, tuple[str, ...]]:
    """(title, body, files) of the PR for `commit`, also kept in the outbox with the patch."""
    ctx = job.ctx
    files = publish.commit_changes(ctx.repo, commit)
    classes = {generated_target(publish.read_blob(ctx.repo, blob).decode("utf-8", "replace")) or ""
               for blob in files.values() if blob}
    hashes = source_hashes(ctx.state, classes - {""})
    marker = PullMarker(base=job.target.base, classes={c: hashes.get(c, "") for c in sorted(classes - {""})})
    output = job.output
    view = PullRequestView(report=output.report, repository=ctx.repository, base=job.target.base,
                           head_sha=job.target.head_sha, trigger=job.target.trigger,
                           command_prefix=ctx.settings.command_prefix, model=output.model or ctx.model,
                           impacts=output.impacts, coverage_before=output.coverage_before, files=tuple(sorted(files)),
                           carried=tuple(sorted(carried)), declined=dict(job.declined_by), marker=marker,
                           run_url=ctx.run_url)
    title, body = render_pull_request(ctx.templates, view)
    ctx.outbox.pull = PullDraft(branch=job.branch, base=job.target.base, title=title, body=body,
                                labels=ctx.settings.labels, number=existing.number if existing else None,
                                commit=commit)
    ctx.outbox.patch = publish.patch(ctx.repo, job.target.head_sha, commit)
    return title, body, tuple(sorted(files))


def _open_or_update(job: _Publication, title: str, body: str, existing: PullInfo | None, commit: str | None,
                    files: tuple[str, ...]) -> Delivery:
    assert job.ctx.client is not None
    pull, created = create_or_update(job.ctx.client, job.ctx.settings, branch=job.branch, base=job.target.base,
                                     title=title, body=body, existing=existing)
    return Delivery(status="created" if created else "updated",
                    message=f"{'opened' if created else 'updated'} #{pull.number}", pull_number=pull.number,
                    pull_url=pull.url, branch=job.branch, commit=commit, files=files, declined=job.declined)


def _blocked(ctx: PublishContext, branch: str, remote: str, existing: PullInfo | None) -> Delivery:
    """A person pushed to the bot branch: leave it alone and say so once on the PR."""
    message = f"{branch} has commits junitbot did not make: not updating it (`/junitbot recreate` takes it back)"
    if existing is not None:
        comments = ctx.client.comments(existing.number) if ctx.client is not None else []
        if not any(f"head {remote[:12]}" in c.body and "outcome=paused" in c.body for c in comments):
            ctx.outbox.reply(existing.number, render_reply(ctx.templates, "human_push", command="push",
                                                           outcome="paused", branch=branch, sha=remote,
                                                           prefix=ctx.settings.command_prefix))
    return Delivery(status="blocked", message=message, pull_number=existing.number if existing else None,
                    pull_url=existing.url if existing else None, branch=branch, commit=remote)


def _target_of_file(path: Path) -> str | None:
    try:
        return generated_target(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


def _prefix(repo: git.Repo, root: Path) -> str:
    top = Path(repo.working_tree_dir or root).resolve()
    relative = root.resolve().relative_to(top).as_posix()
    return "" if relative == "." else relative + "/"

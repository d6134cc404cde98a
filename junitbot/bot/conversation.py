"""PR comment commands: acknowledge, check who asks, refuse politely or run, then reply with the outcome.

Only the collaborator-permission API decides who may command (`author_association` is not enough: private
org members show as CONTRIBUTOR). Nothing runs before that check, the fork check and the rate limit pass.

Only `regenerate` takes instructions (`-- text`, issue 17): any other command with a `--` is refused, so nobody
believes text was taken that was not. Instructions past MAX_INSTRUCTION_CHARS are refused, never cut.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from junitbot.bot import publish
from junitbot.bot.commands import MAX_COMMAND_CHARS, MAX_INSTRUCTION_CHARS
from junitbot.bot.declined import declined_classes, load_declined, source_hashes
from junitbot.bot.deliver import DeliveryTarget, deliver_commit, deliver_pull_request
from junitbot.bot.instructions import (
    Instruction,
    forget_instructions,
    instructions_to_run,
    load_instructions,
    remember_instructions,
)
from junitbot.bot.models import BotAction, CiOutcome, Command, PullInfo
from junitbot.bot.pulls import commands_used, own_pulls
from junitbot.bot.report import parse_pull_marker, parse_reply_marker, render_reply
from junitbot.bot.session import (
    Session,
    branch_commit,
    check_class_names,
    checkout,
    commit_mode,
    describe_check,
    fork_refusal,
    generate,
    outcome_of,
    utc_now,
)
from junitbot.errors import JunitbotError
from junitbot.runs import RunReport, RunRequest, instructions_for

log = logging.getLogger(__name__)

_HOUR = timedelta(hours=1)


def handle_command(session: Session, name: str, action: BotAction) -> CiOutcome:
    """Answer one `/junitbot ...` comment on a pull request."""
    command, number, actor, comment_id = action.command, action.pull_number, action.actor, action.comment_id
    if command is None or number is None or actor is None or comment_id is None:
        raise JunitbotError(f"internal: a command action without its comment ({action.reason})")
    session.outbox.react(number, comment_id, "eyes")
    if command.name == "oversized":
        return _refuse(session, name, action, f"the command is {len(command.line):,} characters; at most "
                       f"{MAX_COMMAND_CHARS:,} are read.")
    if session.client is not None:
        permission = session.client.permission(actor)
        if permission not in session.settings.command_permissions:
            return _refuse(session, name, action, f"only people with write access to {action.repository} can "
                           f"command junitbot, and @{actor} has {permission} access.")
    else:
        session.outbox.note("no token: the commenter's permission was not checked (nothing is sent either)")
    if refusal := _instructions_refusal(command, session.settings.command_prefix):
        return _refuse(session, name, action, refusal)
    if command.name == "help":
        return _answer(session, name, action, "help", outcome="answered", prefix=session.settings.command_prefix,
                       max_classes=session.settings.max_classes_per_command,
                       per_hour=session.settings.max_commands_per_pull_request_per_hour,
                       max_instructions=MAX_INSTRUCTION_CHARS)
    if command.name == "unknown":
        return _refuse(session, name, action, "that is not a junitbot command.",
                       hint=f"`{session.settings.command_prefix} help` lists the commands.")
    if session.client is None:
        return _refuse(session, name, action, "this run has no token, so it cannot read the pull request.")
    pull = session.client.pull(number)
    if command.name == "status":
        return _status(session, name, action, pull)
    return _regenerate(session, name, action, pull)


def _regenerate(session: Session, name: str, action: BotAction, pull: PullInfo) -> CiOutcome:
    """`regenerate [Class ...]` and `recreate`: checks, then a run at the PR's head, delivered and replied to."""
    assert action.command is not None
    command = action.command
    if refusal := _precheck(session, action, pull):
        return _refuse(session, name, action, refusal)
    bot_pr, fork = _is_bot_pull(session, pull), pull.head_repo != action.repository
    base = pull.base_ref if bot_pr else pull.head_ref
    head = checkout(session, _fetch_head(session, pull, bot_pr, fork))
    classes: tuple[str, ...] = ()
    if command.args:
        limit = session.settings.max_classes_per_command
        check = check_class_names(session, command.args, limit=limit)
        if not check.ok:
            return _refuse(session, name, action, describe_check(check, limit=limit) + ".",
                           suggestions={**check.unknown, **check.ambiguous})
        classes = check.resolved
    elif bot_pr or command.name == "recreate":
        classes = _pull_classes(session, pull if bot_pr else None, base)
    named = classes if command.args else ()
    instructions = instructions_to_run(load_instructions(session.state).of(pull.number), named, command.instructions)
    request = RunRequest(classes=classes, since=None if classes or bot_pr else _pull_base(session, pull, head),
                         instructions=instructions)
    target = DeliveryTarget(base=base, head_sha=head, trigger=action.trigger, force=command.name == "recreate",
                            explicit=bool(command.args))
    try:
        output = generate(session, request)
        _keep_instructions(session, action, named, output.report)
        if not bot_pr and not fork and commit_mode(session):
            delivery = deliver_commit(session.publishing, output, target, pull.head_ref)
        else:
            delivery = deliver_pull_request(session.publishing, output, target)
    except Exception as e:
        error = str(e) if isinstance(e, JunitbotError) else "an unexpected error; the workflow log has the details"
        _reply(session, action, "result", outcome="failed", error=error, delivery=None, report=None)
        raise
    _reply(session, action, "result", outcome="ran", error=None, delivery=delivery, report=output.report,
           **_instructions_view(command, named, request, output.report))
    return outcome_of(name, action, output, delivery)


def _precheck(session: Session, action: BotAction, pull: PullInfo) -> str | None:
    """Why this regeneration may not run (closed, a fork, over the hourly limit), or None."""
    assert session.client is not None
    if not pull.open:
        return f"#{pull.number} is {pull.state}."
    if pull.head_repo != action.repository and (refusal := fork_refusal(session)):
        return f"#{pull.number} was not regenerated because {refusal}"
    limit = session.settings.max_commands_per_pull_request_per_hour
    used = commands_used(session.client.comments(pull.number, since=utc_now() - _HOUR), session.settings)
    if used >= limit:
        return (f"#{pull.number} already had {used} regenerations in the last hour (the limit is {limit}); "
                "try again later.")
    return None


def _status(session: Session, name: str, action: BotAction, pull: PullInfo) -> CiOutcome:
    assert session.client is not None
    settings = session.settings
    base = pull.base_ref if _is_bot_pull(session, pull) else pull.head_ref
    branch = settings.bot_branch(base)
    pulls = own_pulls(session.client, settings, branch)
    current = next((p for p in pulls if p.open), pulls[0] if pulls else None)
    marker = parse_pull_marker(current.body) if current else None
    remote = publish.remote_head(session.repo, settings.remote, branch, env=session.publishing.git_env,
                                 missing_ok=session.publishing.dry_run)
    paused = False
    if remote is not None:
        publish.fetch_branch(session.repo, settings.remote, branch, env=session.publishing.git_env)
        paused = not publish.is_bot_branch_head(session.repo, remote, settings)
    ledger = load_declined(session.state)
    hashes = source_hashes(session.state, {fqn for p in ledger.pulls for fqn in p.classes})
    used = commands_used(session.client.comments(pull.number, since=utc_now() - _HOUR), settings)
    return _answer(session, name, action, "status", outcome="answered", base=base, branch=branch, pull=current,
                   classes=sorted(marker.classes) if marker else [], paused=paused,
                   declined=sorted(declined_classes(ledger, base, hashes)), prefix=settings.command_prefix,
                   remaining=max(0, settings.max_commands_per_pull_request_per_hour - used),
                   instructions=sorted(load_instructions(session.state).of(pull.number).items()))


# -- instructions (issue 17) ----------------------------------------------------------------------------------


def _instructions_refusal(command: Command, prefix: str) -> str | None:
    """Why a command's `-- instructions` cannot be taken (another command than regenerate, too long), or None."""
    if command.instructions is None or command.name == "unknown":
        return None
    if command.name != "regenerate":
        return f"only `{prefix} regenerate` takes instructions after `--`; `{command.name}` takes none."
    if len(command.instructions) > MAX_INSTRUCTION_CHARS:
        return (f"the instructions after `--` are {len(command.instructions):,} characters; at most "
                f"{MAX_INSTRUCTION_CHARS:,} are taken. Nothing ran: shorten them and comment again.")
    return None


def _keep_instructions(session: Session, action: BotAction, named: tuple[str, ...], report: RunReport) -> None:
    """Remember what a regeneration that ran was given, for the classes named or else those it covered; a `--`
    with nothing after it forgets the named classes' instructions (all of the pull request's without names)."""
    command, number = action.command, action.pull_number
    assert command is not None and number is not None
    if command.instructions == "":
        forget_instructions(session.state, number, named or None)
    elif command.instructions:
        instruction = Instruction(text=command.instructions, author=action.actor or "", given_at=utc_now(),
                                  comment_id=action.comment_id)
        remember_instructions(session.state, number, named or [r.target for r in report.results], instruction)


def _instructions_view(command: Command, named: tuple[str, ...], request: RunRequest,
                       report: RunReport) -> dict[str, object]:
    """What the result reply says about instructions: those each class of the run got, whether a model read them
    (the template generator does not: a run without a model, or a class whose kept tests are the template's),
    and what an empty `--` cleared."""
    used = instructions_for(request.instructions, [r.target for r in report.results])
    return {"instructions": sorted(used.items()), "no_model": report.backend == "template",
            "template_tests": sorted(r.target for r in report.results if r.origin == "template"),
            "cleared": list(named) if command.instructions == "" else None}  # []: all of the pull request's


# -- helpers ----------------------------------------------------------------------------------------------


def _is_bot_pull(session: Session, pull: PullInfo) -> bool:
    return pull.head_repo == session.publishing.repository and session.settings.is_bot_branch(pull.head_ref)


def _fetch_head(session: Session, pull: PullInfo, bot_pr: bool, fork: bool) -> str:
    """The commit to generate at: the base's head for a bot PR, else the PR's head (a fork's via refs/pull)."""
    if bot_pr:
        return branch_commit(session, pull.base_ref)
    if fork:
        return publish.fetch_ref(session.repo, session.settings.remote, f"refs/pull/{pull.number}/head",
                                 env=session.publishing.git_env)
    head = branch_commit(session, pull.head_ref)
    if head != pull.head_sha:
        log.info("#%d moved on to %s since GitHub answered: generating there", pull.number, head[:12])
    return head


def _pull_base(session: Session, pull: PullInfo, head: str) -> str | None:
    """Where a PR's own changes start: the merge base of its head and its base branch."""
    return publish.merge_base(session.repo, head, branch_commit(session, pull.base_ref))


def _pull_classes(session: Session, bot_pull: PullInfo | None, base: str) -> tuple[str, ...]:
    """The classes the bot PR for `base` holds, from its marker."""
    if bot_pull is None and session.client is not None:
        pulls = own_pulls(session.client, session.settings, session.settings.bot_branch(base))
        bot_pull = next((p for p in pulls if p.open), None)
    marker = parse_pull_marker(bot_pull.body) if bot_pull is not None else None
    return tuple(sorted(marker.classes)) if marker else ()


def _answer(session: Session, name: str, action: BotAction, template: str, *, outcome: str,
            **values: object) -> CiOutcome:
    _reply(session, action, template, outcome=outcome, **values)
    return CiOutcome(event=name, action=action)


def _refuse(session: Session, name: str, action: BotAction, reason: str, *, hint: str | None = None,
            suggestions: dict[str, tuple[str, ...]] | None = None) -> CiOutcome:
    """A polite reply saying why nothing ran; past twice the hourly command budget only a reaction, no reply."""
    assert action.pull_number is not None and action.comment_id is not None
    log.info("refused %s: %s", action.reason, reason)
    if session.client is not None and _replies_last_hour(session, action.pull_number) >= \
            2 * session.settings.max_commands_per_pull_request_per_hour:
        session.outbox.react(action.pull_number, action.comment_id, "confused")
        session.outbox.note(f"refused without a reply (too many replies this hour): {reason}")
    else:
        _reply(session, action, "refused", outcome="refused", reason=reason, hint=hint, suggestions=suggestions or {})
    refused = action.model_copy(update={"kind": "ignore", "reason": f"refused: {reason}"})
    return CiOutcome(event=name, action=refused)


def _replies_last_hour(session: Session, number: int) -> int:
    assert session.client is not None
    comments = session.client.comments(number, since=utc_now() - _HOUR)
    bot = session.settings.bot_login.lower()
    return sum(1 for c in comments if c.author.lower() == bot and parse_reply_marker(c.body) is not None)


def _reply(session: Session, action: BotAction, template: str, *, outcome: str, **values: object) -> None:
    assert action.command is not None and action.pull_number is not None
    body = render_reply(session.publishing.templates, template, command=action.command.name, outcome=outcome,
                        actor=action.actor, line=action.command.line, **values)
    session.outbox.reply(action.pull_number, body)

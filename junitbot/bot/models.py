"""The bot's records: GitHub events as typed models, comment commands, the plan of a run, PRs, outcomes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from junitbot.records import Record
from junitbot.runs import RunReport


class _Wire(BaseModel):
    """A slice of a GitHub payload: unknown fields are ignored, missing required ones are errors."""

    model_config = ConfigDict(frozen=True, extra="ignore")


# -- GitHub payloads (the edge: nothing past events.py handles raw dicts) -------------------------------


class UserRef(_Wire):
    login: str
    type: str = "User"

    @property
    def is_bot(self) -> bool:
        return self.type == "Bot" or self.login.endswith("[bot]")


class RepoRef(_Wire):
    full_name: str = Field(pattern=r"^[\w.-]+/[\w.-]+$")
    default_branch: str = "main"
    fork: bool = False


class CommitRef(_Wire):
    id: str
    message: str = ""


class PushEvent(_Wire):
    kind: Literal["push"] = "push"
    ref: str
    before: str
    after: str
    created: bool = False
    deleted: bool = False
    forced: bool = False
    repository: RepoRef
    sender: UserRef
    head_commit: CommitRef | None = None


class IssuePullLink(_Wire):
    url: str


class IssueRef(_Wire):
    number: int
    state: str = "open"
    user: UserRef
    pull_request: IssuePullLink | None = None


class CommentRef(_Wire):
    id: int
    body: str = ""
    user: UserRef
    author_association: str = "NONE"


class CommentEvent(_Wire):
    kind: Literal["issue_comment"] = "issue_comment"
    action: str
    issue: IssueRef
    comment: CommentRef
    repository: RepoRef
    sender: UserRef


class BranchRef(_Wire):
    ref: str
    sha: str
    repo: RepoRef | None = None  # None: the fork was deleted


class PullRef(_Wire):
    number: int
    state: str = "open"
    head: BranchRef
    base: BranchRef
    user: UserRef


class PullRequestEvent(_Wire):
    kind: Literal["pull_request"] = "pull_request"
    action: str
    number: int
    pull_request: PullRef
    repository: RepoRef
    sender: UserRef


class ScheduleEvent(_Wire):
    kind: Literal["schedule"] = "schedule"
    schedule: str = ""
    repository: RepoRef
    ref: str
    sha: str | None = None


class DispatchEvent(_Wire):
    kind: Literal["workflow_dispatch"] = "workflow_dispatch"
    ref: str
    inputs: dict[str, str | bool | int | float | None] | None = None
    repository: RepoRef
    sender: UserRef


BotEvent = Annotated[
    PushEvent | CommentEvent | PullRequestEvent | ScheduleEvent | DispatchEvent, Field(discriminator="kind")
]


# -- commands and plans ---------------------------------------------------------------------------------

CommandName = Literal["regenerate", "recreate", "help", "status", "unknown", "oversized"]


class Command(Record):
    """One `/junitbot ...` line of a comment (`oversized`: too long to read, refused; the line is only quoted).

    `instructions`: the cleaned text after a `--` word (untrusted data for the model, never run); None without a
    `--`, "" for a `--` with nothing after it (which clears remembered instructions).
    """

    name: CommandName
    args: tuple[str, ...] = ()
    line: str
    instructions: str | None = None


ActionKind = Literal["ignore", "incremental", "full", "classes", "command"]


class BotAction(Record):
    """What one event asks for; `ignore` carries the reason, so every run can say why it did nothing."""

    kind: ActionKind
    reason: str
    repository: str
    default_branch: str = "main"
    base_branch: str | None = None  # the branch the tests are for: the bot PR's base, or mode commit's target
    head_sha: str | None = None  # the commit to generate at (None: what is checked out)
    diff_base: str | None = None  # incremental: diff from this rev ...
    merge_base: bool = False  # ... or from its merge base with head_sha (new branches, pull requests)
    classes: tuple[str, ...] = ()
    command: Command | None = None
    pull_number: int | None = None  # the PR replies go to (commands, pull_request events)
    comment_id: int | None = None
    actor: str | None = None
    fork: bool = False
    trigger: str = ""  # a short human account of the event, for bodies and logs


class RunOutput(Record):
    """A runner's report plus what only the caller knows: why classes were chosen, coverage before, the model."""

    report: RunReport
    impacts: dict[str, str] = Field(default_factory=dict)  # class → why it was chosen (impact analysis)
    coverage_before: dict[str, float] = Field(default_factory=dict)  # class → line coverage before this run
    model: str | None = None


# -- GitHub objects the bot reads -------------------------------------------------------------------------


class PullInfo(Record):
    """A pull request as the bot needs it."""

    number: int
    url: str
    state: str
    merged: bool
    title: str
    body: str
    head_ref: str
    head_sha: str
    head_repo: str | None
    base_ref: str
    author: str
    created_at: datetime | None = None

    @property
    def open(self) -> bool:
        return self.state == "open"


class CommentInfo(Record):
    id: int
    body: str
    author: str
    created_at: datetime | None = None


# -- outcomes --------------------------------------------------------------------------------------------

DeliveryStatus = Literal[
    "created", "updated", "unchanged", "nothing", "committed", "blocked", "capped", "dry-run", "failed"
]


class Delivery(Record):
    """What publishing did: the PR (or commit) and why, in words a reply can quote."""

    status: DeliveryStatus
    message: str
    pull_number: int | None = None
    pull_url: str | None = None
    branch: str | None = None
    commit: str | None = None
    files: tuple[str, ...] = ()
    declined: tuple[str, ...] = ()  # classes left out: their PR was closed unmerged and they did not change


class CiOutcome(Record):
    """One `junitbot ci` invocation, for outputs, the job summary and the tests."""

    event: str
    action: BotAction
    report: RunReport | None = None
    delivery: Delivery | None = None
    replies: tuple[str, ...] = ()
    run_dir: str | None = None
    tests_generated: int = 0
    classes: tuple[str, ...] = ()
    coverage: float | None = None

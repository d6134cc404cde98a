"""Where a run's writes to GitHub go: through the client, or, in a dry run (or without a token), only to files.

Either way the run directory gets the record: `outbox.json`, the PR title and body, the patch and each reply,
so a dry run shows exactly what a real one would send.
"""

from __future__ import annotations

import logging
from pathlib import Path

from junitbot.bot.github import GitHubClient
from junitbot.records import Record

log = logging.getLogger(__name__)


class Reply(Record):
    number: int
    body: str
    url: str | None = None


class Reaction(Record):
    number: int
    comment_id: int
    content: str


class PullDraft(Record):
    """The PR the run would open or update, and the branch commit behind it."""

    branch: str
    base: str
    title: str
    body: str
    labels: tuple[str, ...] = ()
    number: int | None = None  # None: a new pull request
    commit: str | None = None


class OutboxRecord(Record):
    sent: bool
    reactions: tuple[Reaction, ...] = ()
    replies: tuple[Reply, ...] = ()
    pull: PullDraft | None = None
    notes: tuple[str, ...] = ()


class Outbox:
    """Collects replies, reactions and the PR draft; sends them when a client is given."""

    def __init__(self, client: GitHubClient | None) -> None:
        self.client = client
        self.reactions: list[Reaction] = []
        self.replies: list[Reply] = []
        self.pull: PullDraft | None = None
        self.patch: str | None = None
        self.notes: list[str] = []

    @property
    def sending(self) -> bool:
        return self.client is not None

    @property
    def empty(self) -> bool:
        """Nothing was sent or drafted (an ignored event): no run directory is needed."""
        return not (self.reactions or self.replies or self.pull or self.patch or self.notes)

    def react(self, number: int, comment_id: int, content: str) -> None:
        """React to a comment (sent only when sending)."""
        if self.client is not None:
            self.client.react(number, comment_id, content)
        self.reactions.append(Reaction(number=number, comment_id=comment_id, content=content))

    def reply(self, number: int, body: str) -> None:
        """Comment on issue or PR `number` (sent only when sending)."""
        url = self.client.comment(number, body) if self.client is not None else None
        self.replies.append(Reply(number=number, body=body, url=url))

    def note(self, text: str) -> None:
        """Something the job summary should mention."""
        log.info("%s", text)
        self.notes.append(text)

    def write(self, run_dir: Path) -> None:
        """Record everything in `run_dir` (replies/NN-pr-N.md, pr_title.txt, pr_body.md, changes.patch, outbox.json)."""
        run_dir.mkdir(parents=True, exist_ok=True)
        record = OutboxRecord(sent=self.sending, reactions=tuple(self.reactions), replies=tuple(self.replies),
                              pull=self.pull, notes=tuple(self.notes))
        (run_dir / "outbox.json").write_text(record.model_dump_json(indent=2), encoding="utf-8")
        if self.replies:
            replies = run_dir / "replies"
            replies.mkdir(exist_ok=True)
            for index, reply in enumerate(self.replies, 1):
                (replies / f"{index:02d}-pr-{reply.number}.md").write_text(reply.body, encoding="utf-8")
        if self.pull is not None:
            (run_dir / "pr_title.txt").write_text(self.pull.title + "\n", encoding="utf-8")
            (run_dir / "pr_body.md").write_text(self.pull.body, encoding="utf-8")
        if self.patch:
            (run_dir / "changes.patch").write_text(self.patch, encoding="utf-8")

"""Instructions people give a regeneration (`/junitbot regenerate Foo -- text`), remembered per pull request and
class in the state dir: a later `regenerate Foo` on the same pull request reuses them, `regenerate Foo --` clears
them (issue 17). The text is untrusted data: the bot stores, quotes and passes it on, and never runs it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path

from pydantic import Field

from junitbot.bot.ledger import load_ledger, save_ledger
from junitbot.records import Record
from junitbot.runs import ALL_TARGETS
from junitbot.state import StateDir

log = logging.getLogger(__name__)

_FILE = "instructions.json"


class Instruction(Record):
    """What someone asked of one class's tests, who asked and when."""

    text: str
    author: str
    given_at: datetime
    comment_id: int | None = None


class PullInstructions(Record):
    """The instructions remembered on one pull request: class FQN → its instruction."""

    pull_number: int
    classes: dict[str, Instruction] = Field(default_factory=dict)


class InstructionLedger(Record):
    pulls: tuple[PullInstructions, ...] = ()

    def of(self, pull_number: int) -> dict[str, Instruction]:
        """The instructions remembered on `pull_number`: class FQN → instruction."""
        return next((dict(p.classes) for p in self.pulls if p.pull_number == pull_number), {})


def _path(state: StateDir) -> Path:
    return state.root / "bot" / _FILE


def load_instructions(state: StateDir) -> InstructionLedger:
    """The ledger; an unreadable one is reported and treated as empty (a regeneration then runs without remembered
    instructions, which is how it ran before anyone gave any)."""
    return load_ledger(_path(state), InstructionLedger)


def instructions_to_run(remembered: Mapping[str, Instruction], named: Sequence[str],
                        given: str | None) -> dict[str, str]:
    """A RunRequest's instructions (class FQN → text): `given` for the `named` classes, or for every target when
    none are named ("" gives none); without a `--`, what is remembered (for all the pull request's classes when
    none are named: the run uses those of its targets)."""
    if given is not None:
        return {fqn: given for fqn in named or (ALL_TARGETS,)} if given else {}
    return {fqn: i.text for fqn, i in remembered.items() if not named or fqn in named}


def remember_instructions(state: StateDir, pull_number: int, classes: Iterable[str],
                          instruction: Instruction) -> None:
    """Remember `instruction` for `classes` on the pull request, replacing what they had."""
    ledger = load_instructions(state)
    _save(state, ledger, PullInstructions(pull_number=pull_number, classes=dict(sorted(
        {**ledger.of(pull_number), **dict.fromkeys(classes, instruction)}.items()))))


def forget_instructions(state: StateDir, pull_number: int, classes: Iterable[str] | None = None) -> None:
    """Forget the instructions of `classes` on the pull request (None: all of them), e.g. after `regenerate Foo --`."""
    ledger = load_instructions(state)
    current = ledger.of(pull_number)
    gone = set(current) if classes is None else set(classes) & set(current)
    if gone:
        _save(state, ledger, PullInstructions(pull_number=pull_number,
                                              classes={fqn: i for fqn, i in current.items() if fqn not in gone}))


def _save(state: StateDir, ledger: InstructionLedger, pull: PullInstructions) -> None:
    """The ledger with `pull`'s entry replaced, written whole; pull requests left with nothing drop out."""
    others = tuple(p for p in ledger.pulls if p.pull_number != pull.pull_number)
    save_ledger(_path(state.ensure()), InstructionLedger(pulls=(*others, pull) if pull.classes else others))

"""`/junitbot regenerate Class -- instructions` (issue 17): remembered per pull request and class, passed to the
runner, shown quoted in replies and status; the ledger in the state dir, run_ci on real payloads and the double."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from junitbot.bot.instructions import (
    Instruction,
    forget_instructions,
    instructions_to_run,
    load_instructions,
    remember_instructions,
)
from junitbot.runs import ALL_TARGETS
from junitbot.state import StateDir

MONEY_FQN, CART_FQN = "com.acme.shop.Money", "com.acme.shop.Cart"


def _instruction(text: str, author: str = "alice") -> Instruction:
    return Instruction(text=text, author=author, given_at=datetime(2025, 3, 1, 12, 30, tzinfo=UTC), comment_id=9)


# -- the ledger ----------------------------------------------------------------------------------------------


def test_instructions_are_remembered_per_pull_request_and_class(tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state")
    remember_instructions(state, 1, [MONEY_FQN, CART_FQN], _instruction("use the builder"))
    remember_instructions(state, 1, [CART_FQN], _instruction("cover the empty cart", "bob"))
    remember_instructions(state, 2, [MONEY_FQN], _instruction("only on two"))

    ledger = load_instructions(state)
    assert {fqn: (i.text, i.author) for fqn, i in ledger.of(1).items()} == {
        MONEY_FQN: ("use the builder", "alice"), CART_FQN: ("cover the empty cart", "bob")}
    assert [i.text for i in ledger.of(2).values()] == ["only on two"] and ledger.of(3) == {}
    assert ledger.of(1)[MONEY_FQN].given_at == datetime(2025, 3, 1, 12, 30, tzinfo=UTC)

    forget_instructions(state, 1, [CART_FQN])
    assert list(load_instructions(state).of(1)) == [MONEY_FQN]
    forget_instructions(state, 1)
    assert load_instructions(state).of(1) == {} and list(load_instructions(state).of(2)) == [MONEY_FQN]
    assert sorted(p.name for p in (state.root / "bot").iterdir()) == ["instructions.json"]  # no temporary left


@pytest.mark.parametrize("content", ["{not json", '{"pulls": [{"pull_number": "one"}]}', '{"pulls": 3}'])
def test_a_corrupt_ledger_is_an_empty_one_with_a_warning(tmp_path: Path, content: str,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    state = StateDir(tmp_path / "state")
    (state.root / "bot").mkdir(parents=True)
    (state.root / "bot" / "instructions.json").write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="junitbot.bot.instructions"):
        assert load_instructions(state).pulls == ()
    assert "ignoring unreadable" in caplog.text
    remember_instructions(state, 4, [MONEY_FQN], _instruction("start again"))  # and it is written anew
    assert list(load_instructions(state).of(4)) == [MONEY_FQN]


def test_what_a_run_is_asked_follows_the_command_or_the_memory() -> None:
    remembered = {MONEY_FQN: _instruction("use the builder"), CART_FQN: _instruction("cover the empty cart")}
    assert instructions_to_run(remembered, [MONEY_FQN], "new text") == {MONEY_FQN: "new text"}
    assert instructions_to_run(remembered, [], "new text") == {ALL_TARGETS: "new text"}
    assert instructions_to_run(remembered, [MONEY_FQN], "") == {}
    assert instructions_to_run(remembered, [MONEY_FQN], None) == {MONEY_FQN: "use the builder"}
    assert instructions_to_run(remembered, [], None) == {MONEY_FQN: "use the builder",
                                                         CART_FQN: "cover the empty cart"}
    assert instructions_to_run({}, [MONEY_FQN], None) == {}

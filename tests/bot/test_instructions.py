"""`/junitbot regenerate Class -- instructions` (issue 17): remembered per pull request and class, passed to the
runner, shown quoted in replies and status; the ledger in the state dir, run_ci on real payloads and the double."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from junitbot.bot.commands import MAX_INSTRUCTION_CHARS
from junitbot.bot.instructions import (
    Instruction,
    forget_instructions,
    instructions_to_run,
    load_instructions,
    remember_instructions,
)
from junitbot.bot.report import parse_reply_marker
from junitbot.config import JunitbotConfig
from junitbot.runs import ALL_TARGETS, RunReport, RunRequest
from junitbot.state import StateDir
from tests.bot.conftest import MONEY, FakeRunner, World

GFM = MarkdownIt("commonmark").enable("table")
MONEY_FQN, CART_FQN = "com.acme.shop.Money", "com.acme.shop.Cart"
MONEY_V2 = MONEY.replace("cents + other.cents", "other.cents + cents")
HOSTILE = "``x` <!-- hide --> **bold** @octocat <img src=x onerror=alert(1)> [link](https://evil.example) | {{ 7*7 }}"


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


# -- end to end ------------------------------------------------------------------------------------------------


def _pull(world: World, branch: str = "feature") -> int:
    head = world.branch(branch, {"src/main/java/com/acme/shop/Money.java": MONEY_V2})
    world.double.permissions["alice"] = "write"
    return world.double.add_pull(head=branch, base="main", head_sha=head)


def _command(world: World, number: int, body: str, runner: FakeRunner) -> str:
    """Run one comment on `number` from a fresh checkout; the bot's reply to it."""
    world.fresh_checkout()
    world.run(world.environ("issue_comment", world.comment_event(number, body)), runner=runner)
    return world.double.bot_comments(number)[-1]


def _code_spans(reply: str) -> list[str]:
    return [t.content for block in GFM.parse(reply) for t in block.children or [] if t.type == "code_inline"]


def _assert_inert(reply: str) -> None:
    """Nothing of the hostile text is live: no HTML, no link, no emphasis, no mention outside code spans."""
    html = GFM.render(reply)
    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)
    assert "`" not in outside_code and "<!-- hide" not in html and "<img" not in html
    assert "<strong>" not in html and "<a href" not in html and "@octocat" not in outside_code


def test_instructions_reach_the_runner_are_remembered_and_cleared(world: World) -> None:
    number = _pull(world)
    runner = FakeRunner()

    given = _command(world, number, "/junitbot regenerate Money -- use the builder, not the constructor", runner)
    reused = _command(world, number, "/junitbot regenerate Money", runner)
    cleared = _command(world, number, "/junitbot regenerate Money --", runner)
    after = _command(world, number, "/junitbot regenerate Money", runner)

    assert [call.instructions for call in runner.calls] == [
        {MONEY_FQN: "use the builder, not the constructor"}, {MONEY_FQN: "use the builder, not the constructor"},
        {}, {}]
    assert all(call.classes == (MONEY_FQN,) for call in runner.calls)
    for reply in (given, reused):
        assert f"- `{MONEY_FQN}`: `use the builder, not the constructor`" in reply
        assert "not followed: this run had no model" in reply  # FakeRunner's report says backend template
        assert parse_reply_marker(reply) == ("regenerate", "ran")
    assert f"Instructions cleared for `{MONEY_FQN}`." in cleared and "use the builder" not in cleared
    assert "Instructions" not in after
    assert load_instructions(world.state).of(number) == {}


def test_instructions_are_kept_apart_per_pull_request(world: World) -> None:
    first, runner = _pull(world), FakeRunner()
    _command(world, first, "/junitbot regenerate Money -- cover zero cents", runner)
    second = _pull(world, "other")
    _command(world, second, "/junitbot regenerate Money", runner)

    assert [call.instructions for call in runner.calls] == [{MONEY_FQN: "cover zero cents"}, {}]
    [remembered] = load_instructions(world.state).of(first).values()
    assert (remembered.text, remembered.author, remembered.comment_id is not None) == ("cover zero cents", "alice",
                                                                                       True)
    assert load_instructions(world.state).of(second) == {}


def test_instructions_without_class_names_cover_the_classes_the_run_covers(world: World) -> None:
    number, runner = _pull(world), FakeRunner(classes=(MONEY_FQN, CART_FQN))
    reply = _command(world, number, "/junitbot regenerate -- cover the empty cart", runner)
    _command(world, number, "/junitbot regenerate Cart", runner)

    assert runner.calls[0].classes == () and runner.calls[0].instructions == {ALL_TARGETS: "cover the empty cart"}
    assert f"- `{CART_FQN}`: `cover the empty cart`" in reply and f"- `{MONEY_FQN}`: `cover the empty cart`" in reply
    assert set(load_instructions(world.state).of(number)) == {MONEY_FQN, CART_FQN}
    assert runner.calls[1].instructions == {CART_FQN: "cover the empty cart"}


def test_a_model_run_says_the_model_got_them_and_which_classes_the_template_wrote(world: World) -> None:
    def with_model(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest) -> RunReport:
        report = FakeRunner(classes=(MONEY_FQN, CART_FQN))(root, config, state, request)
        results = tuple(r.model_copy(update={"origin": "template" if r.target == CART_FQN else "llm"})
                        for r in report.results)
        return report.model_copy(update={"backend": "openai", "results": results})

    number = _pull(world)
    world.fresh_checkout()
    world.run(world.environ("issue_comment", world.comment_event(
        number, "/junitbot regenerate Money, Cart -- prefer assertThat")), runner=with_model)
    reply = world.double.bot_comments(number)[-1]

    assert "Instructions given to the model:" in reply and "no model" not in reply
    assert f"- `{MONEY_FQN}`: `prefer assertThat`\n" in reply
    assert f"- `{CART_FQN}`: `prefer assertThat` (its kept tests came from the template generator" in reply


def test_status_lists_the_remembered_instructions(world: World) -> None:
    number, runner = _pull(world), FakeRunner()
    _command(world, number, "/junitbot regenerate Money -- keep `Money.plus` overflow cases", runner)
    status = _command(world, number, "/junitbot status", runner)

    assert len(runner.calls) == 1
    assert f"  - `{MONEY_FQN}`: ``keep `Money.plus` overflow cases`` (from `alice`, " in status
    assert re.search(r"\(from `alice`, \d{4}-\d\d-\d\d \d\d:\d\d UTC\)", status)
    other = _pull(world, "other")
    assert "instructions remembered" not in _command(world, other, "/junitbot status", runner)


def test_hostile_instructions_are_shown_inert_in_the_reply_and_the_status(world: World) -> None:
    number, runner = _pull(world), FakeRunner()
    reply = _command(world, number, f"/junitbot regenerate Money -- {HOSTILE}\u202e\x00", runner)
    status = _command(world, number, "/junitbot status", runner)

    assert runner.calls[0].instructions == {MONEY_FQN: HOSTILE}  # invisible characters dropped, the rest is data
    for body in (reply, status):
        assert HOSTILE in _code_spans(body)
        _assert_inert(body)


def test_instructions_over_the_limit_are_refused_naming_the_limit(world: World) -> None:
    number, runner = _pull(world), FakeRunner()
    text = "cover " + "x" * MAX_INSTRUCTION_CHARS
    reply = _command(world, number, f"/junitbot regenerate Money -- {text}", runner)

    assert runner.calls == [] and load_instructions(world.state).of(number) == {}
    assert f"are {len(text):,} characters; at most {MAX_INSTRUCTION_CHARS:,} are taken" in reply
    assert parse_reply_marker(reply) == ("regenerate", "refused")
    exact = _command(world, number, "/junitbot regenerate Money -- " + "y" * MAX_INSTRUCTION_CHARS, runner)
    assert len(runner.calls) == 1 and "refused" not in (parse_reply_marker(exact) or ("", ""))[1]


@pytest.mark.parametrize("command", ["status", "recreate", "help"])
def test_only_regenerate_takes_instructions(world: World, command: str) -> None:
    number, runner = _pull(world), FakeRunner()
    reply = _command(world, number, f"/junitbot {command} -- do it differently", runner)

    assert runner.calls == [] and parse_reply_marker(reply) == (command, "refused")
    assert f"only `/junitbot regenerate` takes instructions after `--`; `{command}` takes none." in reply


def test_help_mentions_instructions(world: World) -> None:
    number = _pull(world)
    reply = _command(world, number, "/junitbot help", FakeRunner())
    assert "`/junitbot regenerate [Class ...] [-- instructions]`" in reply
    assert f"{MAX_INSTRUCTION_CHARS} characters)" in reply and "`/junitbot regenerate Cart --` clears" in reply

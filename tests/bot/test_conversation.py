"""Hostile comments end to end (issue 18): `run_ci` on real payloads, replies read back from the GitHub double.

What users rely on: a reply fits in a GitHub comment, quotes only a bounded piece of what was written, cannot be
broken out of (backticks, HTML comments, template syntax) and copies no invisible or reordering characters.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from markdown_it import MarkdownIt

from junitbot.bot.commands import MAX_COMMAND_CHARS
from junitbot.bot.report import parse_pull_marker, parse_reply_marker
from junitbot.config import JunitbotConfig
from junitbot.quoting import GITHUB_BODY_LIMIT, MAX_QUOTE_CHARS
from junitbot.runs import ClassResult, RunReport, RunRequest
from junitbot.state import StateDir
from tests.bot.conftest import MONEY, FakeRunner, World

GFM = MarkdownIt("commonmark").enable("table")
MONEY_V2 = MONEY.replace("cents + other.cents", "other.cents + cents")
HIDDEN = ("Cc", "Cf", "Cs", "Zl", "Zp")


def _feature_pull(world: World) -> int:
    head = world.branch("feature", {"src/main/java/com/acme/shop/Money.java": MONEY_V2})
    world.double.permissions["alice"] = "write"
    return world.double.add_pull(head="feature", base="main", head_sha=head)


def _posted(world: World, suffix: str) -> list[str]:
    """Bodies of the requests that reached the double at paths ending in `suffix`, as sent."""
    return [r.body["body"] for r in world.double.requests if r.method in ("POST", "PATCH") and
            r.path.endswith(suffix) and "body" in r.body]


def _code_spans(reply: str) -> list[str]:
    return [t.content for t in GFM.parse(reply)[1].children or [] if t.type == "code_inline"]


def _assert_nothing_escapes(reply: str) -> None:
    """No backtick outside code, no live HTML comment, no hidden character."""
    html = GFM.render(reply)
    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)
    assert "`" not in outside_code and "<!-- hide" not in html
    assert not [c for c in reply.replace("\n", "") if unicodedata.category(c) in HIDDEN]


def test_a_megabyte_command_is_refused_unread_with_a_short_reply(world: World) -> None:
    number = _feature_pull(world)
    command = "/junitbot regenerate " + " Money ``\u202e\x00" * 113_635  # 1.25 million characters, one line
    runner = FakeRunner()
    outcome = world.run(world.environ("issue_comment", world.comment_event(number, command)), runner=runner)

    assert runner.calls == [] and outcome.action.kind == "ignore"
    [reply] = world.double.bot_comments(number)
    assert [len(body) for body in _posted(world, "/comments")] == [len(reply)] and len(reply) < 2_000
    assert f"the command is {len(command):,} characters; at most {MAX_COMMAND_CHARS:,} are read." in reply
    [quoted] = _code_spans(reply)
    assert len(quoted) <= MAX_QUOTE_CHARS and quoted.startswith("/junitbot regenerate Money ``\\u202e\\x00 Money")
    assert parse_reply_marker(reply) == ("oversized", "refused")
    _assert_nothing_escapes(reply)
    summary = Path(world.tmp.glob("summary-*.md").__next__()).read_text(encoding="utf-8")
    assert len(summary) < 2_000 and len(outcome.action.reason) < 2_000


def test_a_command_quoted_back_cannot_break_out_of_its_code_span(world: World) -> None:
    number = _feature_pull(world)
    command = "/junitbot deploy ``x`\u202eevil\x00 {{ 7 * 7 }} <!-- hide @octocat"
    world.run(world.environ("issue_comment", world.comment_event(number, command)))

    [reply] = world.double.bot_comments(number)
    [quoted] = _code_spans(reply)
    assert quoted == "/junitbot deploy ``x`\\u202eevil\\x00 {{ 7 * 7 }} <!-- hide @octocat"  # not rendered: no 49
    assert reply.startswith("@alice junitbot did not run ```/junitbot deploy") and "not a junitbot command" in reply
    _assert_nothing_escapes(reply)


def test_class_names_quoted_in_a_refusal_stay_quoted(world: World) -> None:
    number = _feature_pull(world)
    world.run(world.environ("issue_comment", world.comment_event(
        number, "/junitbot regenerate Mo`ney\u202e, Crat <!--, {{7*7}}")))

    [reply] = world.double.bot_comments(number)
    spans = _code_spans(reply)
    assert "Mo`ney\\u202e" in spans and "<!--" in spans and "{{7*7}}" in spans
    assert "Crat" in " ".join(spans)
    _assert_nothing_escapes(reply)


def test_a_report_of_thousands_of_classes_fits_in_the_pull_request_body(world: World) -> None:
    def many_rows(root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest) -> RunReport:
        report = FakeRunner()(root, config, state, request)
        rows = tuple(ClassResult(target=f"com.acme.generated.Class{i}", status="skipped",
                                 reason="no public method to test: only constants and a private constructor")
                     for i in range(4_000))
        return report.model_copy(update={"results": report.results + rows, "targets": 4_001})

    before, after = world.commit({"src/main/java/com/acme/shop/Money.java": MONEY_V2}, "change")
    environ = {**world.environ("push", world.push_event(before, after)), "GITHUB_SERVER_URL": "https://github.com",
               "GITHUB_RUN_ID": "4242"}
    outcome = world.run(environ, runner=many_rows)

    assert outcome.delivery is not None and outcome.delivery.status == "created"
    [sent] = _posted(world, "/pulls")
    [pull] = world.double.open_pulls()
    assert pull["body"] == sent and len(sent) < GITHUB_BODY_LIMIT
    assert "| `Money` | ✅ kept |" in sent and parse_pull_marker(sent) is not None
    assert sent.rstrip().endswith("the full report is in the job summary of the workflow run "
                                  "(https://github.com/octo/shop/actions/runs/4242)._")
    summary = Path(environ["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    assert "Class3999" in summary  # where the note says the rest is

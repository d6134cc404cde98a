"""Webhook payloads → typed events → the plan: what each event makes the bot do, and what it never does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from junitbot.bot import BotSettings, EventError, load_event, parse_event, plan_action
from junitbot.bot.events import has_trailer
from tests.bot.conftest import payload

SETTINGS = BotSettings()


def _plan(name: str, data: dict[str, Any], settings: BotSettings = SETTINGS) -> Any:
    return plan_action(parse_event(name, data), settings)


def _on_pull_request(data: dict[str, Any], body: str) -> dict[str, Any]:
    data["issue"]["pull_request"] = {"url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/1"}
    data["comment"]["body"] = body
    return data


def test_the_real_tag_deletion_push_does_nothing() -> None:
    action = _plan("push", payload("push.json"))
    assert action.kind == "ignore" and "only branch pushes" in action.reason


def test_a_push_to_a_branch_is_an_incremental_run_over_the_pushed_range() -> None:
    data = payload("push.json")
    data.update(ref="refs/heads/master", after="a" * 40, deleted=False)
    action = _plan("push", data)
    assert (action.kind, action.base_branch, action.diff_base, action.head_sha, action.merge_base) == (
        "incremental", "master", data["before"], "a" * 40, False)
    assert action.repository == "Codertocat/Hello-World"


def test_a_new_branch_diffs_against_the_default_branch() -> None:
    data = payload("push.with-new-branch.json")
    data["ref"] = "refs/heads/feature"
    action = _plan("push", data)
    assert (action.kind, action.diff_base, action.merge_base) == ("incremental", "master", True)
    assert _plan("push", payload("push.with-new-branch.json")).kind == "full"  # the first push of the default


def test_a_deleted_branch_does_nothing() -> None:
    data = payload("push.json")
    data["ref"] = "refs/heads/old"
    action = _plan("push", data)
    assert action.kind == "ignore" and action.reason == "branch old was deleted"


@pytest.mark.parametrize(("change", "reason"), [
    ({"ref": "refs/heads/junitbot/master"}, "bot's own branch"),
    ({"sender": {"login": "renovate[bot]", "type": "Bot"}}, "never triggers"),
    ({"sender": {"login": "my-app[bot]", "type": "Bot"}}, "never triggers"),
    ({"head_commit": {"id": "a" * 40, "message": "tests\n\ngenerated-by: junitbot\n"}}, "bot's own commit"),
])
def test_loop_protection(change: dict[str, Any], reason: str) -> None:
    data = payload("push.with-new-branch.json")
    data.update(change)
    settings = BotSettings(bot_login="my-app[bot]")
    action = _plan("push", data, settings)
    assert action.kind == "ignore" and reason in action.reason


def test_a_comment_on_a_plain_issue_is_ignored_and_on_a_pull_request_is_a_command() -> None:
    plain = payload("issue_comment.created.json")
    plain["comment"]["body"] = "/junitbot regenerate"
    assert _plan("issue_comment", plain).reason == "comment on issue #1, not on a pull request"

    action = _plan("issue_comment", _on_pull_request(payload("issue_comment.created.json"),
                                                     "/junitbot regenerate Money Cart"))
    assert (action.kind, action.pull_number, action.comment_id, action.actor) == (
        "command", 1, 492700400, "Codertocat")
    assert action.command is not None and action.command.args == ("Money", "Cart")
    assert action.classes == ("Money", "Cart")


@pytest.mark.parametrize(("name", "change", "reason"), [
    ("issue_comment.edited.json", {}, "comment edited"),
    ("issue_comment.created.json", {"user": {"login": "dependabot[bot]", "type": "Bot"}}, "a bot"),
    ("issue_comment.created.json", {"body": "/junitbot help\n<!-- junitbot:reply command=x outcome=y -->"},
     "marker"),
    ("issue_comment.created.json", {"body": "I will fix it"}, "no command"),
])
def test_comments_that_are_not_commands(name: str, change: dict[str, Any], reason: str) -> None:
    data = _on_pull_request(payload(name), "/junitbot regenerate")
    data["comment"].update(change)
    action = _plan("issue_comment", data)
    assert action.kind == "ignore" and reason in action.reason


def test_pull_request_events_generate_for_the_pull_requests_own_changes() -> None:
    data = payload("pull_request.opened.json")
    action = _plan("pull_request", data)
    pull = data["pull_request"]
    assert (action.kind, action.base_branch, action.head_sha, action.diff_base, action.merge_base) == (
        "incremental", "changes", pull["head"]["sha"], pull["base"]["sha"], True)
    assert action.pull_number == 2 and not action.fork
    assert _plan("pull_request", payload("pull_request.synchronize.json")).kind == "incremental"

    fork = payload("pull_request.opened.json")
    fork["pull_request"]["head"]["repo"]["full_name"] = "mallory/Hello-World"
    assert _plan("pull_request", fork).fork
    own = payload("pull_request.opened.json")
    own["pull_request"]["head"]["ref"] = "junitbot/master"
    assert _plan("pull_request", own).kind == "ignore"
    closed = payload("pull_request.opened.json")
    closed["action"] = "closed"
    assert _plan("pull_request", closed).kind == "ignore"


def test_workflow_dispatch_inputs_choose_the_run() -> None:
    data = payload("workflow_dispatch.json")
    assert _plan("workflow_dispatch", data).kind == "full"  # the real payload's only input is unrelated
    data["inputs"] = {"mode": "incremental"}
    assert _plan("workflow_dispatch", data).kind == "incremental"
    data["inputs"] = {"mode": "full", "classes": "com.acme.Money,Cart  Order"}
    action = _plan("workflow_dispatch", data)
    assert (action.kind, action.classes, action.base_branch) == ("classes", ("com.acme.Money", "Cart", "Order"),
                                                                 "master")
    data["inputs"] = {"mode": "everything"}
    with pytest.raises(EventError, match="mode='everything'"):
        _plan("workflow_dispatch", data)


def _environ(tmp_path: Path, name: str, data: object) -> dict[str, str]:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(data))
    return {"GITHUB_EVENT_NAME": name, "GITHUB_EVENT_PATH": str(path), "GITHUB_REPOSITORY": "octo/shop",
            "GITHUB_REF": "refs/heads/main", "GITHUB_SHA": "c" * 40}


def test_a_schedule_is_a_full_pass_described_by_the_environment(tmp_path: Path) -> None:
    name, event = load_event(_environ(tmp_path, "schedule", {"schedule": "0 3 * * *"}))
    assert name == "schedule" and event is not None
    action = plan_action(event, SETTINGS)
    assert (action.kind, action.repository, action.base_branch, action.head_sha) == ("full", "octo/shop", "main",
                                                                                    "c" * 40)


def test_unhandled_events_are_not_errors(tmp_path: Path) -> None:
    assert load_event(_environ(tmp_path, "release", {"action": "published"})) == ("release", None)


@pytest.mark.parametrize(("environ", "message"), [
    ({}, "GITHUB_EVENT_NAME is not set"),
    ({"GITHUB_EVENT_NAME": "push"}, "GITHUB_EVENT_PATH is not set"),
    ({"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": "/nonexistent/event.json"}, "no such file"),
])
def test_missing_environment(environ: dict[str, str], message: str) -> None:
    with pytest.raises(EventError, match=message):
        load_event(environ)


@pytest.mark.parametrize(("data", "message"), [
    ([1, 2], "expected a JSON object, got list"),
    ({"ref": "refs/heads/main"}, r"before: Field required; after: Field required"),
    ({**payload("push.json"), "repository": {"full_name": "no slash"}}, "repository.full_name"),
])
def test_malformed_payloads_name_what_is_wrong(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(EventError, match=message):
        load_event(_environ(tmp_path, "push", data))


def test_trailers_match_whole_lines_only() -> None:
    assert has_trailer("x\n\nGenerated-by: junitbot", "Generated-by: junitbot")
    assert not has_trailer("mentions Generated-by: junitbot inline", "Generated-by: junitbot")
    assert not has_trailer("Generated-by: someone-else", "Generated-by: junitbot")

"""The PyGithub client against the local GitHub double: shapes, retries, rate limits, errors without the token."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from junitbot.bot import ApiSettings, GitHubApiError, GitHubClient, PullExistsError, connect_github
from tests.bot.conftest import REPOSITORY, TOKEN
from tests.bot.github_double import GitHubDouble, serve

FAST = ApiSettings(retries=2, backoff_s=0, seconds_between_writes=0, max_rate_limit_wait_s=10, timeout_s=10)


@pytest.fixture
def double() -> Iterator[GitHubDouble]:
    fake = GitHubDouble(repository=REPOSITORY, token=TOKEN)
    server, thread = serve(fake)
    yield fake
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def client(double: GitHubDouble) -> GitHubClient:
    return connect_github(token=TOKEN, api_url=double.url, repository=REPOSITORY, settings=FAST)


def test_the_calls_the_bot_makes(double: GitHubDouble, client: GitHubClient) -> None:
    number = double.add_pull(head="feature", head_sha="f" * 40, body="please")
    comment = double.add_comment(number, "/junitbot help", user="alice")
    double.permissions["alice"] = "write"

    assert client.permission("alice") == "write" and client.permission("bob") == "read"
    assert client.permission("ghost-user") == "none"
    pull = client.pull(number)
    assert (pull.head_ref, pull.head_sha, pull.head_repo, pull.base_ref, pull.open) == (
        "feature", "f" * 40, REPOSITORY, "main", True)
    client.react(number, comment["id"], "eyes")
    url = client.comment(number, "hello")
    assert url.endswith(f"/pull/{number}#issuecomment-{double.comments[number][-1]['id']}")
    assert [c.body for c in client.comments(number)] == ["/junitbot help", "hello"]
    assert [p.number for p in client.pulls(state="all", head="feature")] == [number]
    assert client.pulls(head="other") == []
    assert double.reactions[0]["content"] == "eyes"
    assert all(r.headers["Authorization"] == f"token {TOKEN}" for r in double.requests)


def test_a_second_open_pull_request_for_the_same_branch_is_refused(double: GitHubDouble, client: GitHubClient) -> None:
    double.add_pull(head="junitbot/main", head_sha="a" * 40, user="github-actions[bot]")
    with pytest.raises(PullExistsError, match="A pull request already exists for octo:junitbot/main"):
        client.create_pull(base="main", head="junitbot/main", title="t", body="b")


def test_server_errors_are_retried(double: GitHubDouble, client: GitHubClient) -> None:
    double.fail("GET", r"/pulls$", 500, times=2)
    assert client.pulls() == []
    assert len([r for r in double.requests if r.path.endswith("/pulls")]) == 3


def test_rate_limits_are_waited_out_then_retried(double: GitHubDouble) -> None:
    client = connect_github(token=TOKEN, api_url=double.url, repository=REPOSITORY,
                            settings=FAST.model_copy(update={"retries": 3}))
    double.rate_limit("GET", r"/pulls$", times=1)
    double.fail("GET", r"/pulls$", 429, times=1, headers={"Retry-After": "0"})
    double.fail("GET", r"/pulls$", 403, times=1, message="You have exceeded a secondary rate limit.",
                headers={"Retry-After": "0"})
    assert client.pulls() == []
    assert len([r for r in double.requests if r.path.endswith("/pulls")]) == 4


def test_errors_that_persist_are_reported_clearly(double: GitHubDouble, client: GitHubClient) -> None:
    double.fail("GET", r"/pulls$", 502, times=10)
    with pytest.raises(GitHubApiError, match=r"GitHub API: list of pull requests: gave up after retries: .*502"):
        client.pulls()
    double.rate_limit("POST", r"/comments$", times=10)
    with pytest.raises(GitHubApiError, match="comment on #7") as raised:
        client.comment(7, "hi")
    assert TOKEN not in str(raised.value)
    with pytest.raises(GitHubApiError, match=r"pull request #404: not found \(404\)"):
        client.pull(404)


def test_a_wrong_token_is_a_clear_error(double: GitHubDouble) -> None:
    wrong = connect_github(token="ghs_wrong", api_url=double.url, repository=REPOSITORY, settings=FAST)
    with pytest.raises(GitHubApiError, match="HTTP 401: Bad credentials") as raised:
        wrong.pulls()
    assert "ghs_wrong" not in str(raised.value)

"""The only PyGithub importer: a thin client over one repository, every failure a GitHubApiError.

Every body it posts is fitted to GitHub's limit first (`quoting.fit_body`; the renderers fit theirs already,
keeping their markers, so this is the guard for any other caller).

Calls that fail with 5xx, 429 or a rate-limit 403 are retried by PyGithub's `GithubRetry` (a urllib3 Retry:
exponential backoff, `Retry-After` and `X-RateLimit-Reset` honoured up to a cap), then reported.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from github import Auth, Github, GithubException, GithubRetry, RateLimitExceededException, UnknownObjectException
from github.PullRequest import PullRequest
from github.Repository import Repository

from junitbot.bot.errors import GitHubApiError, PullExistsError
from junitbot.bot.models import CommentInfo, PullInfo
from junitbot.bot.redact import redact, secret_forms
from junitbot.bot.settings import ApiSettings
from junitbot.quoting import fit_body

log = logging.getLogger(__name__)

REACTIONS = frozenset({"+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"})


class GitHubClient:
    """What the bot asks of GitHub about one repository; construct it with `connect_github`."""

    def __init__(self, repository: Repository, *, full_name: str, secrets: Sequence[str] = ()) -> None:
        self._repo = repository
        self.full_name = full_name
        self.owner = full_name.split("/", 1)[0]
        self._secrets = tuple(secrets)

    @contextmanager
    def _call(self, what: str) -> Iterator[None]:
        """Translate PyGithub and transport errors into GitHubApiError, with the token masked."""
        try:
            yield
        except GitHubApiError:
            raise
        except UnknownObjectException as e:
            raise GitHubApiError(self._clean(f"GitHub API: {what}: not found (404)")) from e
        except RateLimitExceededException as e:
            raise GitHubApiError(self._clean(
                f"GitHub API: {what}: rate limit exceeded and not reset within the allowed wait ({_message(e)}); "
                "the run stops here, try again later")) from e
        except GithubException as e:
            raise GitHubApiError(self._clean(f"GitHub API: {what}: HTTP {e.status}: {_message(e)}")) from e
        except OSError as e:  # requests' errors (RetryError, ConnectionError, Timeout) are OSErrors
            raise GitHubApiError(self._clean(f"GitHub API: {what}: gave up after retries: {e}")) from e

    def _clean(self, text: str) -> str:
        return redact(text, self._secrets)

    # -- people ------------------------------------------------------------------------------------------

    def permission(self, login: str) -> str:
        """The user's permission on the repository: admin, maintain, write, triage, read or none."""
        try:
            with self._call(f"permission of {login}"):
                return self._repo.get_collaborator_permission(login)
        except GitHubApiError as e:
            if isinstance(e.__cause__, UnknownObjectException):
                return "none"
            raise

    # -- comments ------------------------------------------------------------------------------------------

    def react(self, number: int, comment_id: int, content: str) -> None:
        """Put a reaction (eyes, +1, -1, confused, rocket, ...) on a comment of issue or PR `number`."""
        if content not in REACTIONS:
            raise ValueError(f"not a GitHub reaction: {content}")
        with self._call(f"reaction on comment {comment_id}"):
            self._repo.get_issue(number).get_comment(comment_id).create_reaction(content)

    def comment(self, number: int, body: str) -> str:
        """Post a comment on issue or PR `number`; returns its URL."""
        with self._call(f"comment on #{number}"):
            return self._repo.get_issue(number).create_comment(fit_body(body)).html_url

    def comments(self, number: int, *, since: datetime | None = None) -> list[CommentInfo]:
        """Comments on issue or PR `number` (updated since `since`), oldest first."""
        with self._call(f"comments of #{number}"):
            issue = self._repo.get_issue(number)
            listing = issue.get_comments(since=since) if since is not None else issue.get_comments()
            return [CommentInfo(id=c.id, body=c.body or "", author=c.user.login if c.user else "",
                                created_at=c.created_at) for c in listing]

    # -- pull requests ---------------------------------------------------------------------------------

    def pull(self, number: int) -> PullInfo:
        """Pull request `number`, fresh from GitHub."""
        with self._call(f"pull request #{number}"):
            return _pull_info(self._repo.get_pull(number))

    def pulls(self, *, state: str = "open", head: str | None = None, base: str | None = None,
              limit: int = 100) -> list[PullInfo]:
        """Pull requests, newest first; `head` is a branch of this repository."""
        kwargs = {"state": state, "sort": "created", "direction": "desc"}
        if head is not None:
            kwargs["head"] = f"{self.owner}:{head}"
        if base is not None:
            kwargs["base"] = base
        with self._call("list of pull requests"):
            found = []
            for pull in self._repo.get_pulls(**kwargs):
                found.append(_pull_info(pull))
                if len(found) >= limit:
                    break
            return found

    def create_pull(self, *, base: str, head: str, title: str, body: str, draft: bool = False) -> PullInfo:
        """Open a pull request; PullExistsError when one is already open for head → base."""
        try:
            with self._call(f"new pull request {head} → {base}"):
                return _pull_info(self._repo.create_pull(base=base, head=head, title=title, body=fit_body(body),
                                                         draft=draft, maintainer_can_modify=True))
        except GitHubApiError as e:
            cause = e.__cause__
            if isinstance(cause, GithubException) and cause.status == 422 and "already exists" in str(cause):
                raise PullExistsError(str(e)) from cause
            raise

    def update_pull(self, number: int, *, title: str, body: str) -> None:
        """Replace a pull request's title and body."""
        with self._call(f"update of pull request #{number}"):
            self._repo.get_pull(number).edit(title=title, body=fit_body(body))

    def add_labels(self, number: int, labels: Sequence[str]) -> None:
        """Add labels to an issue or PR (labels it already has stay)."""
        if not labels:
            return
        with self._call(f"labels of #{number}"):
            self._repo.get_issue(number).add_to_labels(*labels)


def connect_github(*, token: str, api_url: str, repository: str, settings: ApiSettings) -> GitHubClient:
    """A client for `owner/name` at `api_url` (GITHUB_API_URL), retrying per `settings`; no call is made yet."""
    retry = GithubRetry(
        total=settings.retries,
        backoff_factor=settings.backoff_s,
        status_forcelist=[*range(500, 600), 429],  # GithubRetry adds the rate-limit 403
        allowed_methods=frozenset({"GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"}),
        max_rate_limit_wait=settings.max_rate_limit_wait_s,
        secondary_rate_wait=min(60.0, settings.max_rate_limit_wait_s),
    )
    client = Github(base_url=api_url.rstrip("/"), auth=Auth.Token(token), retry=retry, timeout=settings.timeout_s,
                    seconds_between_requests=None, seconds_between_writes=settings.seconds_between_writes or None,
                    per_page=100, lazy=True)
    return GitHubClient(client.get_repo(repository), full_name=repository, secrets=secret_forms(token))


def _pull_info(pull: PullRequest) -> PullInfo:
    head_repo = pull.head.repo
    return PullInfo(
        number=pull.number, url=pull.html_url, state=pull.state, merged=pull.merged_at is not None,
        title=pull.title or "", body=pull.body or "", head_ref=pull.head.ref, head_sha=pull.head.sha,
        head_repo=head_repo.full_name if head_repo is not None else None, base_ref=pull.base.ref,
        author=pull.user.login if pull.user else "", created_at=pull.created_at,
    )


def _message(error: GithubException) -> str:
    data = error.data
    if isinstance(data, dict):
        text = str(data.get("message") or "")
        details = [str(item.get("message") or " ".join(str(item[k]) for k in ("field", "code") if k in item))
                   for item in data.get("errors") or [] if isinstance(item, dict)]
        return "; ".join(part for part in (text, *details) if part) or str(error.status)
    return str(data or error.status)

"""A local GitHub REST API double: the endpoints PyGithub calls for the bot, with GitHub's response shapes.

It runs on localhost in a thread (ThreadingHTTPServer), records every request, checks the token, knows the
bare git remote (a new PR's head branch must exist there, as on GitHub), refuses a second open PR for the same
head and base with GitHub's 422, and can be told to fail: 5xx, rate-limit 403s and 429s, a number of times.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    headers: dict[str, str]


@dataclass
class Failure:
    method: str
    pattern: re.Pattern[str]
    status: int
    times: int
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass
class GitHubDouble:
    """State of one fake repository on a fake GitHub."""

    repository: str
    token: str
    bare: Path | None = None
    default_branch: str = "main"
    bot_login: str = "github-actions[bot]"
    permissions: dict[str, str] = field(default_factory=dict)
    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    comments: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    reactions: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    url: str = ""
    _ids: Iterator[int] = field(default_factory=lambda: iter(range(5000, 10**9)))
    _numbers: Iterator[int] = field(default_factory=lambda: iter(range(1, 10**6)))
    lock: threading.RLock = field(default_factory=threading.RLock)

    # -- test controls ---------------------------------------------------------------------------------------

    def fail(self, method: str, path_regex: str, status: int, *, times: int = 1, message: str = "Server Error",
             headers: dict[str, str] | None = None) -> None:
        """The next `times` matching requests answer `status` with GitHub's error shape."""
        self.failures.append(Failure(method, re.compile(path_regex), status, times,
                                     {"message": message, "documentation_url": "https://docs.github.com/rest"},
                                     headers or {}))

    def rate_limit(self, method: str, path_regex: str, *, times: int = 1) -> None:
        """Primary rate limit: 403, remaining 0, reset already past (so PyGithub's wait is short)."""
        reset = int((datetime.now(UTC) - timedelta(seconds=5)).timestamp())
        self.fail(method, path_regex, 403, times=times,
                  message="API rate limit exceeded for installation ID 1.",
                  headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)})

    def add_pull(self, *, head: str, base: str = "main", user: str = "alice", head_sha: str = "0" * 40,
                 head_repo: str | None = None, body: str = "", title: str = "A change") -> int:
        """A pull request opened by a person (from a fork when `head_repo` differs)."""
        with self.lock:
            number = next(self._numbers)
            self.pulls[number] = self._new_pull(number, head=head, base=base, title=title, body=body, user=user,
                                                head_repo=head_repo or self.repository, head_sha=head_sha)
            return number

    def add_comment(self, number: int, body: str, *, user: str) -> dict[str, Any]:
        with self.lock:
            return self._comment(number, body, user)

    def close_pull(self, number: int, *, merged: bool = False) -> None:
        with self.lock:
            pull = self.pulls[number]
            now = _now()
            pull.update(state="closed", closed_at=now, merged_at=now if merged else None)

    def open_pulls(self) -> list[dict[str, Any]]:
        return [self._pull_json(p) for p in self.pulls.values() if p["state"] == "open"]

    def bot_comments(self, number: int) -> list[str]:
        return [c["body"] for c in self.comments.get(number, []) if c["user"]["login"] == self.bot_login]

    def writes(self) -> list[Request]:
        return [r for r in self.requests if r.method in ("POST", "PATCH", "PUT", "DELETE")]

    # -- shapes --------------------------------------------------------------------------------------------

    def _user(self, login: str) -> dict[str, Any]:
        kind = "Bot" if login.endswith("[bot]") else "User"
        return {"login": login, "id": abs(hash(login)) % 10**8, "type": kind, "site_admin": False,
                "url": f"{self.url}/users/{login}", "html_url": f"https://github.com/{login}"}

    def _repo_json(self, full_name: str | None = None) -> dict[str, Any]:
        full_name = full_name or self.repository
        owner, name = full_name.split("/")
        return {"id": abs(hash(full_name)) % 10**8, "name": name, "full_name": full_name, "owner": self._user(owner),
                "private": False, "fork": full_name != self.repository, "default_branch": self.default_branch,
                "url": f"{self.url}/repos/{full_name}", "html_url": f"https://github.com/{full_name}"}

    def _new_pull(self, number: int, *, head: str, base: str, title: str, body: str, user: str, head_repo: str,
                  head_sha: str | None = None) -> dict[str, Any]:
        return {"number": number, "state": "open", "title": title, "body": body, "user": user, "head": head,
                "base": base, "head_repo": head_repo, "head_sha": head_sha, "created_at": _now(), "closed_at": None,
                "merged_at": None, "draft": False}

    def _pull_json(self, pull: dict[str, Any]) -> dict[str, Any]:
        number = pull["number"]
        head_sha = pull["head_sha"] or self._branch_sha(pull["head"]) or "0" * 40
        head_owner = pull["head_repo"].split("/")[0]
        api = f"{self.url}/repos/{self.repository}"
        return {
            "url": f"{api}/pulls/{number}", "id": 900000 + number, "number": number, "state": pull["state"],
            "title": pull["title"], "body": pull["body"], "user": self._user(pull["user"]), "draft": pull["draft"],
            "html_url": f"https://github.com/{self.repository}/pull/{number}",
            "issue_url": f"{api}/issues/{number}", "comments_url": f"{api}/issues/{number}/comments",
            "created_at": pull["created_at"], "updated_at": pull["created_at"], "closed_at": pull["closed_at"],
            "merged_at": pull["merged_at"], "locked": False, "author_association": "MEMBER",
            "head": {"label": f"{head_owner}:{pull['head']}", "ref": pull["head"], "sha": head_sha,
                     "user": self._user(head_owner), "repo": self._repo_json(pull["head_repo"])},
            "base": {"label": f"{self.repository.split('/')[0]}:{pull['base']}", "ref": pull["base"],
                     "sha": self._branch_sha(pull["base"]) or "0" * 40, "repo": self._repo_json()},
        }

    def _comment(self, number: int, body: str, user: str) -> dict[str, Any]:
        comment_id = next(self._ids)
        api = f"{self.url}/repos/{self.repository}"
        comment = {"id": comment_id, "body": body, "user": self._user(user), "created_at": _now(),
                   "updated_at": _now(), "author_association": "NONE",
                   "url": f"{api}/issues/comments/{comment_id}", "issue_url": f"{api}/issues/{number}",
                   "html_url": f"https://github.com/{self.repository}/pull/{number}#issuecomment-{comment_id}"}
        self.comments.setdefault(number, []).append(comment)
        return comment

    def _branch_sha(self, branch: str) -> str | None:
        if self.bare is None:
            return None
        result = subprocess.run(["git", "-C", str(self.bare), "rev-parse", "--verify", "-q", f"refs/heads/{branch}"],
                                capture_output=True, text=True, check=False)
        return result.stdout.strip() or None

    # -- routing -------------------------------------------------------------------------------------------

    def handle(self, method: str, path: str, query: dict[str, str], body: Any) -> tuple[int, Any, dict[str, str]]:
        with self.lock:
            for failure in self.failures:
                if failure.times > 0 and failure.method == method and failure.pattern.search(path):
                    failure.times -= 1
                    return failure.status, failure.body, failure.headers
            return self._route(method, path, query, body)

    def _route(self, method: str, path: str, query: dict[str, str], body: Any) -> tuple[int, Any, dict[str, str]]:
        prefix = f"/repos/{self.repository}"
        if not path.startswith(prefix):
            return _not_found()
        rest = path[len(prefix):]
        routes: list[tuple[str, str, Callable[[re.Match[str]], tuple[int, Any]]]] = [
            ("GET", r"", lambda m: (200, self._repo_json())),
            ("GET", r"/pulls", lambda m: (200, self._list_pulls(query))),
            ("POST", r"/pulls", lambda m: self._create_pull(body)),
            ("GET", r"/pulls/(\d+)", lambda m: self._get_pull(int(m[1]))),
            ("PATCH", r"/pulls/(\d+)", lambda m: self._edit_pull(int(m[1]), body)),
            ("GET", r"/issues/(\d+)/comments", lambda m: (200, self._list_comments(int(m[1]), query))),
            ("POST", r"/issues/(\d+)/comments", lambda m: (201, self._comment(int(m[1]), body["body"],
                                                                             self.bot_login))),
            ("POST", r"/issues/comments/(\d+)/reactions", lambda m: self._react(int(m[1]), body)),
            ("GET", r"/collaborators/([^/]+)/permission", lambda m: self._permission(m[1])),
            ("POST", r"/issues/(\d+)/labels", lambda m: (200, [{"name": n, "color": "ededed"} for n in body])),
        ]
        for verb, pattern, answer in routes:
            match = re.fullmatch(pattern, rest)
            if verb == method and match:
                status, data = answer(match)
                return status, data, {}
        return _not_found()

    def _list_pulls(self, query: dict[str, str]) -> list[dict[str, Any]]:
        state = query.get("state", "open")
        found = []
        for pull in sorted(self.pulls.values(), key=lambda p: p["number"], reverse=True):
            data = self._pull_json(pull)
            if state != "all" and pull["state"] != state:
                continue
            if "head" in query and data["head"]["label"] != query["head"]:
                continue
            if "base" in query and pull["base"] != query["base"]:
                continue
            found.append(data)
        return found

    def _create_pull(self, body: dict[str, Any]) -> tuple[int, Any]:
        head, base = body["head"], body["base"]
        if self.bare is not None and self._branch_sha(head) is None:
            return 422, {"message": "Validation Failed", "errors": [
                {"resource": "PullRequest", "field": "head", "code": "invalid"}]}
        for pull in self.pulls.values():
            if pull["state"] == "open" and pull["head"] == head and pull["base"] == base:
                owner = self.repository.split("/")[0]
                return 422, {"message": "Validation Failed", "errors": [
                    {"resource": "PullRequest", "code": "custom",
                     "message": f"A pull request already exists for {owner}:{head}."}]}
        number = next(self._numbers)
        self.pulls[number] = self._new_pull(number, head=head, base=base, title=body.get("title", ""),
                                            body=body.get("body", ""), user=self.bot_login,
                                            head_repo=self.repository)
        self.pulls[number]["draft"] = bool(body.get("draft"))
        return 201, self._pull_json(self.pulls[number])

    def _get_pull(self, number: int) -> tuple[int, Any]:
        return (200, self._pull_json(self.pulls[number])) if number in self.pulls else (404, _not_found()[1])

    def _edit_pull(self, number: int, body: dict[str, Any]) -> tuple[int, Any]:
        if number not in self.pulls:
            return 404, _not_found()[1]
        self.pulls[number].update({k: v for k, v in body.items() if k in ("title", "body", "state")})
        return 200, self._pull_json(self.pulls[number])

    def _list_comments(self, number: int, query: dict[str, str]) -> list[dict[str, Any]]:
        since = query.get("since")
        return [c for c in self.comments.get(number, []) if since is None or c["updated_at"] >= since]

    def _react(self, comment_id: int, body: dict[str, Any]) -> tuple[int, Any]:
        reaction = {"id": next(self._ids), "content": body["content"], "user": self._user(self.bot_login),
                    "created_at": _now(), "comment_id": comment_id}
        self.reactions.append(reaction)
        return 201, reaction

    def _permission(self, login: str) -> tuple[int, Any]:
        if login.startswith("ghost"):
            return 404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}
        permission = self.permissions.get(login, "read")
        role = {"admin": "admin", "write": "write", "read": "read"}.get(permission, permission)
        return 200, {"permission": permission, "role_name": role, "user": self._user(login)}


def _not_found() -> tuple[int, Any, dict[str, str]]:
    return 404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}, {}


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class _Handler(BaseHTTPRequestHandler):
    double: GitHubDouble

    def log_message(self, format: str, *args: Any) -> None:  # the base class's signature
        return

    def _serve(self) -> None:
        parsed = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        headers = {k: v for k, v in self.headers.items()}
        self.double.requests.append(Request(self.command, parsed.path, query, body, headers))
        if headers.get("Authorization") != f"token {self.double.token}":
            extra: dict[str, str] = {}
            status, data = 401, {"message": "Bad credentials"}
        else:
            status, data, extra = self.double.handle(self.command, parsed.path, query, body)
        payload = json.dumps(data).encode()
        self.send_response(status)
        reset = int((datetime.now(UTC) + timedelta(hours=1)).timestamp())
        base_headers = {"Content-Type": "application/json; charset=utf-8", "X-RateLimit-Limit": "5000",
                        "X-RateLimit-Remaining": "4999", "X-RateLimit-Reset": str(reset),
                        "X-RateLimit-Used": "1", "X-RateLimit-Resource": "core",
                        "X-GitHub-Media-Type": "github.v3; format=json"}
        for name, value in {**base_headers, **extra}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _serve  # http.server's naming


def serve(double: GitHubDouble) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """Start the double on a free localhost port; sets `double.url`."""
    handler = type("Handler", (_Handler,), {"double": double})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    double.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="github-double",
                              daemon=True)
    thread.start()
    return server, thread

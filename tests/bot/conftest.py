"""The bot's test world: a Java repo whose origin is a local bare remote, the GitHub double, real payloads."""

from __future__ import annotations

import copy
import io
import json
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import git
import pytest

from junitbot.analysis import update_graph
from junitbot.bot import ApiSettings, BotSettings, CiOutcome, RunOutput, RunRequest, run_ci
from junitbot.config import JunitbotConfig, load_config
from junitbot.generation.output import marker_line, write_tests
from junitbot.runs import ClassResult, RunReport
from junitbot.state import StateDir
from tests.bot.github_double import GitHubDouble, serve

PAYLOADS = Path(__file__).resolve().parent.parent / "fixtures" / "github-payloads"
TOKEN = "ghs_S3cr3tT0k3nF0rTh3B0tT3sts0nly42"
REPOSITORY = "octo/shop"

MONEY = """package com.acme.shop;

public final class Money {
    private final long cents;

    public Money(long cents) { this.cents = cents; }

    public long cents() { return cents; }

    public Money plus(Money other) { return new Money(cents + other.cents); }
}
"""
CART = """package com.acme.shop;

public class Cart {
    private Money total = new Money(0);

    public void add(Money price) { total = total.plus(price); }

    public Money total() { return total; }
}
"""
SOURCES = {"src/main/java/com/acme/shop/Money.java": MONEY, "src/main/java/com/acme/shop/Cart.java": CART}


def payload(name: str) -> dict[str, Any]:
    """A real webhook payload from the fixtures (a fresh copy to adapt)."""
    return copy.deepcopy(json.loads((PAYLOADS / name).read_text(encoding="utf-8")))


def fast_settings(**changes: Any) -> BotSettings:
    """Defaults, with retries that do not sleep and room for the PRs a test opens."""
    api = ApiSettings(retries=2, backoff_s=0, seconds_between_writes=0, max_rate_limit_wait_s=10, timeout_s=10)
    values: dict[str, Any] = {"api": api, "max_new_pull_requests_per_hour": 20, "max_open_pull_requests": 20}
    return BotSettings(**{**values, **changes})


def generated_path(fqn: str) -> str:
    package, _, simple = fqn.rpartition(".")
    return f"src/test/java/{package.replace('.', '/')}/{simple}GeneratedTest.java"


class FakeRunner:
    """A runner that indexes for real (cheap) but writes a canned test per class: fast and predictable."""

    def __init__(self, classes: Sequence[str] = ("com.acme.shop.Money",), *, version: int = 1) -> None:
        self.classes = tuple(classes)
        self.version = version
        self.calls: list[RunRequest] = []

    def __call__(self, root: Path, config: JunitbotConfig, state: StateDir, request: RunRequest) -> RunReport:
        self.calls.append(request)
        summary = update_graph(root, state, config)
        targets = request.classes or self.classes
        files = {}
        for fqn in targets:
            package, _, simple = fqn.rpartition(".")
            files[generated_path(fqn)] = (
                f"{marker_line(fqn, summary.commit)}\npackage {package};\n\n"
                f"class {simple}GeneratedTest {{\n    // version {self.version}\n}}\n")
        outcomes = write_tests(root, files)
        results = tuple(
            ClassResult(target=fqn, status="kept", reason="changed", test_path=generated_path(fqn),
                        kept=("addsCents", "keepsCurrency"), dropped=(("flakyOne", "outcomes differ between runs"),),
                        line_coverage=0.8, branch_coverage=0.5,
                        issues=("ERROR static/mocking: line 7: a mock is never used",))
            for fqn in targets)
        return RunReport(commit=summary.commit, mode="classes" if request.classes else "incremental",
                         backend="template", dry_run=False, targets=len(targets), results=results,
                         files=tuple(outcomes), seconds={"plan": 0.1, "total": 0.2})


class World:
    """A CI checkout (`root`, origin = `bare`) of `octo/shop`, the GitHub double, and how to fire events."""

    def __init__(self, tmp: Path, root: Path, bare: Path, double: GitHubDouble) -> None:
        self.tmp, self.root, self.bare, self.double = tmp, root, bare, double
        self.repo = git.Repo(root)
        self.state = StateDir(tmp / "state")
        self.config = load_config(root, environ={}, overrides={"state_dir": self.state.root})
        self.settings = fast_settings()
        self.stdout = io.StringIO()
        self._events = iter(range(1, 1000))

    # -- git --------------------------------------------------------------------------------------------

    def fresh_checkout(self, branch: str = "main") -> None:
        """What a new CI job starts from: the branch as pushed, nothing generated lying around."""
        self.repo.git.checkout("--quiet", "--force", branch)
        self.repo.git.clean("-fdq")

    def commit(self, files: dict[str, str], message: str, *, branch: str = "main") -> tuple[str, str]:
        """Commit on `branch` and push it; (before, after)."""
        self.fresh_checkout(branch)
        before = self.repo.head.commit.hexsha
        for rel, text in files.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text, encoding="utf-8")
        self.repo.git.add("-A")
        self.repo.git.commit("-q", "-m", message)
        self.repo.git.push("-q", "origin", branch)
        return before, self.repo.head.commit.hexsha

    def branch(self, name: str, files: dict[str, str]) -> str:
        """A feature branch with one commit, pushed; returns its head."""
        self.fresh_checkout("main")
        self.repo.git.checkout("-q", "-b", name)
        _, after = self.commit(files, f"work on {name}", branch=name)
        self.fresh_checkout("main")
        return after

    def remote_sha(self, branch: str) -> str | None:
        result = subprocess.run(["git", "-C", str(self.bare), "rev-parse", "--verify", "-q", f"refs/heads/{branch}"],
                                capture_output=True, text=True, check=False)
        return result.stdout.strip() or None

    def remote_file(self, branch: str, path: str) -> str | None:
        result = subprocess.run(["git", "-C", str(self.bare), "show", f"{branch}:{path}"], capture_output=True,
                                text=True, check=False)
        return result.stdout if result.returncode == 0 else None

    def remote_files(self, branch: str) -> list[str]:
        output = subprocess.run(["git", "-C", str(self.bare), "ls-tree", "-r", "--name-only", branch],
                                capture_output=True, text=True, check=True).stdout
        return output.split()

    # -- events -----------------------------------------------------------------------------------------

    def environ(self, event: str, data: dict[str, Any], *, token: str | None = TOKEN) -> dict[str, str]:
        index = next(self._events)
        path = self.tmp / f"event-{index}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        env = {"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(path), "GITHUB_REPOSITORY": REPOSITORY,
               "GITHUB_API_URL": self.double.url, "GITHUB_OUTPUT": str(self.tmp / f"output-{index}"),
               "GITHUB_STEP_SUMMARY": str(self.tmp / f"summary-{index}.md"), "GITHUB_REF": "refs/heads/main",
               "GITHUB_SHA": self.repo.head.commit.hexsha}
        if token:
            env["GITHUB_TOKEN"] = token
        return env

    def push_event(self, before: str, after: str, *, ref: str = "refs/heads/main", message: str = "change",
                   sender: str = "alice") -> dict[str, Any]:
        """push.json (a tag deletion upstream) turned into a push of `before..after` to `ref`."""
        data = payload("push.json")
        data.update(ref=ref, before=before, after=after, created=False, deleted=False, forced=False)
        data["repository"].update(full_name=REPOSITORY, name="shop", default_branch="main")
        data["sender"]["login"] = sender
        data["head_commit"] = {"id": after, "message": message, "tree_id": "0" * 40, "distinct": True}
        return data

    def comment_event(self, number: int, body: str, *, user: str = "alice") -> dict[str, Any]:
        """issue_comment.created.json on pull request `number` (the double knows the comment too)."""
        comment = self.double.add_comment(number, body, user=user)
        data = payload("issue_comment.created.json")
        data["repository"].update(full_name=REPOSITORY, name="shop", default_branch="main")
        data["issue"].update(number=number, pull_request={
            "url": f"{self.double.url}/repos/{REPOSITORY}/pulls/{number}"})
        data["comment"].update(id=comment["id"], body=body)
        data["comment"]["user"].update(login=user, type="User")
        data["sender"].update(login=user, type="User")
        return data

    def run(self, environ: dict[str, str], *, runner: Callable[..., RunReport | RunOutput] | None = None,
            dry_run: bool = False, settings: BotSettings | None = None, **options: Any) -> CiOutcome:
        return run_ci(environ, self.root, self.config, runner=runner or FakeRunner(), dry_run=dry_run,
                      settings=settings or self.settings, stdout=self.stdout, **options)


def make_bare_world(tmp_path: Path, files: dict[str, str]) -> World:
    """A new repository with `files` in one commit, as a World."""
    root = tmp_path / "checkout"
    root.mkdir()
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    repo = git.Repo.init(root, initial_branch="main")
    repo.git.add("-A")
    repo.git.commit("-q", "-m", "initial import")
    repo.close()
    return world_around(tmp_path, root)


def world_around(tmp_path: Path, root: Path) -> World:
    """A World for an existing repository on `main`: a bare remote as its origin, and the double."""
    bare = tmp_path / "remote.git"
    git.Repo.init(bare, bare=True, initial_branch="main")
    with git.Repo(root) as repo:
        repo.create_remote("origin", str(bare))
        repo.git.push("-q", "origin", "main")
    return World(tmp_path, root, bare, GitHubDouble(repository=REPOSITORY, token=TOKEN, bare=bare))


@contextmanager
def serving(built: World) -> Iterator[World]:
    server, thread = serve(built.double)
    try:
        yield built
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
        built.repo.close()


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """The small Java repo (Money, Cart) on a bare remote, with the GitHub double serving."""
    with serving(make_bare_world(tmp_path, SOURCES)) as built:
        yield built

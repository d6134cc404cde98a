"""The bot's git writer (GitPython): bot commits built beside the work tree, pushes with the token, checks.

Commits are made with plumbing on a temporary index (read-tree, update-index, write-tree, commit-tree), so
the checkout, its index and HEAD are never touched. The token reaches git only as an `http.extraheader` in
the push's environment: it is in no command line, no URL, no config file and no log.
"""

from __future__ import annotations

import base64
import logging
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import git

from junitbot.analysis import GitRepo
from junitbot.bot.events import has_trailer
from junitbot.bot.settings import BotSettings
from junitbot.errors import GitError

log = logging.getLogger(__name__)

BASE_TRAILER = "Junitbot-base"
_FILE_MODE = "100644"
_NULL_SHA = "0" * 40
_LOCAL_NAMESPACE = "refs/junitbot/fetched"
# How git says that the remote branch moved under a push (a racing run): worth another attempt.
_MOVED = ("[rejected]", "stale info", "non-fast-forward", "fetch first", "cannot lock ref", "failed to update ref",
          "reference already exists")


def open_repo(root: Path) -> git.Repo:
    """The git work tree containing `root`."""
    try:
        return GitRepo(root, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as e:
        raise GitError(f"{root} is not inside a git repository: the bot commits its tests with git") from e


def auth_env(token: str | None) -> dict[str, str]:
    """Environment for git network calls: the token as a basic-auth header for https remotes, no prompts."""
    env = {"GIT_TERMINAL_PROMPT": "0"}
    if token:
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        env |= {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "http.extraheader",
                "GIT_CONFIG_VALUE_0": f"AUTHORIZATION: basic {basic}"}
    return env


def _git_error(what: str, error: git.GitCommandError) -> GitError:
    stderr = (error.stderr or "").strip().removeprefix("stderr:").strip().strip("'").strip()
    return GitError(f"git {what} failed: {stderr or error}")


# -- reading ----------------------------------------------------------------------------------------------


def head_sha(repo: git.Repo) -> str:
    """The checked-out commit."""
    try:
        return repo.head.commit.hexsha
    except ValueError as e:
        raise GitError(f"{repo.working_tree_dir}: the repository has no commits") from e


def resolve(repo: git.Repo, rev: str) -> str | None:
    """The commit id of a revision, or None when it is not known locally."""
    try:
        return repo.commit(rev).hexsha
    except (git.BadName, ValueError, git.GitCommandError):
        return None


def merge_base(repo: git.Repo, first: str, second: str) -> str | None:
    """The best common ancestor of two commits, or None (unrelated, or not in the clone)."""
    try:
        bases = repo.merge_base(first, second)
    except git.GitCommandError:
        return None
    return bases[0].hexsha if bases else None


def remote_head(repo: git.Repo, remote: str, branch: str, *, env: Mapping[str, str],
                missing_ok: bool = False) -> str | None:
    """The commit `branch` points at on the remote, or None when the remote has no such branch.

    With `missing_ok` (dry runs) a remote the checkout does not have is read as one without the branch.
    """
    if missing_ok and not has_remote(repo, remote):
        return None
    try:
        output = str(repo.git.ls_remote(remote, f"refs/heads/{branch}", env=dict(env)))
    except git.GitCommandError as e:
        raise _git_error(f"ls-remote of {branch}", e) from e
    for line in output.splitlines():
        sha, _, ref = line.partition("\t")
        if ref == f"refs/heads/{branch}":
            return sha
    return None


def has_remote(repo: git.Repo, remote: str) -> bool:
    """Whether `remote` names a configured remote, or is a URL or path git can reach without one."""
    return remote in {r.name for r in repo.remotes} or "/" in remote or ":" in remote


def fetch_branch(repo: git.Repo, remote: str, branch: str, *, env: Mapping[str, str]) -> str:
    """Fetch one remote branch into a private ref (no remote-tracking refs change); returns its commit."""
    return fetch_ref(repo, remote, f"refs/heads/{branch}", env=env)


def fetch_ref(repo: git.Repo, remote: str, ref: str, *, env: Mapping[str, str]) -> str:
    """Fetch a remote ref (`refs/heads/x`, `refs/pull/7/head`) into `refs/junitbot/fetched/...`; its commit."""
    local = f"{_LOCAL_NAMESPACE}/{ref.removeprefix('refs/')}"
    try:
        repo.git.fetch("--no-tags", "--quiet", remote, f"+{ref}:{local}", env=dict(env))
    except git.GitCommandError as e:
        raise _git_error(f"fetch of {ref}", e) from e
    return repo.commit(local).hexsha


def checkout(repo: git.Repo, sha: str) -> None:
    """Detach the work tree at `sha` (a clean CI checkout; refuses to carry local changes along)."""
    if head_sha(repo) == sha:
        return
    if repo.is_dirty(untracked_files=False):
        raise GitError(f"{repo.working_tree_dir} has uncommitted changes: cannot check out {sha[:12]}")
    try:
        repo.git.checkout("--quiet", "--detach", sha)
    except git.GitCommandError as e:
        raise _git_error(f"checkout of {sha[:12]}", e) from e


def trailer_value(message: str, key: str) -> str | None:
    """The value of the last `Key: value` line of a commit message, or None."""
    for line in reversed(message.splitlines()):
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() == key.lower():
            return value.strip()
    return None


def is_bot_branch_head(repo: git.Repo, sha: str, settings: BotSettings) -> bool:
    """Whether the bot branch head is exactly one bot commit on its recorded base: else a person pushed."""
    commit = repo.commit(sha)
    message = str(commit.message)
    base = trailer_value(message, BASE_TRAILER)
    return (has_trailer(message, settings.commit_trailer)
            and (commit.committer.email or "").lower() == settings.commit_author_email.lower()
            and [parent.hexsha for parent in commit.parents] == [base])


def is_bot_commit(repo: git.Repo, sha: str, settings: BotSettings) -> bool:
    """Whether a commit carries the bot's trailer (loop protection for PR and commit-mode runs)."""
    try:
        return has_trailer(str(repo.commit(sha).message), settings.commit_trailer)
    except (ValueError, git.BadName):
        return False


def commit_changes(repo: git.Repo, sha: str) -> dict[str, str | None]:
    """What a bot commit changed against its parent: path → new blob id, or None for a deletion."""
    commit = repo.commit(sha)
    if len(commit.parents) != 1:
        return {}
    changes: dict[str, str | None] = {}
    for diff in commit.parents[0].diff(commit, no_renames=True):
        if diff.deleted_file and diff.a_path:
            changes[diff.a_path] = None
        elif diff.b_path and diff.b_blob is not None:
            changes[diff.b_path] = diff.b_blob.hexsha
    return changes


def blob_at(repo: git.Repo, sha: str, path: str) -> str | None:
    """The blob id of `path` in commit `sha`, or None."""
    try:
        return str((repo.commit(sha).tree / path).hexsha)
    except KeyError:
        return None


def read_blob(repo: git.Repo, blob: str) -> bytes:
    """The content of a blob by id."""
    data: bytes = repo.odb.stream(bytes.fromhex(blob)).read()
    return data


# -- writing ----------------------------------------------------------------------------------------------


def store_files(repo: git.Repo, root: Path, paths: Sequence[str]) -> dict[str, str]:
    """Write work-tree files (relative to `root`) into the object store; path → blob id."""
    if not paths:
        return {}
    top = Path(repo.working_tree_dir or root)
    absolute = [str((root / p).resolve()) for p in paths]
    with tempfile.TemporaryFile("w+b") as stdin:
        stdin.write("".join(f"{a}\n" for a in absolute).encode())
        stdin.seek(0)
        try:
            output = repo.git.hash_object("-w", "--stdin-paths", istream=stdin)
        except git.GitCommandError as e:
            raise _git_error("hash-object", e) from e
    blobs = output.split()
    return {Path(a).relative_to(top.resolve()).as_posix(): blob for a, blob in zip(absolute, blobs, strict=True)}


def build_commit(
    repo: git.Repo, *, parent: str, changes: Mapping[str, str | None], message: str, settings: BotSettings
) -> str | None:
    """A commit on `parent` with `changes` (path → blob id, None deletes); None when the tree stays the same.

    Paths are relative to the top of the work tree. Nothing outside the object store changes.
    """
    with tempfile.TemporaryDirectory(prefix="junitbot-index-") as scratch:
        env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        info = Path(scratch) / "index-info"
        info.write_text("".join(f"{_FILE_MODE} {blob}\t{path}\n" if blob else f"0 {_NULL_SHA}\t{path}\n"
                                for path, blob in sorted(changes.items())), encoding="utf-8")
        try:
            repo.git.read_tree(parent, env=env)
            with info.open("rb") as stdin:
                repo.git.update_index("--index-info", istream=stdin, env=env)
            tree = repo.git.write_tree(env=env)
        except git.GitCommandError as e:
            raise _git_error("building the bot commit", e) from e
    if tree == repo.commit(parent).tree.hexsha:
        return None
    identity = {"GIT_AUTHOR_NAME": settings.commit_author_name, "GIT_AUTHOR_EMAIL": settings.commit_author_email,
                "GIT_COMMITTER_NAME": settings.commit_author_name,
                "GIT_COMMITTER_EMAIL": settings.commit_author_email}
    full_message = f"{message.rstrip()}\n\n{settings.commit_trailer}\n{BASE_TRAILER}: {parent}\n"
    try:
        sha: str = repo.git.commit_tree(tree, "-p", parent, "-m", full_message, env=identity)
    except git.GitCommandError as e:
        raise _git_error("commit-tree", e) from e
    return sha.strip()


def same_content(repo: git.Repo, first: str, second: str) -> bool:
    """Two commits with the same tree and the same parents."""
    a, b = repo.commit(first), repo.commit(second)
    return a.tree.hexsha == b.tree.hexsha and [p.hexsha for p in a.parents] == [p.hexsha for p in b.parents]


def push(
    repo: git.Repo, *, remote: str, sha: str, branch: str, lease: str | None, force: bool, env: Mapping[str, str]
) -> bool:
    """Push `sha` to `branch`; False when the remote moved meanwhile (lease or fast-forward refused).

    `force` pushes with `--force-with-lease=<branch>:<lease>` (lease None: the branch must not exist), so two
    racing runs never overwrite each other blindly; without `force` only a fast-forward is accepted.
    """
    ref = f"refs/heads/{branch}"
    args = ["--porcelain"]
    if force:
        args.append(f"--force-with-lease={ref}:{lease or ''}")
    try:
        repo.git.push(*args, remote, f"{sha}:{ref}", env=dict(env))
    except git.GitCommandError as e:
        output = f"{e.stdout or ''}\n{e.stderr or ''}"
        if any(sign in output for sign in _MOVED):
            log.info("push of %s to %s refused: the branch moved", sha[:12], branch)
            return False
        raise _git_error(f"push to {branch}", e) from e
    return True


def patch(repo: git.Repo, base: str, sha: str) -> str:
    """The bot commit as a unified diff against its base (for dry runs and reports)."""
    try:
        text: str = repo.git.diff("--binary", base, sha)
    except git.GitCommandError as e:
        raise _git_error("diff", e) from e
    return text + "\n" if text else ""

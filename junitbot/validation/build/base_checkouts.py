"""Base commits checked out beside the repository (issue 15: tests that catch a change fail on the base commit):
detached git worktrees under the state directory, one per commit, reused while healthy, at most three kept.

Running tests on a base is `rerun_tests(tests, root=base_worktree(...), main_sources=main_sources_at(...),
classpath=base_classpath(head_classpath), coverage=False)`: the base's own main sources are compiled, never the
head's build output (`base_classpath` drops it, and rerun_tests ignores build output outside its root anyway).
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

import git

from junitbot.analysis import GitRepo, is_candidate, is_test_path, open_checkout
from junitbot.errors import GitError
from junitbot.state import StateDir
from junitbot.validation.build.models import ProjectClasspath

log = logging.getLogger(__name__)

KEPT_WORKTREES = 3
"""How many base worktrees stay; the least recently used go first."""
_TEMPORARY = ".new-"


def base_worktree(repo_root: Path, commit: str, state: StateDir) -> Path:
    """`repo_root` as it is at `commit`: a detached worktree at `state.root/worktrees/<commit>` (the project's
    folder inside it, for a project in a subfolder of its repository), reused when it is there and healthy,
    made again when broken. Made under a temporary name and renamed, so a half-made one is never reused."""
    checkout = open_checkout(repo_root)
    if checkout is None:
        raise GitError(f"{repo_root} is not in a git work tree: no base commit can be checked out")
    sha = checkout.resolve(commit)
    repo = checkout.repo
    if sha is None or not _exists(repo, sha):
        raise GitError(f"no commit {commit!r} in {repo_root}")
    folders = state.ensure().root / "worktrees"
    folder = folders / sha
    if folder.exists() and not _healthy(folder, sha):
        log.info("base worktree %s is broken; making it again", folder)
        _remove(repo, folder)
    if not folder.exists():
        _add(repo, folders, sha)
    os.utime(folder)  # the most recently used stays
    _keep_newest(repo, folders, keep=KEPT_WORKTREES)
    return folder / checkout.prefix if checkout.prefix else folder


def main_sources_at(repo_root: Path, commit: str, *, ignore: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(path, blob sha) of every main `.java` source of `repo_root` at `commit`, paths relative to `repo_root`
    and sorted: what `CodeGraph.source_files(test=False)` gives for the head (the indexer's rule of main and test,
    `is_test_path`, and its candidates, `is_candidate` with the config's `ignore`)."""
    checkout = open_checkout(repo_root)
    if checkout is None:
        raise GitError(f"{repo_root} is not in a git work tree")
    try:
        listing = checkout.repo.git.ls_tree("-r", "-z", "--full-tree", commit)
    except git.GitCommandError as e:
        raise GitError(f"git ls-tree {commit} failed in {repo_root}: {e.stderr.strip()}") from e
    sources = []
    for entry in listing.split("\0"):
        info, tab, path = entry.partition("\t")
        parts = info.split()
        if not tab or len(parts) != 3 or parts[1] != "blob" or not path.startswith(checkout.prefix):
            continue
        relative = path[len(checkout.prefix):]
        if is_candidate(relative, ignore) and not is_test_path(relative):
            sources.append((relative, parts[2]))
    return sorted(sources)


def base_classpath(head: ProjectClasspath) -> ProjectClasspath:
    """The head's classpath for a run on a base: its libraries, without the head's compiled main classes."""
    return head.model_copy(update={"modules": tuple(m.model_copy(update={"main_classes": None})
                                                    for m in head.modules)})


def _exists(repo: git.Repo, sha: str) -> bool:
    try:
        repo.git.cat_file("-e", f"{sha}^{{commit}}")
    except git.GitCommandError:
        return False
    return True


def _healthy(folder: Path, sha: str) -> bool:
    """A worktree git knows, checked out at `sha`, with no change to its tracked files."""
    try:
        with GitRepo(folder) as tree:
            return tree.head.commit.hexsha == sha and not tree.is_dirty(untracked_files=False)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, git.GitCommandError, ValueError):
        return False


def _add(repo: git.Repo, folders: Path, sha: str) -> None:
    temporary = folders / f"{_TEMPORARY}{sha}-{os.getpid()}"
    _remove(repo, temporary)
    folders.mkdir(parents=True, exist_ok=True)
    try:
        repo.git.worktree("add", "--detach", "--force", str(temporary), sha)
        temporary.rename(folders / sha)
        repo.git.worktree("repair", str(folders / sha))  # git's record still names the temporary folder
    except (git.GitCommandError, OSError) as e:
        _remove(repo, temporary)
        raise GitError(f"cannot check out {sha[:12]} as a worktree under {folders}: {e}") from e


def _remove(repo: git.Repo, folder: Path) -> None:
    """Remove a worktree and git's record of it, whatever state it is in."""
    if folder.exists():
        try:
            repo.git.worktree("remove", "--force", "--force", str(folder))
        except git.GitCommandError as e:
            log.debug("git worktree remove %s: %s", folder, e.stderr.strip())
        shutil.rmtree(folder, ignore_errors=True)
    try:
        repo.git.worktree("prune")
    except git.GitCommandError as e:
        log.debug("git worktree prune: %s", e.stderr.strip())


def _keep_newest(repo: git.Repo, folders: Path, *, keep: int) -> None:
    kept = sorted((f for f in folders.iterdir() if f.is_dir() and not f.name.startswith(_TEMPORARY)),
                  key=lambda f: f.stat().st_mtime, reverse=True)
    for old in kept[keep:]:
        log.info("removing the base worktree %s (at most %d are kept)", old.name[:12], keep)
        _remove(repo, old)

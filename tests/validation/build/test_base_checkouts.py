"""Base worktrees on real git repositories: made once per commit, reused while healthy, remade when broken, at most
three kept; and the main sources of a commit as the index lists the head's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import git
import pytest

from junitbot.errors import GitError
from junitbot.state import StateDir
from junitbot.validation import KEPT_WORKTREES, base_worktree, main_sources_at
from tests.conftest import commit_all

MAIN = "src/main/java/com/acme/Calc.java"


def _commits(make_java_repo: Callable[..., Path], count: int) -> tuple[Path, list[str]]:
    root = make_java_repo({MAIN: "package com.acme;\nclass Calc { int v = 0; }\n",
                           "src/test/java/com/acme/CalcTest.java": "package com.acme;\nclass CalcTest {}\n",
                           "README.md": "calc\n"})
    with git.Repo(root) as repo:
        commits = [repo.head.commit.hexsha]
        for n in range(1, count):
            (root / MAIN).write_text(f"package com.acme;\nclass Calc {{ int v = {n}; }}\n", encoding="utf-8")
            commits.append(commit_all(repo, f"v{n}"))
    return root, commits


def test_a_worktree_holds_the_commit_and_is_reused(make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    root, (first, _) = _commits(make_java_repo, 2)
    state = StateDir(tmp_path / "state")
    tree = base_worktree(root, first, state)
    assert tree == state.root / "worktrees" / first
    assert "v = 0" in (tree / MAIN).read_text(encoding="utf-8")
    (tree / "marker.txt").write_text("kept", encoding="utf-8")  # untracked: a reused tree still has it
    assert base_worktree(root, first[:10], state) == tree
    assert (tree / "marker.txt").is_file()
    assert "v = 1" in (root / MAIN).read_text(encoding="utf-8")  # the user's tree is untouched
    assert not [p for p in (state.root / "worktrees").iterdir() if p.name.startswith(".new-")]


def test_a_broken_worktree_is_made_again(make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    root, (first, _) = _commits(make_java_repo, 2)
    state = StateDir(tmp_path / "state")
    tree = base_worktree(root, first, state)
    (tree / MAIN).write_text("class Broken {}\n", encoding="utf-8")  # a tracked file changed
    (tree / "marker.txt").write_text("gone after", encoding="utf-8")
    again = base_worktree(root, first, state)
    assert "v = 0" in (again / MAIN).read_text(encoding="utf-8")
    assert not (again / "marker.txt").exists()
    (tree / ".git").unlink()  # git no longer knows it
    assert "v = 0" in (base_worktree(root, first, state) / MAIN).read_text(encoding="utf-8")


def test_at_most_three_worktrees_are_kept(make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    root, commits = _commits(make_java_repo, KEPT_WORKTREES + 2)
    state = StateDir(tmp_path / "state")
    for commit in commits:
        base_worktree(root, commit, state)
    kept = sorted(p.name for p in (state.root / "worktrees").iterdir())
    assert kept == sorted(commits[-KEPT_WORKTREES:])
    with git.Repo(root) as repo:
        listed = [line for line in repo.git.worktree("list", "--porcelain").splitlines()
                  if line.startswith("worktree ")]
    assert len(listed) == 1 + KEPT_WORKTREES  # git forgot the removed ones


def test_an_unknown_commit_is_a_clear_error(make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    root, _ = _commits(make_java_repo, 1)
    with pytest.raises(GitError, match="no commit"):
        base_worktree(root, "0" * 40, StateDir(tmp_path / "state"))


def test_main_sources_at_a_commit_are_the_main_java_files_with_their_blobs(
        make_java_repo: Callable[..., Path]) -> None:
    root, (first, second) = _commits(make_java_repo, 2)
    with git.Repo(root) as repo:
        blob = repo.commit(first).tree[MAIN].hexsha
    assert main_sources_at(root, first) == [(MAIN, blob)]
    assert main_sources_at(root, second)[0][1] != blob

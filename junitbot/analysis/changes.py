"""The git side of indexing (the one GitPython reader of analysis): change sets and file listings."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import git

from junitbot.analysis.models import ChangeSet
from junitbot.analysis.sources import is_candidate
from junitbot.errors import GitError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GitCheckout:
    """A repository folder inside a git work tree (possibly a subfolder of a monorepo)."""

    repo: git.Repo
    prefix: str  # the folder's path inside the work tree, '' or ending in '/'

    def head(self) -> str | None:
        """HEAD's commit id, or None in a repository without commits."""
        try:
            return self.repo.head.commit.hexsha
        except ValueError:
            return None

    def _relative(self, path: str) -> str | None:
        return path[len(self.prefix):] if path.startswith(self.prefix) else None

    def list_java_files(self, ignore: Sequence[str]) -> list[str]:
        """Tracked and untracked-but-not-ignored `.java` files, relative to the folder."""
        try:
            output = self.repo.git.ls_files("-z", "--cached", "--others", "--exclude-standard", "--", ".")
        except git.GitCommandError as e:
            raise GitError(f"git ls-files failed in {self.repo.working_tree_dir}: {e.stderr.strip()}") from e
        paths = {self._relative(p) for p in output.split("\0") if p}
        return sorted(p for p in paths if p is not None and is_candidate(p, ignore))

    def ignored(self, paths: Iterable[str]) -> set[str]:
        """Which of the (folder-relative) paths .gitignore excludes; tracked files never count as ignored."""
        paths = sorted(paths)
        if not paths:
            return set()
        try:
            found = self.repo.ignored(*(self.prefix + p for p in paths))
        except git.GitCommandError as e:
            raise GitError(f"git check-ignore failed: {e.stderr.strip()}") from e
        return {p[len(self.prefix):] for p in found if p.startswith(self.prefix)}

    def is_ancestor(self, commit: str, head: str) -> bool:
        try:
            return bool(self.repo.is_ancestor(commit, head))  # type: ignore[arg-type]  # GitPython accepts revs
        except git.GitCommandError:
            return False  # an unknown commit (gc'd, another clone) is no ancestor

    def changes_since(self, base: str, head: str | None, ignore: Sequence[str]) -> ChangeSet:
        """`.java` files that differ between `base` and the work tree: committed, staged, unstaged, untracked."""
        added: set[str] = set()
        modified: set[str] = set()
        deleted: set[str] = set()
        renamed: set[tuple[str, str]] = set()
        try:
            diffs = self.repo.commit(base).diff(None, M=True)
            untracked = self.repo.untracked_files
        except (git.GitCommandError, ValueError) as e:
            raise GitError(f"cannot diff {base[:12]} against the work tree: {e}") from e
        for diff in diffs:
            old = self._relative(diff.a_path) if diff.a_path else None
            new = self._relative(diff.b_path) if diff.b_path else None
            old = old if old is not None and is_candidate(old, ignore) else None
            new = new if new is not None and is_candidate(new, ignore) else None
            if diff.change_type == "R" and old and new:
                renamed.add((old, new))
            elif diff.change_type == "A" and new:
                added.add(new)
            elif diff.change_type == "D" and old:
                deleted.add(old)
            else:
                modified.update(p for p in (old, new) if p)
        for path in untracked:
            rel = self._relative(path)
            if rel is not None and is_candidate(rel, ignore):
                added.add(rel)
        return ChangeSet(
            base=base,
            head=head,
            full=False,
            reason=f"changes since {base[:12]}",
            added=tuple(sorted(added)),
            modified=tuple(sorted(modified - added)),
            deleted=tuple(sorted(deleted)),
            renamed=tuple(sorted(renamed)),
        )


def open_checkout(path: Path) -> GitCheckout | None:
    """The git work tree containing `path`, or None when `path` is not in one (the caller says so)."""
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    if repo.bare or repo.working_tree_dir is None:
        return None
    top = Path(repo.working_tree_dir).resolve()
    rel = path.resolve().relative_to(top).as_posix()
    return GitCheckout(repo=repo, prefix="" if rel == "." else rel + "/")

"""The git side of indexing (the one GitPython reader of analysis): change sets and file listings."""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import git

from junitbot.analysis.models import ChangeSet
from junitbot.analysis.sources import is_candidate
from junitbot.errors import GitError
from junitbot.processes import bind_to_parent

log = logging.getLogger(__name__)


class _BoundGit(git.Git):
    """GitPython's runner of git commands, each one bound to die with junitbot (issue 18): a persistent
    `git cat-file --batch-check` must not outlive a killed run."""

    def execute(self, command: str | Sequence[Any], *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401  # forwards GitPython's overloads unchanged
        if not isinstance(command, str):
            command = bind_to_parent([str(part) for part in command])
        return super().execute(command, *args, **kwargs)


class GitRepo(git.Repo):
    """A GitPython repository whose git processes die with junitbot; junitbot opens repositories only as this."""

    GitCommandWrapperType = _BoundGit


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

    def resolve(self, revision: str) -> str | None:
        """The commit id a branch, tag or revision names, or None when there is no such revision."""
        try:
            return self.repo.commit(revision).hexsha
        except (git.BadName, ValueError, git.GitCommandError):
            return None

    def read_at(self, path: str, revision: str | None) -> bytes | None:
        """The bytes of the folder-relative `path` at `revision` (None: the work tree); None where the file is
        not there or cannot be read (an unknown revision, a directory, a submodule)."""
        if revision is None:
            assert self.repo.working_tree_dir is not None  # open_checkout refuses bare repositories
            try:
                return (Path(self.repo.working_tree_dir) / self.prefix / path).read_bytes()
            except OSError:
                return None
        try:
            blob = self.repo.commit(revision).tree / (self.prefix + path)
            return blob.data_stream.read() if blob.type == "blob" else None
        except (KeyError, ValueError, git.BadName, git.GitCommandError):
            return None

    def _relative(self, path: str) -> str | None:
        return path[len(self.prefix):] if path.startswith(self.prefix) else None

    def list_java_files(self, ignore: Sequence[str]) -> list[str]:
        """Tracked and untracked-but-not-ignored `.java` files, relative to the folder."""
        return [p for p in self.list_files() if is_candidate(p, ignore)]

    def list_files(self) -> list[str]:
        """Every tracked and untracked-but-not-ignored file, relative to the folder: what a checkout of HEAD plus
        the work in progress holds (a tracked file deleted in the work tree is still listed)."""
        try:
            output = self.repo.git.ls_files("-z", "--cached", "--others", "--exclude-standard", "--", ".")
        except git.GitCommandError as e:
            raise GitError(f"git ls-files failed in {self.repo.working_tree_dir}: {e.stderr.strip()}") from e
        paths = {self._relative(p) for p in output.split("\0") if p}
        return sorted(p for p in paths if p is not None)

    def ignored(self, paths: Iterable[str]) -> set[str]:
        """Which of the (folder-relative) paths .gitignore excludes; tracked files never count as ignored."""
        paths = sorted(paths)
        if not paths:
            return set()
        # Paths go through stdin, NUL-separated: no argument-length limit and no quoting of non-ASCII names.
        with tempfile.TemporaryFile() as stdin:
            stdin.write(b"".join((self.prefix + p).encode() + b"\0" for p in paths))
            stdin.seek(0)
            try:
                output = self.repo.git.check_ignore("-z", "--stdin", istream=stdin)
            except git.GitCommandError as e:
                if e.status == 1:
                    return set()  # check-ignore's way of saying that nothing is ignored
                raise GitError(f"git check-ignore failed: {e.stderr.strip()}") from e
        return {p[len(self.prefix):] for p in output.split("\0") if p.startswith(self.prefix) and p}

    def is_ancestor(self, commit: str, head: str) -> bool:
        try:
            return bool(self.repo.is_ancestor(commit, head))  # type: ignore[arg-type]  # GitPython accepts revs
        except git.GitCommandError:
            return False  # an unknown commit (gc'd, another clone) is no ancestor

    def changes_since(self, base: str, head: str | None, ignore: Sequence[str]) -> ChangeSet:
        """`.java` files that differ between commit `base` and `head` (committed changes, renames included)."""
        added: set[str] = set()
        modified: set[str] = set()
        deleted: set[str] = set()
        renamed: set[tuple[str, str]] = set()
        try:
            diffs = self.repo.commit(base).diff(head, M=True) if head is not None and head != base else []
        except (git.GitCommandError, ValueError) as e:
            raise GitError(f"cannot diff {base[:12]} against {head}: {e}") from e
        for diff in diffs:
            old = self._candidate(diff.a_path, ignore)
            new = self._candidate(diff.b_path, ignore)
            if diff.change_type == "R" and old and new:
                renamed.add((old, new))
            elif diff.change_type == "A" and new:
                added.add(new)
            elif diff.change_type == "D" and old:
                deleted.add(old)
            else:
                modified.update(p for p in (old, new) if p)
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

    def dirty(self, ignore: Sequence[str]) -> set[str]:
        """`.java` files whose work-tree state differs from HEAD: staged, unstaged or untracked."""
        try:
            output = self.repo.git.status("--porcelain=v1", "-z", "--untracked-files=all", "--", ".")
        except git.GitCommandError as e:
            raise GitError(f"git status failed in {self.repo.working_tree_dir}: {e.stderr.strip()}") from e
        paths: set[str] = set()
        entries = iter(output.split("\0"))
        for entry in entries:
            if len(entry) < 4:
                continue
            status, path = entry[:2], entry[3:]
            if "R" in status or "C" in status:
                paths.add(next(entries, ""))  # the rename's source follows its target
            paths.add(path)
        return {p for p in (self._candidate(path, ignore) for path in paths) if p}

    def _candidate(self, path: str | None, ignore: Sequence[str]) -> str | None:
        relative = self._relative(path) if path else None
        return relative if relative is not None and is_candidate(relative, ignore) else None


def open_checkout(path: Path) -> GitCheckout | None:
    """The git work tree containing `path`, or None when `path` is not in one (the caller says so)."""
    try:
        repo = GitRepo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    if repo.bare or repo.working_tree_dir is None:
        return None
    top = Path(repo.working_tree_dir).resolve()
    rel = path.resolve().relative_to(top).as_posix()
    return GitCheckout(repo=repo, prefix="" if rel == "." else rel + "/")

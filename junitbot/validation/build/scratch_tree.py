"""A scratch copy of a repository's work tree, where the build gate runs the project's own build.

The copy holds what a clean checkout plus the work in progress would: the files git knows and the untracked
ones it does not ignore (a folder without git: everything), with their modification times, and no build
output (`target/` beside a pom.xml) and no state directory. Build output stays behind on purpose: copied
`target/` folders do not spare Maven the compile (the compiler plugin records absolute source paths, so a
copy elsewhere is "added or removed source files" and recompiled: 12.1 s vs 14.4 s, then 14.2 s vs 14.8 s on
examples/shop, i.e. noise), and stale classes of deleted sources could let a build pass that CI would fail.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

from junitbot.analysis import open_checkout
from junitbot.errors import JunitbotError

logger = logging.getLogger(__name__)

_NEVER = frozenset({".git"})


def copy_work_tree(root: Path, dest: Path, *, skip: Sequence[Path] = ()) -> int:
    """Replace `dest` with a copy of `root`'s work tree (see the module docstring); returns the files copied.

    `skip` names folders left out (the state directory, which `dest` usually lies in). Symbolic links are
    copied as links. Raises JunitbotError when the copy cannot be made (disk full, permissions).
    """
    root, dest = root.resolve(), dest.absolute()
    skipped = [s.resolve() for s in (*skip, dest)]
    try:
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        copied = 0
        for rel in _files(root, skipped):
            if not _skipped(root, rel, skipped):
                copied += _copy(root / rel, dest / rel)
    except OSError as e:
        raise JunitbotError(f"cannot copy the work tree of {root} to {dest}: {e}") from e
    logger.debug("copied %d files of %s to %s", copied, root, dest)
    return copied


def _files(root: Path, skipped: Sequence[Path]) -> Iterator[str]:
    """Relative paths: git's tracked and untracked-but-not-ignored files, or every file without git."""
    checkout = open_checkout(root)
    if checkout is not None:
        yield from checkout.list_files()
        return
    for folder, dirs, files in os.walk(root):
        base = Path(folder).relative_to(root)
        # Not entered: what is skipped anyway (the state directory may hold earlier scratch copies).
        dirs[:] = [d for d in dirs if not _skipped(root, (base / d / "x").as_posix(), skipped)]
        yield from ((base / name).as_posix() for name in files)
        # os.walk lists symbolic links to folders among the folders but does not enter them: copy them as links.
        yield from ((base / d).as_posix() for d in dirs if (Path(folder) / d).is_symlink())


def _skipped(root: Path, rel: str, skipped: Sequence[Path]) -> bool:
    """Build output (a `target/` beside a pom.xml), the .git folder, and what lies in a skipped folder."""
    parts = PurePosixPath(rel).parts
    for depth, part in enumerate(parts[:-1]):
        if part in _NEVER or (part == "target" and (root.joinpath(*parts[:depth]) / "pom.xml").is_file()):
            return True
    path = root / rel
    return any(path.is_relative_to(s) for s in skipped)


def _copy(source: Path, target: Path) -> int:
    """Copy one entry with its modification time; a tracked file deleted in the work tree is no entry."""
    if not source.is_symlink() and not source.exists():
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_symlink():
        target.symlink_to(os.readlink(source))
    elif source.is_dir():  # a submodule, which git lists as one path
        shutil.copytree(source, target, symlinks=True)
    else:
        shutil.copy2(source, target)
    return 1

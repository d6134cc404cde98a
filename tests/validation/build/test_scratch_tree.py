"""The scratch copy of a work tree: what git knows or would add, with mtimes; no build output, no state."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from junitbot.validation.build.scratch_tree import copy_work_tree


def test_the_copy_holds_tracked_and_untracked_files_with_their_times_but_no_ignored_or_build_output(
    make_java_repo: Callable[..., Path], tmp_path: Path,
) -> None:
    root = make_java_repo({
        ".gitignore": "*.log\n", "pom.xml": "<project/>", "src/main/java/a/A.java": "class A {}",
        "gone.txt": "tracked, deleted below", "lib/pom.xml": "<project/>",
        "lib/target/classes/x.txt": "tracked build output of a module", "docs/target/page.txt": "not build output",
    })
    (root / "gone.txt").unlink()
    (root / "Untracked.java").write_text("class Untracked {}")
    (root / "debug.log").write_text("ignored")
    (root / "target/classes").mkdir(parents=True)
    (root / "target/classes/A.class").write_bytes(b"stale")
    (root / ".junitbot/gate").mkdir(parents=True)
    (root / ".junitbot/gate/leftover.txt").write_text("state")
    (root / "link").symlink_to("src")
    os.utime(root / "src/main/java/a/A.java", ns=(1_000_000_000, 1_000_000_000))
    dest = root / ".junitbot/gate/work"

    copied = copy_work_tree(root, dest, skip=(root / ".junitbot",))

    files = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file() or p.is_symlink())
    assert files == sorted([".gitignore", "Untracked.java", "docs/target/page.txt", "link", "lib/pom.xml", "pom.xml",
                            "src/main/java/a/A.java"])
    assert copied == len(files)
    assert (dest / "src/main/java/a/A.java").stat().st_mtime_ns == 1_000_000_000
    assert os.readlink(dest / "link") == "src"
    (dest / "pom.xml").write_text("changed in the copy")
    copy_work_tree(root, dest, skip=(root / ".junitbot",))
    assert (dest / "pom.xml").read_text() == "<project/>", "each copy starts afresh"


def test_without_git_everything_but_build_output_and_state_is_copied(make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo({"pom.xml": "<project/>", "src/A.java": "class A {}", "target/A.class": "stale",
                           "state/x": "state", "notes/target/keep.txt": "not build output"}, use_git=False)
    dest = root / "state/work"
    copy_work_tree(root, dest, skip=(root / "state",))
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()) == [
        "notes/target/keep.txt", "pom.xml", "src/A.java"]

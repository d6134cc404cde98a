"""Which files are Java sources worth analysing, how to read them safely, and where source roots are."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

# Folders that hold build output or tooling, never sources. They count only above a `src` folder,
# so a package named `build` (src/main/java/com/acme/build) is still analysed.
BUILD_OUTPUT_DIRS = frozenset({"target", "build", "out", "bin", ".gradle", ".mvn", ".idea", "node_modules",
                               ".git", ".junitbot", "generated", "generated-sources", "generated-test-sources"})
_TEST_SOURCE_SETS = ("src/test/", "src/it/", "src/integrationTest/", "src/testFixtures/")
_BINARY_SNIFF = 8192


@lru_cache(maxsize=256)
def _glob_regex(glob: str) -> re.Pattern[str]:
    """`**` spans folders, `*` and `?` stay inside one; a trailing `/` or `/**` means everything below."""
    glob = glob.strip().lstrip("./") if glob.startswith("./") else glob.strip()
    if glob.endswith("/"):
        glob += "**"
    out = []
    i = 0
    while i < len(glob):
        char = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append("[^/]*" if char == "*" else "[^/]" if char == "?" else re.escape(char))
        i += 1
    return re.compile("".join(out) + r"\Z")


def matches_any(path: str, globs: Iterable[str]) -> bool:
    """Whether a repo-relative POSIX path matches one of the globs (or lies below a matching folder)."""
    for glob in globs:
        pattern = _glob_regex(glob)
        if pattern.match(path):
            return True
        parts = path.split("/")
        if any(pattern.match("/".join(parts[:n])) for n in range(1, len(parts))):
            return True
    return False


def is_build_output(path: str) -> bool:
    for part in path.split("/")[:-1]:
        if part == "src":
            return False
        if part in BUILD_OUTPUT_DIRS:
            return True
    return False


def is_test_path(path: str) -> bool:
    """Test sources: Maven/Gradle test source sets, or a `test`/`tests` folder in a plain layout."""
    posix = "/" + path
    if any(f"/{marker}" in posix for marker in _TEST_SOURCE_SETS):
        return True
    return "/src/main/" not in posix and any(part in ("test", "tests") for part in path.split("/")[:-1])


def is_candidate(path: str, ignore: Sequence[str]) -> bool:
    """A `.java` path that is neither build output nor ignored by config."""
    return path.endswith(".java") and not is_build_output(path) and not matches_any(path, ignore)


def walk_java_files(root: Path, ignore: Sequence[str]) -> list[str]:
    """Every candidate `.java` path under `root`, without entering build output or symlinked folders."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = sorted(
            d for d in dirnames
            if not os.path.islink(os.path.join(dirpath, d)) and not is_build_output(f"{rel_dir}{d}/x")
        )
        found.extend(f"{rel_dir}{name}" for name in filenames if is_candidate(f"{rel_dir}{name}", ignore))
    return sorted(found)


@dataclass(frozen=True)
class SourceText:
    """A file read for parsing: UTF-8 bytes, its git blob hash, and a warning if it needed care."""

    data: bytes
    blob_sha: str
    warning: str | None = None


class SkippedFile(Exception):
    """A file that is not parsed; the message says why."""


def blob_sha(data: bytes) -> str:
    """The git blob id of some bytes, so unchanged content is recognised without git."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def read_source(root: Path, path: str, *, max_bytes: int) -> SourceText:
    """Read one source file, refusing links out of the repo, binary and huge files; raises SkippedFile."""
    full = root / path
    if full.is_symlink():
        target = full.resolve()
        if not target.is_relative_to(root.resolve()):
            raise SkippedFile(f"symlink to {target} leaves the repository; not followed")
        raise SkippedFile(f"symlink to {target.relative_to(root.resolve())}; the target is analysed instead")
    size = full.stat().st_size
    if size > max_bytes:
        raise SkippedFile(f"{size:,} bytes exceeds max_file_bytes ({max_bytes:,})")
    data = full.read_bytes()
    sha = blob_sha(data)
    if b"\0" in data[:_BINARY_SNIFF]:
        raise SkippedFile("binary content (NUL bytes); not Java source")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        # Old code bases keep ISO-8859-1 sources; identifiers are ASCII, so latin-1 loses nothing we use.
        text = data.decode("latin-1").encode("utf-8")
        return SourceText(text, sha, f"not valid UTF-8 (byte {e.start}); read as ISO-8859-1")
    return SourceText(data, sha)


def source_root_of(path: str, package: str) -> str:
    """The folder a file's package path starts in (`src/main/java` for `src/main/java/a/b/C.java`)."""
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    suffix = package.replace(".", "/")
    if suffix and (folder == suffix or folder.endswith("/" + suffix)):
        return folder[: len(folder) - len(suffix)].rstrip("/")
    return folder


_BUILD_FILES = (("pom.xml", "maven"), ("build.gradle", "gradle"), ("build.gradle.kts", "gradle"))


def module_of(root: Path, folder: str) -> tuple[str, Literal["maven", "gradle", "plain"]]:
    """The nearest folder at or above `folder` with a Maven or Gradle build file, and which tool."""
    parts = [p for p in folder.split("/") if p]
    for end in range(len(parts), -1, -1):
        directory = root.joinpath(*parts[:end])
        for name, tool in _BUILD_FILES:
            if (directory / name).is_file():
                return "/".join(parts[:end]), tool  # type: ignore[return-value]  # tool is one of the Literal's
    return "", "plain"

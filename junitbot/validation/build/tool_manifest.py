"""The tools cache's bookkeeping: a manifest of each file's SHA-256, written atomically and checked on use.

`tools.py` decides what goes in; this module records it, checks it, unpacks archives safely and keeps
processes that share a cache from fetching into it at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import shutil
import tarfile
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from junitbot.atomic import exclusive, write_atomically
from junitbot.errors import ToolUnavailableError
from junitbot.records import Record

logger = logging.getLogger(__name__)

MANIFEST = "manifest.json"
STAGING_PREFIX = ".fetch-"
_LOCK = ".lock"
_DRAFT_PREFIX = f".{MANIFEST}."  # write_atomically's temporary files


class CacheEntry(Record):
    """One tool's record: its version, coordinates, and the SHA-256 of every file in its folder."""

    version: str
    artifacts: tuple[str, ...]
    files: dict[str, str]  # path relative to the tool's folder -> SHA-256
    source: Literal["maven", "adopted"]
    recorded_at: str


class Manifest(Record):
    """`manifest.json`: the record of every tool in the cache, by tool name."""

    format: Literal[1] = 1
    tools: dict[str, CacheEntry] = Field(default_factory=dict)


def unpack_tar(archive: Path, into: Path) -> Path:
    """Unpack a tar.gz with one top folder of plain files and folders; returns that folder."""
    with tarfile.open(archive, "r:gz") as tar:
        members = tar.getmembers()
        tops = {Path(m.name).parts[0] for m in members if Path(m.name).parts}
        unsafe = [m.name for m in members if not (m.isfile() or m.isdir()) or m.name.startswith("/")
                  or ".." in Path(m.name).parts]
        if unsafe or len(tops) != 1:
            raise ToolUnavailableError(f"{archive.name} is not a plain archive with one top folder: {unsafe[:3]}")
        tar.extractall(into, members=members, filter="data")
    return into / tops.pop()


def hashes(folder: Path) -> dict[str, str]:
    """SHA-256 of every file under `folder`, by path relative to it."""
    return {path.relative_to(folder).as_posix(): file_sha256(path) for path in sorted(folder.rglob("*"))
            if path.is_file() and not path.is_symlink()}


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, read a megabyte at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def matches(home: Path, files: Mapping[str, str]) -> bool:
    """Whether `home` holds exactly the recorded files with the recorded contents."""
    if not home.is_dir() or any(path.is_symlink() for path in home.rglob("*")):
        return False
    present = {path.relative_to(home).as_posix() for path in home.rglob("*") if path.is_file()}
    return present == set(files) and all(file_sha256(home / rel) == digest for rel, digest in files.items())


def intact_jar(path: Path) -> bool:
    """Whether `path` is a jar whose every entry passes its CRC check."""
    try:
        with zipfile.ZipFile(path) as jar:
            return jar.testzip() is None
    except (OSError, zipfile.BadZipFile):
        return False


def read_manifest(tools_dir: Path) -> tuple[Manifest, bool]:
    """The manifest, and whether it could be read (an unreadable one trusts no file found without a record)."""
    path = tools_dir / MANIFEST
    if not path.exists():
        return Manifest(), True
    try:
        return Manifest.model_validate_json(path.read_bytes()), True
    except (OSError, ValidationError) as e:
        logger.warning("ignoring unreadable %s (every tool is fetched again): %s", path, e)
        return Manifest(), False


def with_entry(manifest: Manifest, name: str, entry: CacheEntry) -> Manifest:
    """The manifest with `entry` recorded for `name`."""
    return Manifest(tools={**manifest.tools, name: entry})


def write_manifest(tools_dir: Path, manifest: Manifest) -> None:
    """Write the manifest atomically: a temporary file beside it, renamed over it."""
    # 0644: a temporary file's 0600 would hide it from other users of a shared cache.
    write_atomically(tools_dir / MANIFEST, manifest.model_dump_json(indent=2) + "\n", mode=0o644, durable=True)


def remove_stale(tools_dir: Path) -> None:
    """Staging folders and manifest drafts left by a killed fetch (removed under the lock: none is in use)."""
    for stale in tools_dir.glob(f"{STAGING_PREFIX}*"):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in tools_dir.glob(f"{_DRAFT_PREFIX}*"):
        stale.unlink(missing_ok=True)


def locked(tools_dir: Path) -> contextlib.AbstractContextManager[None]:
    """One process at a time checks or fetches tools in `tools_dir` (runners may share a cache)."""
    return exclusive(tools_dir / _LOCK)

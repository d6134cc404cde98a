"""Files written whole or not at all: a temporary file beside the target, then a rename; and one writer at a
time where building the file costs more than waiting for another's.

A reader (another partition, a resumed run, a second bot process) sees the old file or the new one, never half
of one; a run killed mid-write leaves only a temporary file that starts with a dot.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def exclusive(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive lock on `lock_file` (created if missing) for the block: one process at a time. The lock
    goes with its process, so a killed holder blocks nobody."""
    with lock_file.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def write_atomically(path: Path, text: str, *, mode: int | None = None, durable: bool = False) -> None:
    """Write `text` (UTF-8) to `path` atomically, creating its folder; `mode` sets the file's permissions (a
    temporary file is 0600), `durable` syncs it to disk before the rename (a cache other machines read)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            out.write(text)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise

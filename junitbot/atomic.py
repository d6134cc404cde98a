"""Files written whole or not at all: a temporary file beside the target, then a rename.

A reader (another partition, a resumed run, a second bot process) sees the old file or the new one, never half
of one; a run killed mid-write leaves only a temporary file that starts with a dot.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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

"""VectorCache: embeddings by model and content hash, kept apart from the index store (SQLite).

The index store keeps the vectors of the chunks it holds and drops the others. A store set aside as corrupt, wiped
for another model or re-chunked for new settings would otherwise encode again every text it had encoded before,
and each state directory of a runner (a fresh clone, a worktree, a test) encodes the same texts of the same
repository again: about 6 s of CPU per hundred files. This cache answers before the model is asked. It is a cache
only: when it cannot be read or written, the index is still built, from the model, with a warning.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from junitbot.analysis.sqlite import open_store, write_transaction
from junitbot.errors import StoreCorrupt

if TYPE_CHECKING:
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

_SCHEMA = ("CREATE TABLE IF NOT EXISTS vectors(model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, "
           "PRIMARY KEY(model, hash)) WITHOUT ROWID")
_BUSY_MS = 30_000  # several processes (Dagster's workers, a test session's) share one cache
_PART = 500  # SQLite's bound parameters per statement, with room to spare


def cached_vectors(path: Path, model: str, hashes: Iterable[str], dimension: int) -> dict[str, NDArray[np.float32]]:
    """The vectors `model` gave the texts of `hashes` before, where the cache holds them; {} when it cannot."""
    wanted = sorted(set(hashes))
    if not wanted or not path.is_file():
        return {}
    found: dict[str, NDArray[np.float32]] = {}
    try:
        with _opened(path) as db:
            for start in range(0, len(wanted), _PART):
                part = wanted[start:start + _PART]
                rows = db.execute(f"SELECT hash, vector FROM vectors WHERE model = ? AND hash IN "
                                  f"({','.join('?' * len(part))})", (model, *part))
                for digest, blob in rows:
                    vector = np.frombuffer(blob, dtype=np.float32)
                    if vector.shape == (dimension,):
                        found[digest] = vector
    except (sqlite3.Error, StoreCorrupt, OSError) as e:
        log.warning("the vector cache %s could not be read (%s); encoding instead", path, e)
        return {}
    return found


def cached_dimension(path: Path, model: str) -> int | None:
    """The dimension of the vectors the cache holds for `model` (what a new store needs before anything is
    encoded, so that a store rebuilt from the cache never loads the model); None when it holds none."""
    if not path.is_file():
        return None
    try:
        with _opened(path) as db:
            row = db.execute("SELECT length(vector) FROM vectors WHERE model = ? LIMIT 1", (model,)).fetchone()
    except (sqlite3.Error, StoreCorrupt, OSError) as e:
        log.warning("the vector cache %s could not be read (%s); encoding instead", path, e)
        return None
    return int(row[0]) // 4 if row and row[0] else None


def cache_vectors(path: Path, model: str, vectors: Mapping[str, NDArray[np.float32]]) -> None:
    """Keep what `model` gave each text (by content hash), in one transaction; a failure costs only the cache."""
    if not vectors:
        return
    try:
        with _opened(path) as db, write_transaction(db):
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                           ((model, digest, np.asarray(v, dtype=np.float32).tobytes())
                            for digest, v in vectors.items()))
    except (sqlite3.Error, StoreCorrupt, OSError) as e:
        log.warning("the vector cache %s could not be written (%s); the index is built without it", path, e)


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the cache for one block, created with its table when missing."""
    db = open_store(path, what="vector cache")
    try:
        db.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(_SCHEMA)
        yield db
    finally:
        db.close()

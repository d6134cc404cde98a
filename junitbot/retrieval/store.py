"""ChunkStore: the chunk table, the content-addressed vector cache and the manifest facts, in SQLite.

SQLite is the source of truth of the embedding index: every update is one transaction, and the FAISS file
is derived from it (and rebuilt from the stored vectors, without embedding, when it is torn or corrupt).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from junitbot.analysis.sqlite import open_store, write_transaction
from junitbot.errors import StoreCorrupt
from junitbot.retrieval.models import Chunk, ChunkKind

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from junitbot.state import StateDir

SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, blob_sha TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, kind TEXT NOT NULL, fqn TEXT NOT NULL, name TEXT NOT NULL,
    package TEXT NOT NULL, layer TEXT, line INTEGER NOT NULL, text TEXT NOT NULL, hash TEXT NOT NULL,
    tested_fqn TEXT);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE INDEX IF NOT EXISTS chunks_hash ON chunks(hash);
CREATE INDEX IF NOT EXISTS chunks_fqn ON chunks(fqn);
CREATE TABLE IF NOT EXISTS vectors(hash TEXT PRIMARY KEY, vector BLOB NOT NULL) WITHOUT ROWID;
"""

_COLUMNS = "id, kind, path, fqn, name, package, layer, line, text, hash, tested_fqn"


class ChunkStore:
    """Read and write access to retrieval.sqlite; use as a context manager."""

    def __init__(self, path: Path, *, derived: Sequence[Path] = ()) -> None:
        """Open (or create) the store; `derived`: the files built from it, deleted if it must be set aside."""
        self.path = path
        self._db = open_store(path, what="embedding index", derived=derived)
        try:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(_SCHEMA)
            if self.meta("schema") != SCHEMA_VERSION:
                with self.transaction():
                    self._wipe()
                    self.set_meta(schema=SCHEMA_VERSION)
        except StoreCorrupt:
            self._db.close()  # which sets the file aside
            raise

    @classmethod
    def of(cls, state: StateDir) -> ChunkStore:
        """The state directory's store; the FAISS file, its manifest and the BM25 index are derived from it."""
        return cls(state.retrieval_db, derived=(state.faiss_index, state.faiss_manifest, state.lexical_index))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ChunkStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        return write_transaction(self._db)

    # -- meta --------------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, **values: str | int | None) -> None:
        for key, value in values.items():
            if value is None:
                self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(value)))

    @property
    def generation(self) -> int:
        return int(self.meta("generation") or 0)

    def reset(self) -> None:
        """Forget every chunk and vector (another model, another dimension)."""
        self._wipe()
        self.set_meta(schema=SCHEMA_VERSION)

    def _wipe(self) -> None:
        for table in ("meta", "files", "chunks", "vectors"):
            self._db.execute(f"DELETE FROM {table}")

    # -- files and chunks ----------------------------------------------------------------------------

    def file_shas(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT path, blob_sha FROM files").fetchall())

    def remove_files(self, paths: Sequence[str]) -> list[tuple[int, str]]:
        """Drop these files and their chunks; returns the removed (chunk id, content hash) pairs."""
        removed: list[tuple[int, str]] = []
        for part in _parts(paths):
            marks = ",".join("?" * len(part))
            removed += self._db.execute(f"SELECT id, hash FROM chunks WHERE path IN ({marks})", part).fetchall()
            self._db.execute(f"DELETE FROM chunks WHERE path IN ({marks})", part)
            self._db.execute(f"DELETE FROM files WHERE path IN ({marks})", part)
        return removed

    def put_file(self, path: str, blob_sha: str, chunks: Sequence[Chunk]) -> None:
        self._db.execute("INSERT OR REPLACE INTO files VALUES (?, ?)", (path, blob_sha))
        self._db.executemany(
            f"INSERT INTO chunks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ((c.id, c.kind.value, c.path, c.fqn, c.name, c.package, c.layer, c.line, c.text, c.content_hash,
              c.tested_fqn) for c in chunks))

    def chunks(self, ids: Iterable[int] | None = None, *, kinds: Iterable[ChunkKind] | None = None) -> list[Chunk]:
        """Chunks by id (in the order given), or every chunk of these kinds (ordered by id)."""
        if ids is None:
            wanted = [k.value for k in kinds] if kinds is not None else [k.value for k in ChunkKind]
            marks = ",".join("?" * len(wanted))
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM chunks WHERE kind IN ({marks}) ORDER BY id", wanted)
            return [_chunk(row) for row in rows]
        order = list(ids)
        found: dict[int, Chunk] = {}
        for part in _parts(order):
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM chunks WHERE id IN ({','.join('?' * len(part))})", part)
            found.update((row[0], _chunk(row)) for row in rows)
        return [found[i] for i in order if i in found]

    def chunks_of_type(self, fqn: str) -> list[Chunk]:
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM chunks WHERE fqn = ? ORDER BY kind, line", (fqn,))
        return [_chunk(row) for row in rows]

    def chunks_named(self, name: str) -> list[Chunk]:
        """Class and test chunks whose simple name or FQN is `name` (exact lookup)."""
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM chunks WHERE kind != 'method' AND (name = ? OR fqn = ?) ORDER BY fqn",
            (name, name))
        return [_chunk(row) for row in rows]

    def ids_where(self, *, kinds: Iterable[ChunkKind] | None = None, layer: str | None = None,
                  package: str | None = None) -> NDArray[np.int64]:
        """Chunk ids passing the filters (a package filter matches the package and its subpackages)."""
        clauses, values = [], []
        if kinds is not None:
            wanted = [k.value for k in kinds]
            clauses.append(f"kind IN ({','.join('?' * len(wanted))})")
            values += wanted
        if layer is not None:
            clauses.append("layer = ?")
            values.append(layer)
        if package is not None:
            clauses.append("(package = ? OR package LIKE ? ESCAPE '\\')")
            values += [package, package.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + ".%"]
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        rows = self._db.execute(f"SELECT id FROM chunks {where}", values).fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def counts(self) -> tuple[int, int, int]:
        """(files, chunks, cached vectors)."""
        return (int(self._db.execute("SELECT count(*) FROM files").fetchone()[0]),
                int(self._db.execute("SELECT count(*) FROM chunks").fetchone()[0]),
                int(self._db.execute("SELECT count(*) FROM vectors").fetchone()[0]))

    # -- vectors -------------------------------------------------------------------------------------

    def vectors_for(self, hashes: Iterable[str], dimension: int) -> dict[str, NDArray[np.float32]]:
        found: dict[str, NDArray[np.float32]] = {}
        for part in _parts(sorted(set(hashes))):
            rows = self._db.execute(
                f"SELECT hash, vector FROM vectors WHERE hash IN ({','.join('?' * len(part))})", part)
            for digest, blob in rows:
                vector = np.frombuffer(blob, dtype=np.float32)
                if vector.shape == (dimension,):
                    found[digest] = vector
        return found

    def put_vectors(self, vectors: Mapping[str, NDArray[np.float32]]) -> None:
        self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                             ((digest, np.asarray(v, dtype=np.float32).tobytes()) for digest, v in vectors.items()))

    def drop_unused_vectors(self) -> int:
        """Forget vectors no chunk uses any more; a chunk moved within one update was re-used before this."""
        cursor = self._db.execute("DELETE FROM vectors WHERE hash NOT IN (SELECT hash FROM chunks)")
        return int(cursor.rowcount)

    def all_vectors(self, dimension: int) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        """(ids, vectors) of every chunk, ordered by id: what a rebuilt FAISS index holds."""
        rows = self._db.execute(
            "SELECT chunks.id, vectors.vector FROM chunks JOIN vectors ON vectors.hash = chunks.hash ORDER BY chunks.id"
        ).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dimension)
        return ids, matrix

    def chunk_ids(self) -> NDArray[np.int64]:
        rows = self._db.execute("SELECT id FROM chunks ORDER BY id").fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))


_FIELDS = ("id", "kind", "path", "fqn", "name", "package", "layer", "line", "text", "content_hash", "tested_fqn")


def _chunk(row: tuple[object, ...]) -> Chunk:
    return Chunk.model_validate(dict(zip(_FIELDS, row, strict=True)))


def _parts(items: Sequence[str] | Sequence[int], size: int = 500) -> Iterator[list[object]]:
    values = list(items)
    for start in range(0, len(values), size):
        yield values[start:start + size]

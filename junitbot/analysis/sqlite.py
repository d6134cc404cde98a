"""The SQLite state stores (code graph, chunk store): opening them so a corrupt file heals, and one write transaction.

A store that SQLite finds corrupt is never a dead end (issue 18): when it is opened, a file that is not a
database or fails `PRAGMA quick_check` is moved aside as `<name>.corrupt` with one warning and an empty
store takes its place; corruption met later, on a page the check could not judge (an index that disagrees
with its table), raises `StoreCorrupt` and the file is moved aside when its connection closes. Either way
the owner rebuilds the store from the sources, as it does for a missing one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

from junitbot.errors import StoreCorrupt

log = logging.getLogger(__name__)

_T = TypeVar("_T")
# SQLite's own files beside a database: what must move with it (a journal or WAL belongs to that file only).
_COMPANIONS = ("-wal", "-shm", "-journal")


@contextlib.contextmanager
def write_transaction(db: sqlite3.Connection, on_rollback: Callable[[], None] | None = None) -> Iterator[None]:
    """BEGIN IMMEDIATE (the write lock up front, so no other writer slips in), COMMIT, or ROLLBACK on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.rollback()
        if on_rollback is not None:
            on_rollback()
        raise
    db.commit()


def open_store(path: Path, *, what: str, derived: Sequence[Path] = ()) -> sqlite3.Connection:
    """Connect to the store at `path` in autocommit mode (transactions explicit), creating it when missing.

    A corrupt file is moved aside as `<name>.corrupt` with its journal, `derived` files (caches built from the
    store) are deleted, one warning names `what` is rebuilt, and an empty store is returned; a corruption met
    later raises `StoreCorrupt` (see the module docstring).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    set_aside_if_corrupt(path, what=what, derived=derived)
    return _connect(path, what, derived)


def set_aside_if_corrupt(path: Path, *, what: str, derived: Sequence[Path] = ()) -> bool:
    """Check an existing store as `open_store` does, for a store others open (Dagster's): a file that is not a
    database or fails `PRAGMA quick_check` is moved aside (see `open_store`). True when it was."""
    if not path.is_file():
        return False
    connection = _connect(path, what, derived)
    problem = _check(connection)
    connection.corruption = problem
    connection.close()  # which moves a corrupt file aside
    return problem is not None


def _is_corruption(error: sqlite3.Error) -> bool:
    """Whether SQLite says the file itself is damaged (not a database, malformed), not merely busy or misused."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _set_aside(path: Path, problem: str, *, what: str, derived: Iterable[Path] = ()) -> None:
    """Move a corrupt store and its journal to `<name>.corrupt` (replacing an older one), drop what was derived
    from it, and say so once."""
    aside = path.with_name(f"{path.name}.corrupt")
    for suffix in ("", *_COMPANIONS):
        source, target = Path(f"{path}{suffix}"), Path(f"{aside}{suffix}")
        if source.exists():
            os.replace(source, target)
        else:
            target.unlink(missing_ok=True)  # an older .corrupt's journal must not pair with this one
    for cache in derived:
        if cache.is_dir() and not cache.is_symlink():
            shutil.rmtree(cache, ignore_errors=True)
        else:
            cache.unlink(missing_ok=True)
    log.warning("%s is corrupt (%s): moved aside to %s; the %s is rebuilt from scratch", path, problem,
                aside.name, what)


def _connect(path: Path, what: str, derived: Sequence[Path]) -> _StoreConnection:
    # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE ... COMMIT), never implicit.
    connection = sqlite3.connect(path, isolation_level=None, factory=_StoreConnection)
    connection.bind(path, what, tuple(derived))
    return connection


def _check(connection: _StoreConnection) -> str | None:
    """What is wrong with the file, or None. quick_check reads every page (milliseconds per MB) but skips the
    index-against-table comparison of integrity_check, which costs as much as a rebuild."""
    try:
        rows = connection.execute("PRAGMA quick_check(1)").fetchall()
    except StoreCorrupt as e:
        return str(e.__cause__)
    result = str(rows[0][0]) if rows else "no answer to quick_check"
    return None if result == "ok" else result.splitlines()[-1]


class _StoreConnection(sqlite3.Connection):
    """A connection whose every statement turns SQLite's corruption errors into `StoreCorrupt`, remembering to
    move the file aside when it closes (moving it earlier would strand an open transaction's journal)."""

    path: Path
    what: str
    derived: tuple[Path, ...]
    corruption: str | None

    def bind(self, path: Path, what: str, derived: tuple[Path, ...]) -> None:
        self.path, self.what, self.derived, self.corruption = path, what, derived, None

    def guard(self, call: Callable[..., _T], *args: object) -> _T:
        try:
            return call(*args)
        except sqlite3.DatabaseError as e:
            if not _is_corruption(e):
                raise
            self.corruption = self.corruption or str(e)
            raise StoreCorrupt(f"{self.path} is corrupt ({e}): moved aside to {self.path.name}.corrupt; the "
                               f"{self.what} is rebuilt from scratch", path=self.path) from e

    def cursor(self, factory: Callable[..., sqlite3.Cursor] | None = None) -> sqlite3.Cursor:  # type: ignore[override]  # one signature for typeshed's two overloads
        return super().cursor(factory or _StoreCursor)

    # sqlite3.Connection.execute & co. make their cursor in C, bypassing cursor(): route them through ours.
    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:  # noqa: ANN401  # sqlite3's parameters
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        return self.cursor().executemany(sql, parameters)

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        return self.cursor().executescript(script)

    def commit(self) -> None:
        self.guard(super().commit)

    def rollback(self) -> None:
        self.guard(super().rollback)

    def close(self) -> None:
        super().close()
        if self.corruption is not None:
            problem, self.corruption = self.corruption, None
            _set_aside(self.path, problem, what=self.what, derived=self.derived)


class _StoreCursor(sqlite3.Cursor):
    """Statements and row fetches of a `_StoreConnection`, guarded: pages are read while rows are stepped."""

    def _guard(self, call: Callable[..., _T], *args: object) -> _T:
        connection = self.connection
        assert isinstance(connection, _StoreConnection)
        return connection.guard(call, *args)

    def execute(self, sql: str, parameters: Any = (), /) -> Self:  # noqa: ANN401  # sqlite3's parameters
        return self._guard(super().execute, sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> Self:
        return self._guard(super().executemany, sql, parameters)

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        return self._guard(super().executescript, script)

    def fetchone(self) -> Any:  # noqa: ANN401  # a row, as sqlite3 types it
        return self._guard(super().fetchone)

    def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._guard(super().fetchmany, self.arraysize if size is None else size)

    def fetchall(self) -> list[Any]:
        return self._guard(super().fetchall)

    def __next__(self) -> Any:  # noqa: ANN401  # a row, as sqlite3 types it
        return self._guard(super().__next__)

"""One SQLite write transaction, shared by the code graph and the chunk store (connections in autocommit mode)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator


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

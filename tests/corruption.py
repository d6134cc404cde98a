"""Damage for the state stores' tests (issue 18): corrupt files as disks, crashes and stray writes leave them."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

import pytest

CORRUPTIONS = ("random bytes", "truncated", "garbage pages")


def corrupt(path: Path, how: str) -> None:
    """Damage a database file: random bytes, cut in half, or garbage after a valid header."""
    if how == "random bytes":
        path.write_bytes(os.urandom(4096))
    elif how == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    else:  # a valid header, then garbage where the second page and more begin
        with path.open("r+b") as file:
            file.seek(4096)
            file.write(os.urandom(8192))


def break_an_index(path: Path, index: str, declared_as: str) -> None:
    """Make an index disagree with its table, damage `PRAGMA quick_check` cannot see: SQLite notices only when
    it next deletes an indexed row ("database disk image is malformed")."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", (f"CREATE INDEX {index} ON {declared_as}", index))
    db.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    db.close()


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]

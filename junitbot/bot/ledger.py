"""The bot's small JSON ledgers in the state directory (declined pull requests, remembered instructions): read as
one pydantic record, written whole through a temporary file renamed over the old one, so a killed run leaves the
old ledger or the new one, never half of one."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from junitbot.atomic import write_atomically

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)


def load_ledger(path: Path, model: type[M]) -> M:
    """The ledger at `path`; a missing one is empty, an unreadable one is reported and treated as empty."""
    if not path.is_file():
        return model()
    try:
        return model.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError) as e:
        log.warning("ignoring unreadable %s: %s", path, e)
        return model()


def save_ledger(path: Path, ledger: BaseModel) -> None:
    """Write `ledger` to `path` atomically (a temporary file beside it, then a rename)."""
    write_atomically(path, ledger.model_dump_json(indent=2))

"""Classes whose bot PR was closed unmerged ("not wanted"): recorded in the state dir with their sources' hashes.

A declined class is not proposed again until its source changes (its hash differs) or someone asks by name.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path

from junitbot.analysis import CodeGraph, GraphUnavailable
from junitbot.bot.ledger import load_ledger, save_ledger
from junitbot.records import Record
from junitbot.state import StateDir

log = logging.getLogger(__name__)

_FILE = "declined.json"


class DeclinedPull(Record):
    """One closed-unmerged bot PR: the classes it proposed and the hash of each class's source then."""

    pull_number: int
    base: str
    classes: dict[str, str]


class DeclinedLedger(Record):
    pulls: tuple[DeclinedPull, ...] = ()


def _path(state: StateDir) -> Path:
    return state.root / "bot" / _FILE


def load_declined(state: StateDir) -> DeclinedLedger:
    """The ledger; an unreadable one is reported and treated as empty (it only ever holds back proposals)."""
    return load_ledger(_path(state), DeclinedLedger)


def record_declined(state: StateDir, pull: DeclinedPull) -> bool:
    """Add a declined PR (once per PR number); True when it was new."""
    ledger = load_declined(state)
    if any(p.pull_number == pull.pull_number for p in ledger.pulls):
        return False
    save_ledger(_path(state.ensure()), DeclinedLedger(pulls=(*ledger.pulls, pull)))
    return True


def declined_classes(ledger: DeclinedLedger, base: str, current: Mapping[str, str]) -> dict[str, int]:
    """Classes declined on `base` whose source hash is still the one declined: class → PR number."""
    found: dict[str, int] = {}
    for pull in ledger.pulls:
        if pull.base != base:
            continue
        for fqn, digest in pull.classes.items():
            if current.get(fqn) == digest:
                found[fqn] = pull.pull_number
    return found


def source_hashes(state: StateDir, fqns: Iterable[str]) -> dict[str, str]:
    """Blob id of each class's source file as the graph last saw it (classes it does not know are left out)."""
    wanted = set(fqns)
    if not wanted:
        return {}
    try:
        with CodeGraph.open(state.graph_db) as graph:
            blobs = dict(graph.source_files(test=False))
            return {row.fqn: blobs[row.path] for row in graph.types() if row.fqn in wanted and row.path in blobs}
    except GraphUnavailable as e:
        log.info("no source hashes: %s", e)
        return {}

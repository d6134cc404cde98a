"""Coverage history: the last measured coverage of every class, carried from run to run in the state."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from junitbot.atomic import write_atomically
from junitbot.records import Record
from junitbot.state import StateDir

if TYPE_CHECKING:
    from junitbot.runs.models import RunReport

_CURRENT = "coverage.json"
_PREVIOUS = "coverage.previous.json"


class CoverageEntry(Record):
    line: float | None
    branch: float | None
    commit: str | None


class CoverageDrop(Record):
    target: str
    before: CoverageEntry
    after: CoverageEntry | None


def record_coverage(state: StateDir, report: RunReport) -> dict[str, CoverageEntry]:
    """Merge the run's measured classes into the history (previous kept beside it); returns the new history."""
    current = load_coverage(state)
    _write(state, _PREVIOUS, current)
    merged = dict(current)
    for result in report.results:
        if result.status == "kept":
            merged[result.target] = CoverageEntry(line=result.line_coverage, branch=result.branch_coverage,
                                                  commit=report.commit)
    _write(state, _CURRENT, merged)
    return merged


def load_coverage(state: StateDir, *, previous: bool = False) -> dict[str, CoverageEntry]:
    path = state.root / (_PREVIOUS if previous else _CURRENT)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {k: CoverageEntry.model_validate(v) for k, v in data.items()}
    except (OSError, ValueError):
        return {}


def coverage_drops(before: dict[str, CoverageEntry], after: dict[str, CoverageEntry],
                   changed: Iterable[str]) -> list[CoverageDrop]:
    """Classes not changed by the run whose line or branch coverage went down, or whose record vanished."""
    skip = set(changed)
    drops = []
    for target, old in sorted(before.items()):
        if target in skip:
            continue
        new = after.get(target)
        if new is None or _lower(new.line, old.line) or _lower(new.branch, old.branch):
            drops.append(CoverageDrop(target=target, before=old, after=new))
    return drops


def _lower(new: float | None, old: float | None) -> bool:
    return old is not None and (new is None or new < old - 1e-9)


def _write(state: StateDir, name: str, entries: dict[str, CoverageEntry]) -> None:
    write_atomically(state.ensure().root / name,
                     json.dumps({k: v.model_dump() for k, v in sorted(entries.items())}, indent=1))

"""Re-check test files already written to the repository: do the kept tests, as written, still compile and pass?"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from junitbot.analysis import CodeGraph
from junitbot.config import ValidationSettings
from junitbot.records import Record
from junitbot.state import StateDir
from junitbot.validation.judge.models import Checkout, RerunClass
from junitbot.validation.judge.rerun import rerun_tests
from junitbot.validation.models import TestCandidate


class RecheckResult(Record):
    path: str
    target: str
    ok: bool
    why: str = ""


def recheck_files(
    root: Path, settings: ValidationSettings, state: StateDir, files: Mapping[str, str]
) -> list[RecheckResult]:
    """Run `files` (repo-relative test path → class under test) as they are on disk, once each, as written
    (`rerun_tests`: no repairs). A file passes only when it compiles and every method passes, none flaky."""
    results: list[RecheckResult] = []
    candidates = []
    for path, target in sorted(files.items()):
        file = root / path
        if not file.is_file():
            results.append(RecheckResult(path=path, target=target, ok=False, why="the file is gone"))
            continue
        candidates.append(TestCandidate(path=path, source=file.read_text(encoding="utf-8", errors="replace"),
                                        target=target))
    if not candidates:
        return results
    with CodeGraph.open(state.graph_db) as graph:
        main_sources = graph.source_files(test=False)
    report = rerun_tests(candidates, tree=Checkout(root=root, main_sources=tuple(main_sources)),
                         settings=settings, state=state, coverage=False)
    results += [RecheckResult(path=c.path, target=c.target or "", ok=c.ok, why=_why(c)) for c in report.classes]
    return sorted(results, key=lambda r: r.path)


def _why(rerun: RerunClass) -> str:
    """What kept the file from passing, one phrase per failing method."""
    if not rerun.compiled:
        return f"does not compile: {rerun.note}" if rerun.note else "does not compile"
    said = [f"{o.method}: {o.status}: {_first_line(o.message)}" for o in rerun.failed]
    if rerun.note is not None:
        said.insert(0, rerun.note)
    return "; ".join(said)


def _first_line(message: str | None) -> str:
    lines = (message or "").strip().splitlines()
    return lines[0][:300] if lines else "no message"

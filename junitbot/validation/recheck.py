"""Re-validate test files already written to the repository: do the kept tests still compile and pass?"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from junitbot.analysis import CodeGraph
from junitbot.config import JunitbotConfig
from junitbot.records import Record
from junitbot.state import StateDir
from junitbot.validation.models import TestCandidate
from junitbot.validation.validate import validate_candidates


class RecheckResult(Record):
    path: str
    target: str
    ok: bool
    why: str = ""


def recheck_files(root: Path, config: JunitbotConfig, state: StateDir, files: Mapping[str, str]) -> list[RecheckResult]:
    """Validate `files` (repo-relative test path → class under test) as they are on disk, once each.

    A file passes only as written: it compiles, every method passes, and no deterministic repair was needed.
    """
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
    once = config.model_copy(update={"validation": config.validation.model_copy(update={"repetitions": 1})})
    with CodeGraph.open(state.graph_db) as graph:
        report = validate_candidates(candidates, root=root, graph=graph, config=once, state=state)
    for verdict in report.verdicts:
        failed = [f"{m.name}: {m.reason}" for m in verdict.methods if not m.kept]
        why = ("does not compile" if not verdict.compiled else "; ".join(failed) if failed
               else f"needed repairs: {'; '.join(verdict.repairs)}" if verdict.repairs else "")
        results.append(RecheckResult(path=verdict.path, target=verdict.target, ok=verdict.kept and not why, why=why))
    return results

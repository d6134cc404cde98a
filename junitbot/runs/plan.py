"""plan_run: what a run covers, from the request, the configuration and the last run recorded in the state."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from junitbot.analysis import open_checkout
from junitbot.config import JunitbotConfig
from junitbot.runs.models import ALL_TARGETS, RunPlan, RunRequest
from junitbot.state import StateDir

_LAST_RUN = "last-run.json"


def plan_run(root: Path, state: StateDir, head: str | None, config: JunitbotConfig, request: RunRequest) -> RunPlan:
    """Named classes; or everything; or the files changed since REV or since the last run (else everything).

    The backend is the configured one; the cap is the request's, else `generation.max_classes_per_run`.
    """
    mode, changed, base = _changed_paths(root, state, head, request)
    return RunPlan(mode=mode, head=head, changed_paths=None if changed is None else tuple(changed), base=base,
                   classes=request.classes, dry_run=request.dry_run, backend=config.generation.backend,
                   max_classes=request.max_classes or config.generation.max_classes_per_run,
                   instructions=request.instructions)


def instructions_for(instructions: Mapping[str, str], targets: Iterable[str]) -> dict[str, str]:
    """Each target's instructions: its own, else those for ALL_TARGETS; targets without any are left out."""
    found = {fqn: instructions.get(fqn) or instructions.get(ALL_TARGETS) for fqn in targets}
    return {fqn: text for fqn, text in found.items() if text}


def record_run(state: StateDir, commit: str | None) -> None:
    """Remember `commit` as the last run's, the base the next incremental run diffs from."""
    if commit is not None:
        (state.ensure().root / _LAST_RUN).write_text(json.dumps({"commit": commit}))


def last_run(state: StateDir) -> str | None:
    """The commit of the last run that wrote tests, if any."""
    path = state.root / _LAST_RUN
    if not path.is_file():
        return None
    try:
        commit = json.loads(path.read_text()).get("commit")
    except (ValueError, AttributeError):
        return None
    return commit if isinstance(commit, str) else None


def _changed_paths(root: Path, state: StateDir, head: str | None,
                   request: RunRequest) -> tuple[str, list[str] | None, str | None]:
    """(mode, changed paths, base commit): None paths means every class (a full pass)."""
    if request.classes:
        return "classes", None, None
    if request.full:
        return "full", None, None
    checkout = open_checkout(root)
    base = request.since or last_run(state)
    if checkout is None or head is None or base is None:
        return "full (no earlier run to compare with)", None, None
    if not checkout.is_ancestor(base, head):
        return f"full ({base[:12]} is not an ancestor of HEAD)", None, None
    changes = checkout.changes_since(base, head, ())
    paths = sorted({*changes.paths, *checkout.dirty(())})
    return f"incremental since {base[:12]}", paths, checkout.resolve(base) or base

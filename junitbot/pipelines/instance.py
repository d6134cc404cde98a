"""The Dagster instance of a repository: DAGSTER_HOME under its state directory, SQLite, no telemetry."""

from __future__ import annotations

from pathlib import Path

import yaml

from junitbot.analysis.sqlite import set_aside_if_corrupt
from junitbot.state import StateDir

_INSTANCE_CONFIG = {
    # No network on most runners, and nothing to sign up for: the UI must open straight onto the assets.
    "telemetry": {"enabled": False},
    "nux": {"enabled": False},
    # Runs started by the sensor, the schedule or the UI go to the default run coordinator's queue;
    # the pool keeps GPU steps of two runs from overlapping on one runner.
    "concurrency": {"pools": {"default_limit": 1}},
    # Step processes (a full pass's partitions) log through the instance's default console logger: only what
    # needs a person, like the run's own console logger.
    "python_logs": {"python_log_level": "WARNING"},
}


# The default instance's SQLite files (runs, the event log's index, schedules); none with storage: postgres.
_SQLITE_STORES = ("history/runs.db", "history/runs/index.db", "schedules/schedules.db")


def dagster_home(state: StateDir) -> Path:
    """`<state>/dagster`, with a dagster.yaml written on first use (a user's own settings are kept)."""
    home = state.ensure().root / "dagster"
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    if not config.exists():
        config.write_text("# written by junitbot; add storage: postgres here to share runs across runners\n"
                          + yaml.safe_dump(_INSTANCE_CONFIG, sort_keys=False), encoding="utf-8")
    # Dagster opens these on every start and fails on a corrupt one, run after run (issue 18); without them it
    # starts a new history. A per-run event log (history/runs/<run id>.db) is read only when that run is shown.
    for store in _SQLITE_STORES:
        set_aside_if_corrupt(home / store, what="Dagster run history")
    return home

"""The repository's Dagster instance survives a corrupt SQLite file of its own (issue 18)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dagster import AssetKey, DagsterInstance, asset, materialize

from junitbot.pipelines.instance import dagster_home
from junitbot.state import StateDir
from tests.corruption import corrupt, warnings_of


@asset
def answer() -> int:
    return 42


def _materialize(home: Path) -> int:
    """Materialize one asset against the instance at `home`; how many runs it then holds."""
    with DagsterInstance.from_config(str(home)) as instance:
        assert materialize([answer], instance=instance).success
        assert instance.get_latest_materialization_event(AssetKey("answer")) is not None
        return len(instance.get_runs())


@pytest.mark.parametrize("store", ["history/runs.db", "history/runs/index.db", "schedules/schedules.db"])
def test_a_corrupt_instance_file_is_set_aside_and_dagster_starts_a_new_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, store: str
) -> None:
    state = StateDir(tmp_path / "state")
    assert _materialize(dagster_home(state)) == 1
    corrupt(state.root / "dagster" / store, "random bytes")
    caplog.clear()

    home = dagster_home(state)
    [warning] = warnings_of(caplog)
    assert f"{Path(store).name} is corrupt (file is not a database)" in warning
    assert (home / f"{store}.corrupt").is_file()
    runs = _materialize(home)
    assert runs == (1 if store == "history/runs.db" else 2)  # only runs.db held the run list

    caplog.clear()
    dagster_home(state)
    assert not warnings_of(caplog)

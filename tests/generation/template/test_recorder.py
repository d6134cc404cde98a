"""The probes' recorder, compiled once per cache folder even when partitions ask for it at the same moment."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import junitbot.validation.build.helpers as helpers
from junitbot.generation.template.probe import recorder_classes
from junitbot.validation.build.classpath import system_jars
from junitbot.validation.process import ProcessResult, run_process


def test_partitions_asking_at_once_share_one_compiled_recorder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # CI lost a full pass to two partitions compiling into one scratch folder; each must get a usable recorder,
    # and only one of them pays for javac (a class's two runs side by side each compiled the sandbox guard).
    compiled: list[ProcessResult] = []

    def javac(*args: object, **kwargs: object) -> ProcessResult:
        compiled.append(result := run_process(*args, **kwargs))  # type: ignore[arg-type]
        return result

    monkeypatch.setattr(helpers, "run_process", javac)
    cache = tmp_path / "recorder"
    with ThreadPoolExecutor(max_workers=4) as pool:
        folders = list(pool.map(lambda _: recorder_classes(cache, system_jars()), range(4)))

    assert len(set(folders)) == 1 and len(compiled) == 1
    assert (folders[0] / "junitbot" / "recorder" / "Recorder.class").is_file()
    # No scratch folder left behind, only the builders' lock.
    assert [p.name for p in cache.iterdir() if p.suffix != ".lock"] == [folders[0].name]


def test_a_compiled_recorder_is_reused(tmp_path: Path) -> None:
    first = recorder_classes(tmp_path, system_jars())
    stamp = (first / "junitbot" / "recorder" / "Recorder.class").stat().st_mtime_ns

    again = recorder_classes(tmp_path, system_jars())

    assert again == first
    assert (again / "junitbot" / "recorder" / "Recorder.class").stat().st_mtime_ns == stamp

"""The probes' recorder, compiled once per cache folder even when partitions ask for it at the same moment."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from junitbot.generation.template.probe import recorder_classes
from junitbot.validation.build.classpath import system_jars


def test_partitions_asking_at_once_share_one_compiled_recorder(tmp_path: Path) -> None:
    # CI lost a full pass to two partitions compiling into one scratch folder; each must get a usable recorder.
    cache = tmp_path / "recorder"
    with ThreadPoolExecutor(max_workers=4) as pool:
        folders = list(pool.map(lambda _: recorder_classes(cache, system_jars()), range(4)))

    assert len(set(folders)) == 1
    assert (folders[0] / "junitbot" / "recorder" / "Recorder.class").is_file()
    assert [p.name for p in cache.iterdir()] == [folders[0].name]  # no scratch folder left behind


def test_a_compiled_recorder_is_reused(tmp_path: Path) -> None:
    first = recorder_classes(tmp_path, system_jars())
    stamp = (first / "junitbot" / "recorder" / "Recorder.class").stat().st_mtime_ns

    again = recorder_classes(tmp_path, system_jars())

    assert again == first
    assert (again / "junitbot" / "recorder" / "Recorder.class").stat().st_mtime_ns == stamp

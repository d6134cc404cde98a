"""The probes' recorder: compiled once per cache folder even when partitions ask for it at the same moment; it
tells mocks from other values without starting Mockito in a JVM that made none."""

from __future__ import annotations

import json
import os
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


_MAIN = """
import java.util.ArrayList;
import org.mockito.Mockito;

public class Main {
    static boolean mockMakerStarted() {
        return Mockito.class.getClassLoader().getDefinedPackage("org.mockito.internal.creation.bytebuddy") != null;
    }

    public static void main(String[] args) {
        junitbot.recorder.Recorder.state("plain", "before", new ArrayList<String>(java.util.List.of("a")));
        junitbot.recorder.Recorder.state("object", "before", new Thread("worker"));
        System.out.println("started before a mock: " + mockMakerStarted());
        junitbot.recorder.Recorder.state("mock", "before", Mockito.mock(Runnable.class));
        System.out.println("started after a mock: " + mockMakerStarted());
    }
}
"""


def test_values_are_told_from_mocks_without_starting_mockito_until_a_mock_is_made(tmp_path: Path) -> None:
    # Asking Mockito whether a value is a mock starts its mock maker (Byte Buddy, an attached agent): half a second
    # of CPU in every probe JVM, most of whose classes make no mock at all.
    jars = system_jars()
    recorder = recorder_classes(tmp_path / "cache", jars)
    (tmp_path / "Main.java").write_text(_MAIN, encoding="utf-8")
    classpath = os.pathsep.join([str(tmp_path / "classes"), str(recorder), *jars])
    compiled = run_process(["javac", "-d", str(tmp_path / "classes"), "-cp", classpath, str(tmp_path / "Main.java")],
                           cwd=tmp_path, timeout_s=120, max_output_bytes=100_000)
    assert compiled.ok, compiled.stderr

    ran = run_process(["java", "-Djdk.attach.allowAttachSelf=true", "-cp", classpath, "Main"], cwd=tmp_path,
                      timeout_s=120, max_output_bytes=100_000)

    assert ran.ok, ran.stderr
    assert "started before a mock: false" in ran.stdout and "started after a mock: true" in ran.stdout
    seen = {r["scenario"]: r["value"] for r in map(json.loads, (tmp_path / "junitbot-observations.jsonl").open())}
    assert seen["plain"]["t"] == "Collection" and seen["plain"]["size"] == 1
    assert seen["object"]["t"] == "object" and seen["object"]["class"] == "java.lang.Thread"
    assert seen["mock"]["t"] == "mock"

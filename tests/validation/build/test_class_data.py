"""Class-data archives of javac and the JUnit console launcher: dumped once per JDK (and launcher) into the cache
folder, mapped by every later JVM, and never a reason for a compile or a run to fail or to say more than it does."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.validation.build.class_data import (
    javac_archive,
    javac_archive_options,
    launcher_archive,
    launcher_archive_options,
)
from junitbot.validation.build.jdk import default_jdk_version
from junitbot.validation.build.tool_choice import choose_launcher
from tests.conftest import session_tools_dir

_SOURCE = "package a;\n\npublic class A {\n    int twice(int x) { return 2 * x; }\n}\n"
_TEST = """package a;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ATest {
    @Test
    void twice() {
        assertEquals(4, new A().twice(2));
    }
}
"""


def _javac(options: list[str], tmp_path: Path, *classpath: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "A.java").write_text(_SOURCE)
    (tmp_path / "ATest.java").write_text(_TEST)
    sources = [tmp_path / "A.java", *([tmp_path / "ATest.java"] if classpath else [])]
    return subprocess.run(["javac", *options, "-cp", ":".join(map(str, classpath)) or ".", "-d",
                           str(tmp_path / "out"), *map(str, sources)],
                          capture_output=True, text=True, check=False, timeout=120)


@pytest.fixture(autouse=True)
def _fresh() -> None:
    javac_archive.cache_clear()
    launcher_archive.cache_clear()


def test_javac_s_archive_is_dumped_once_and_mapped_by_javac(tmp_path: Path) -> None:
    version = default_jdk_version()
    assert version is not None and version >= 13, "the machine's JDK makes dynamic archives"
    folder = tmp_path / "cds"
    archive = javac_archive(None, folder)
    assert archive is not None and archive.parent == folder and archive.stat().st_size > 1_000_000
    assert [p.name for p in folder.iterdir() if not p.name.startswith(".")] == [archive.name]  # no leftovers
    stamp = archive.stat().st_mtime_ns
    javac_archive.cache_clear()
    assert javac_archive(None, folder) == archive and archive.stat().st_mtime_ns == stamp  # not dumped again
    mapped = _javac([f"-J-XX:SharedArchiveFile={archive}", "-J-Xlog:class+load=info"], tmp_path)
    assert mapped.returncode == 0, mapped.stderr
    # The JVM says where each class came from: javac's own from the archive.
    assert "com.sun.tools.javac.main.Main source: shared objects file (top)" in mapped.stdout


def test_a_broken_archive_costs_nothing_but_its_speed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    archive = javac_archive(None, tmp_path / "junitbot" / "cds")  # where the options look under XDG_CACHE_HOME
    assert archive is not None
    archive.chmod(0o644)
    archive.write_bytes(b"not an archive")
    javac_archive.cache_clear()
    options = javac_archive_options(None)
    assert options and str(archive) in options[0]
    done = _javac(options, tmp_path)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", (done.stdout, done.stderr)
    assert (tmp_path / "out" / "a" / "A.class").is_file()


def test_the_launcher_s_archive_is_mapped_by_a_run_of_other_tests(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    launcher = choose_launcher([], tools_dir=session_tools_dir(tmp_path_factory), settings=ValidationSettings())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    options = launcher_archive_options(None, launcher.path, execute=True)
    archive = tmp_path / "junitbot" / "cds"
    assert options and options[0].startswith(f"-XX:SharedArchiveFile={archive}/launcher-"), options
    compiled = _javac([], tmp_path, launcher.path)
    assert compiled.returncode == 0, compiled.stderr
    run = subprocess.run(["java", *options, "-Xlog:class+load=info", "-jar", str(launcher.path), "execute",
                          "--disable-banner", "--details=none", f"--class-path={tmp_path / 'out'}",
                          "--select-class=a.ATest"], capture_output=True, text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    # The launcher's own classes come from the archive; the test's from its class path.
    assert "org.junit.platform.console.ConsoleLauncher source: shared objects file (top)" in run.stdout
    assert "a.ATest source: file:" in run.stdout


def test_no_archive_for_a_jdk_that_is_not_there(tmp_path: Path) -> None:
    assert javac_archive(str(tmp_path / "no-jdk"), tmp_path / "cds") is None


def test_the_cache_keeps_the_newest_archives_only(tmp_path: Path) -> None:
    folder = tmp_path / "cds"
    folder.mkdir()
    for number in range(20):
        old = folder / f"launcher-17-{number:016x}.jsa"
        old.write_bytes(b"old")
        os.utime(old, ns=(number * 1_000_000_000, number * 1_000_000_000))
    archive = javac_archive(None, folder)
    assert archive is not None and archive.is_file()
    left = sorted(p.name for p in folder.glob("*.jsa"))
    assert len(left) == 12 and archive.name in left and "launcher-17-0000000000000013.jsa" in left
    assert "launcher-17-0000000000000000.jsa" not in left

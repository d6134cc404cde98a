"""Choosing the JDK for a module's release."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.validation.build import jdk


def _jdk(root: Path, name: str, version: str) -> Path:
    home = root / name
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "javac").write_text("#!/bin/sh\n")
    (home / "release").write_text(f'IMPLEMENTOR="Test"\nJAVA_VERSION="{version}"\n')
    return home


@pytest.fixture
def jvms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "jvm"
    root.mkdir()
    monkeypatch.setattr(jdk, "JVM_ROOTS", (root,))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    jdk.installed_jdks.cache_clear()
    yield root
    jdk.installed_jdks.cache_clear()


def test_the_default_jdk_serves_releases_up_to_its_own(jvms: Path) -> None:
    _jdk(jvms, "temurin-25", "25.0.3")
    default = jdk.default_jdk_version()
    assert default is not None
    assert jdk.java_home_for(default) is None
    assert jdk.java_home_for(8) is None
    assert jdk.java_home_for(None) is None


def test_a_newer_release_gets_the_oldest_jdk_new_enough(jvms: Path) -> None:
    default = jdk.default_jdk_version() or 17
    _jdk(jvms, "old", "1.8.0_402")
    newest = _jdk(jvms, "newest", f"{default + 8}.0.1")
    enough = _jdk(jvms, "enough", f"{default + 4}.0.2")
    assert jdk.java_home_for(default + 1) == str(enough.resolve())
    assert jdk.java_home_for(default + 5) == str(newest.resolve())
    assert jdk.java_home_for(default + 9) is None  # none is new enough: javac will say so
    assert jdk.java_tool(str(enough), "javac") == str(enough / "bin" / "javac")
    assert jdk.java_tool(None, "java") == "java"


def test_release_files_are_read_old_and_new_style(tmp_path: Path) -> None:
    assert jdk.jdk_version(_jdk(tmp_path, "a", "1.8.0_402")) == 8
    assert jdk.jdk_version(_jdk(tmp_path, "b", "21.0.5")) == 21
    assert jdk.jdk_version(tmp_path / "missing") is None

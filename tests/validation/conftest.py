"""Fixtures of the validation tests: the pinned Java tools fetched once per session, and real Maven artifacts."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.atomic import exclusive
from junitbot.config import ValidationSettings
from junitbot.validation import TOOLS, ensure_tools
from junitbot.validation.process import run_process
from tests.conftest import session_tools_dir

_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1"


@pytest.fixture(scope="session")
def fetched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every pinned tool, fetched for real into the session's cache (the one StateDir.tools points at in tests)."""
    tools_dir = session_tools_dir(tmp_path_factory)
    ensure_tools(tuple(TOOLS), tools_dir=tools_dir, settings=ValidationSettings())
    return tools_dir


@pytest.fixture(scope="session")
def maven_jars(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], list[str]]:
    """maven_jars("org.junit.jupiter:junit-jupiter:5.11.4") -> that artifact's jars and its runtime dependencies,
    resolved from Maven Central by Maven once per test session and coordinates, as a project's classpath has them.
    The folder is the session's, beside its tools: pytest-xdist's workers share it, one resolving under a lock
    while the others wait, then reading what it copied."""
    root = session_tools_dir(tmp_path_factory).parent / "maven-jars"
    root.mkdir(exist_ok=True)

    def jars(coordinates: str) -> list[str]:
        group, artifact, version = coordinates.split(":")
        folder = root / f"{artifact}-{version}"
        with exclusive(root / f"{artifact}-{version}.lock"):
            if not (folder / "resolved").is_file():
                shutil.rmtree(folder, ignore_errors=True)  # what a killed resolution left
                folder.mkdir()
                (folder / "pom.xml").write_text(
                    '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
                    "<groupId>junitbot.tests</groupId><artifactId>jars</artifactId><version>0</version>"
                    f"<dependencies><dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
                    f"<version>{version}</version></dependency></dependencies></project>\n", encoding="utf-8")
                mvn = shutil.which("mvn")
                assert mvn is not None, "Maven is needed to resolve test jars (scripts/setup.sh installs it)"
                result = run_process([mvn, "-B", "-q", f"{_DEPENDENCY_PLUGIN}:copy-dependencies",
                                      "-DincludeScope=runtime", f"-DoutputDirectory={folder / 'jars'}"],
                                     cwd=folder, timeout_s=600, max_output_bytes=200_000)
                assert result.ok, result.stdout + result.stderr
                (folder / "resolved").touch()
        return sorted(str(jar) for jar in (folder / "jars").glob("*.jar"))

    return jars


@pytest.fixture
def unreachable_maven(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An `mvn` first on PATH that fails as Maven does without network; returns the log of its runs (one line
    each). java, javac and the sandbox tools stay on PATH."""
    bin_dir, log = tmp_path / "offline-bin", tmp_path / "mvn-runs.log"
    bin_dir.mkdir()
    (bin_dir / "mvn").write_text(
        f"#!/bin/sh\necho run >> {log}\n"
        "echo '[ERROR] Failed to execute goal: Could not transfer artifact org.jacoco:org.jacoco.agent:0.8.15 "
        "from/to central (https://repo.maven.apache.org/maven2): Network is unreachable'\nexit 1\n",
        encoding="utf-8")
    (bin_dir / "mvn").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    return log

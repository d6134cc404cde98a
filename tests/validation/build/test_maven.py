"""Which Maven builds a repository: its wrapper, a recent system Maven, or 3.9 from the tools cache."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.errors import ToolUnavailableError
from junitbot.validation import ensure_tool, maven_command, required_maven_version, version_satisfies
from junitbot.validation.process import ProcessResult, run_process

SETTINGS = ValidationSettings()
WRAPPER_PROPERTIES = ("distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/"
                      "3.9.9/apache-maven-3.9.9-bin.zip\n")
ENFORCED_POM = """<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>a</groupId><artifactId>b</artifactId><version>1</version>
  <properties><minimalMavenBuildVersion>[3.9,)</minimalMavenBuildVersion></properties>
  <build><plugins><plugin>
    <artifactId>maven-enforcer-plugin</artifactId>
    <executions><execution><goals><goal>enforce</goal></goals><configuration><rules>
      <requireMavenVersion><version>${minimalMavenBuildVersion}</version></requireMavenVersion>
    </rules></configuration></execution></executions>
  </plugin></plugins></build>
</project>
"""
PLAIN_POM = "<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>b</artifactId></project>"


@pytest.fixture
def repo(tmp_path: Path) -> Callable[..., Path]:
    def make(pom: str = PLAIN_POM, *, wrapper: bool | None = None) -> Path:
        root = tmp_path / "repo"
        root.mkdir()
        (root / "pom.xml").write_text(pom, encoding="utf-8")
        if wrapper is not None:
            (root / "mvnw").write_text("#!/bin/sh\necho wrapper\n", encoding="utf-8")
            (root / "mvnw").chmod(0o755 if wrapper else 0o644)
            (root / ".mvn" / "wrapper").mkdir(parents=True)
            (root / ".mvn" / "wrapper" / "maven-wrapper.properties").write_text(WRAPPER_PROPERTIES, encoding="utf-8")
        return root

    return make


@pytest.fixture
def system_maven(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[str], None]:
    """A `mvn` on PATH that says it is the given version and, like a machine offline, cannot fetch anything."""

    def install(version: str) -> None:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        (bin_dir / "mvn").write_text(
            '#!/bin/sh\nif [ "$2" = "-v" ]; then echo "Apache Maven ' + version + ' (abc)"; exit 0; fi\n'
            'echo "[ERROR] Could not transfer artifact: Connect to repo.maven.apache.org failed: '
            'Connection refused"\nexit 1\n', encoding="utf-8")
        (bin_dir / "mvn").chmod(0o755)
        monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")

    return install


def test_an_executable_wrapper_is_used_with_the_version_it_declares(repo: Callable[..., Path], tmp_path: Path) -> None:
    root = repo(wrapper=True)
    choice = maven_command(root, tools_dir=tmp_path / "tools", settings=SETTINGS)
    assert choice.command == (str(root / "mvnw"),)
    assert (choice.source, choice.version) == ("wrapper", "3.9.9")
    assert "wrapper" in choice.reason
    assert not (tmp_path / "tools").exists(), "a wrapper needs no tools"


def test_a_wrapper_that_is_not_executable_runs_through_sh(repo: Callable[..., Path], tmp_path: Path) -> None:
    root = repo(wrapper=False)
    choice = maven_command(root, tools_dir=tmp_path / "tools", settings=SETTINGS)
    assert choice.command == ("sh", str(root / "mvnw"))
    assert "not executable" in choice.reason
    assert run_process(choice.command, cwd=root, timeout_s=10, max_output_bytes=1000).stdout == "wrapper\n"


def test_a_system_maven_of_3_9_is_used(repo: Callable[..., Path], tmp_path: Path,
                                       system_maven: Callable[[str], None]) -> None:
    system_maven("3.9.11")
    choice = maven_command(repo(), tools_dir=tmp_path / "tools", settings=SETTINGS)
    assert choice.command == (str(tmp_path / "bin" / "mvn"),)
    assert (choice.source, choice.version) == ("system", "3.9.11")


def test_a_system_maven_is_asked_its_version_once_until_it_changes_on_disk(
        repo: Callable[..., Path], tmp_path: Path, system_maven: Callable[[str], None]) -> None:
    system_maven("3.9.11")
    mvn = tmp_path / "bin" / "mvn"
    asked = tmp_path / "asked"
    # The script notes each `-v` before answering it.
    mvn.write_text(mvn.read_text().replace("#!/bin/sh\n", f"#!/bin/sh\necho \"$2\" >> {asked}\n", 1))
    root = repo()
    versions = [maven_command(root, tools_dir=tmp_path / "tools", settings=SETTINGS).version for _ in range(3)]
    assert versions == ["3.9.11"] * 3 and asked.read_text().split() == ["-v"]
    # An upgrade in place (a new script, a new time) is asked again.
    mvn.write_text(mvn.read_text().replace("3.9.11", "3.9.12"))
    os.utime(mvn, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    assert maven_command(root, tools_dir=tmp_path / "tools", settings=SETTINGS).version == "3.9.12"
    assert asked.read_text().split() == ["-v", "-v"]


def test_an_older_system_maven_gives_way_to_3_9_from_the_cache(repo: Callable[..., Path], tmp_path: Path) -> None:
    """The real system Maven (Debian's 3.8.7 here) and Maven 3.9 fetched for real (cached by test_tools)."""
    assert shutil.which("mvn"), "scripts/setup.sh installs Debian's maven: the tools are fetched with it"
    calls: list[Sequence[str]] = []

    def counting(argv: Sequence[str], *, cwd: Path, timeout_s: float, max_output_bytes: int) -> ProcessResult:
        calls.append(argv)
        return run_process(argv, cwd=cwd, timeout_s=timeout_s, max_output_bytes=max_output_bytes)

    version = run_process(["mvn", "-B", "-v"], cwd=tmp_path, timeout_s=60, max_output_bytes=10_000).stdout
    system = re.search(r"Apache Maven (\d+\.\d+\.\d+)", version)
    assert system is not None
    choice = maven_command(repo(ENFORCED_POM), tools_dir=tmp_path / "tools", settings=SETTINGS, runner=counting)
    if version_satisfies(system.group(1), "[3.9,)"):
        assert choice.source == "system"
        return
    assert choice.source == "fetched" and choice.version == "3.9.16"
    assert choice.command == (str(tmp_path / "tools" / "maven-3.9.16" / "bin" / "mvn"),)
    assert f"the system Maven {system.group(1)} is older than 3.9" in choice.reason
    assert "requires Maven [3.9,)" in choice.reason
    assert len(calls) == 2, "mvn -v, then one Maven run fetching 3.9"
    assert ensure_tool("maven", tools_dir=tmp_path / "tools", settings=SETTINGS).fetched is False


def test_without_3_9_an_older_maven_builds_what_does_not_require_more(
    repo: Callable[..., Path], tmp_path: Path, system_maven: Callable[[str], None]
) -> None:
    system_maven("3.8.7")
    choice = maven_command(repo(), tools_dir=tmp_path / "tools", settings=SETTINGS)
    assert (choice.source, choice.version) == ("system", "3.8.7")
    assert "could not be fetched" in choice.reason and "Connection refused" in choice.reason


def test_without_3_9_a_build_that_requires_it_fails_with_what_to_do(
    repo: Callable[..., Path], tmp_path: Path, system_maven: Callable[[str], None]
) -> None:
    system_maven("3.8.7")
    with pytest.raises(ToolUnavailableError) as raised:
        maven_command(repo(ENFORCED_POM), tools_dir=tmp_path / "tools", settings=SETTINGS)
    message = str(raised.value)
    assert "repo needs Maven [3.9,)" in message and "3.8.7 is older than 3.9" in message
    assert "put the contents of the folder in apache-maven-3.9.16-bin.tar.gz (with bin/mvn) into" in message


def test_without_any_maven_the_error_says_so(repo: Callable[..., Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ToolUnavailableError, match="no Maven on PATH"):
        maven_command(repo(), tools_dir=tmp_path / "tools", settings=SETTINGS)


def test_the_enforcer_requirement_is_read_from_the_pom(tmp_path: Path) -> None:
    pom = tmp_path / "pom.xml"
    pom.write_text(ENFORCED_POM, encoding="utf-8")
    assert required_maven_version(pom) == "[3.9,)"
    pom.write_text(PLAIN_POM, encoding="utf-8")
    assert required_maven_version(pom) is None
    pom.write_text("<project><unclosed></project>", encoding="utf-8")
    assert required_maven_version(pom) is None
    assert required_maven_version(tmp_path / "missing.xml") is None


@pytest.mark.parametrize(("version", "requirement", "expected"), [
    ("3.8.7", "[3.9,)", False),
    ("3.9.0", "[3.9,)", True),
    ("3.9.16", "[3.9,)", True),
    ("3.8.7", "3.6.3", True),
    ("3.6.2", "3.6.3", False),
    ("4.0.0", "[3.6.3,4)", False),
    ("3.9.9", "[3.6.3,4)", True),
    ("3.6.3", "(3.6.3,4)", False),
    ("3.8.1", "[3.8.1]", True),
    ("3.5.0", "(,3.0],[3.5,)", True),
    ("3.2.0", "(,3.0],[3.5,)", False),
])
def test_maven_version_requirements(version: str, requirement: str, expected: bool) -> None:
    assert version_satisfies(version, requirement) is expected

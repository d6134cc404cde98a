"""Pinned Java tools: fetched for real from Maven Central with Maven, checksummed, used offline afterwards."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from junitbot.config import ValidationSettings
from junitbot.errors import ToolUnavailableError
from junitbot.validation import TOOLS, ToolName, ensure_tool, ensure_tools, junit_console_for
from junitbot.validation.build.tool_specs import artifact_file
from junitbot.validation.build.tools import ensure_pit
from junitbot.validation.process import ProcessResult, run_process

SETTINGS = ValidationSettings()  # Maven's own local repository, shared with the machine's other builds
ALL_TOOLS: tuple[ToolName, ...] = tuple(TOOLS)


class CountingRunner:
    """run_process, counting the commands (Maven runs) it is asked for."""

    def __init__(self, extra_args: Sequence[str] = ()) -> None:
        self.calls: list[list[str]] = []
        self._extra = list(extra_args)

    def __call__(self, argv: Sequence[str], *, cwd: Path, timeout_s: float, max_output_bytes: int) -> ProcessResult:
        command = [argv[0], *self._extra, *argv[1:]]
        self.calls.append(command)
        return run_process(command, cwd=cwd, timeout_s=timeout_s, max_output_bytes=max_output_bytes)


@pytest.fixture
def cache(fetched: Path, tmp_path: Path) -> Path:
    """A private copy of the fetched cache, for tests that change it."""
    copy = tmp_path / "state" / "tools"
    shutil.copytree(fetched, copy)
    return copy


@pytest.fixture
def no_maven_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.fixture
def fake_maven(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[dict[str, bytes]], CopyDependencies]:
    """`mvn` on PATH that a CopyDependencies double answers for (the real one is never started)."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    (bin_dir / "mvn").write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    (bin_dir / "mvn").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    return CopyDependencies


class CopyDependencies:
    """Speaks `dependency:copy-dependencies` over junitbot's generated reactor: writes the given files into
    each module's `out/`, as Maven would."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.calls = 0

    def __call__(self, argv: Sequence[str], *, cwd: Path, timeout_s: float, max_output_bytes: int) -> ProcessResult:
        self.calls += 1
        assert (cwd / argv[argv.index("-f") + 1]).is_file(), "a relative -f resolves against Maven's cwd"
        for pom in cwd.glob("*/pom.xml"):
            assert "${project.basedir}/out" in pom.read_text(encoding="utf-8")
            (pom.parent / "out").mkdir()
            for name, content in self.files.items():
                (pom.parent / "out" / name).write_bytes(content)
        return ProcessResult(argv=tuple(argv), exit_code=0, stdout="", stderr="", seconds=0.1)


def manifest(tools_dir: Path) -> dict[str, Any]:
    """The records of manifest.json, by tool name, as JSON."""
    tools: dict[str, Any] = json.loads((tools_dir / "manifest.json").read_text(encoding="utf-8"))["tools"]
    return tools


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_fetched_tools_are_the_pinned_versions_with_their_sha256_recorded(fetched: Path) -> None:
    records = manifest(fetched)
    for name, spec in TOOLS.items():
        home = fetched / f"{name}-{spec.version}"
        record = records[name]
        assert record["version"] == spec.version
        assert record["source"] == "maven"
        files = record["files"]
        on_disk = {p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file()}
        assert on_disk == set(files)
        assert all(sha256(home / rel) == digest for rel, digest in files.items())
    assert set(records["pitest"]["files"]) >= {
        "pitest-command-line-1.30.1.jar", "pitest-entry-1.30.1.jar", "pitest-1.30.1.jar",
        "pitest-junit5-plugin-1.2.3.jar"}
    assert "bin/mvn" in records["maven"]["files"]
    assert not list(fetched.glob(".fetch-*")), "staging folders are removed"


def test_cached_tools_are_used_without_running_maven(cache: Path, no_maven_on_path: None) -> None:
    runner = CountingRunner()
    tools = ensure_tools(ALL_TOOLS, tools_dir=cache, settings=SETTINGS, runner=runner)
    assert runner.calls == []
    assert all(not tool.fetched and not tool.adopted for tool in tools.values())
    launcher = cache / "junit-console-1.14.4" / "junit-platform-console-standalone-1.14.4.jar"
    assert tools["junit-console"].path == launcher
    assert tools["maven"].path == cache / "maven-3.9.16" / "bin" / "mvn"
    assert len(tools["pitest"].classpath) == len(manifest(cache)["pitest"]["files"])


def test_changed_truncated_or_added_files_are_fetched_again_in_one_maven_run(cache: Path) -> None:
    damaged: tuple[ToolName, ...] = ("junit-console", "jacoco-agent", "maven")
    homes = {name: cache / f"{name}-{TOOLS[name].version}" for name in damaged}
    recorded = {name: manifest(cache)[name]["files"] for name in damaged}
    launcher = homes["junit-console"] / TOOLS["junit-console"].main
    launcher.write_bytes(launcher.read_bytes()[:1000])
    agent = homes["jacoco-agent"] / TOOLS["jacoco-agent"].main
    agent.write_bytes(agent.read_bytes().replace(b"PK", b"PQ", 1))  # same size, other content
    (homes["maven"] / "lib" / "ext" / "planted.jar").write_bytes(b"not from Maven Central")
    runner = CountingRunner()
    tools = ensure_tools(ALL_TOOLS, tools_dir=cache, settings=SETTINGS, runner=runner)
    assert len(runner.calls) == 1
    assert {name for name, tool in tools.items() if tool.fetched} == set(damaged)
    for name, home in homes.items():
        assert manifest(cache)[name]["files"] == recorded[name]
        assert {p.relative_to(home).as_posix(): sha256(p) for p in home.rglob("*") if p.is_file()} == recorded[name]
    again = ensure_tools(ALL_TOOLS, tools_dir=cache, settings=SETTINGS, runner=runner)
    assert len(runner.calls) == 1 and not any(tool.fetched for tool in again.values())


def test_the_jacoco_agent_is_the_shaded_one_with_premain_class(fetched: Path) -> None:
    agent = ensure_tool("jacoco-agent", tools_dir=fetched, settings=SETTINGS).path
    with zipfile.ZipFile(agent) as jar:
        manifest_text = jar.read("META-INF/MANIFEST.MF").decode("utf-8")
    assert "Premain-Class: org.jacoco.agent.rt.internal_" in manifest_text


@pytest.mark.parametrize(("name", "version"), [("junit-console", "1.14.4"), ("junit-console-6", "6.1.3")])
def test_the_launchers_run(fetched: Path, tmp_path: Path, name: ToolName, version: str) -> None:
    launcher = ensure_tool(name, tools_dir=fetched, settings=SETTINGS).path
    result = run_process(["java", "-jar", str(launcher), "--version"], cwd=tmp_path, timeout_s=60,
                         max_output_bytes=100_000)
    assert result.ok, result.stderr
    assert f"JUnit Platform Console Launcher {version}" in result.stdout


def test_jacoco_cli_and_pit_run(fetched: Path, tmp_path: Path) -> None:
    cli = ensure_tool("jacoco-cli", tools_dir=fetched, settings=SETTINGS).path
    version = run_process(["java", "-jar", str(cli), "version"], cwd=tmp_path, timeout_s=60, max_output_bytes=10_000)
    assert version.ok and version.stdout.startswith("0.8.15")
    classpath = os.pathsep.join(str(p) for p in ensure_tool("pitest", tools_dir=fetched, settings=SETTINGS).classpath)
    pit = run_process(["java", "-cp", classpath, "org.pitest.mutationtest.commandline.MutationCoverageReport",
                       "--help"], cwd=tmp_path, timeout_s=60, max_output_bytes=100_000)
    assert pit.ok and "--targetClasses" in pit.stdout


def test_the_fetched_maven_is_3_9(fetched: Path, tmp_path: Path) -> None:
    mvn = ensure_tool("maven", tools_dir=fetched, settings=SETTINGS).path
    result = run_process([str(mvn), "-B", "-v"], cwd=tmp_path, timeout_s=60, max_output_bytes=100_000)
    assert result.ok, result.stderr
    assert "Apache Maven 3.9.16" in result.stdout


def test_without_maven_the_error_says_what_to_provide(tmp_path: Path, no_maven_on_path: None) -> None:
    tools_dir = tmp_path / "tools"
    with pytest.raises(ToolUnavailableError) as raised:
        ensure_tools(("junit-console", "jacoco-agent"), tools_dir=tools_dir, settings=SETTINGS)
    message = str(raised.value)
    assert "Maven (mvn) is not on PATH" in message
    assert f"put junit-platform-console-standalone-1.14.4.jar into {tools_dir / 'junit-console-1.14.4'}/" in message
    assert "org.jacoco.agent-0.8.15-runtime.jar" in message and "validation.jacoco_agent" in message
    assert not (tools_dir / "manifest.json").exists()


def test_a_jar_put_into_the_cache_by_hand_is_adopted(fetched: Path, tmp_path: Path, no_maven_on_path: None) -> None:
    tools_dir = tmp_path / "tools"
    home = tools_dir / "junit-console-1.14.4"
    home.mkdir(parents=True)
    jar = fetched / "junit-console-1.14.4" / "junit-platform-console-standalone-1.14.4.jar"
    shutil.copy(jar, home)
    tool = ensure_tool("junit-console", tools_dir=tools_dir, settings=SETTINGS)
    assert tool.adopted and not tool.fetched
    assert manifest(tools_dir)["junit-console"]["source"] == "adopted"
    assert manifest(tools_dir)["junit-console"]["files"] == {jar.name: sha256(jar)}
    again = ensure_tool("junit-console", tools_dir=tools_dir, settings=SETTINGS)
    assert not again.adopted and not again.fetched


def test_a_truncated_jar_put_there_by_hand_is_not_adopted(fetched: Path, tmp_path: Path,
                                                        no_maven_on_path: None) -> None:
    home = tmp_path / "tools" / "jacoco-cli-0.8.15"
    home.mkdir(parents=True)
    jar = fetched / "jacoco-cli-0.8.15" / "org.jacoco.cli-0.8.15-nodeps.jar"
    (home / jar.name).write_bytes(jar.read_bytes()[:50_000])
    with pytest.raises(ToolUnavailableError, match="Maven \\(mvn\\) is not on PATH"):
        ensure_tool("jacoco-cli", tools_dir=tmp_path / "tools", settings=SETTINGS)


def test_without_network_the_error_names_maven_central(tmp_path: Path) -> None:
    # A mirror nobody listens on stands for a runner that cannot reach Maven Central; an empty local
    # repository means Maven needs the network even for its dependency plugin.
    settings_xml = tmp_path / "settings.xml"
    settings_xml.write_text("<settings><mirrors><mirror><id>nowhere</id><mirrorOf>*</mirrorOf>"
                            "<url>https://127.0.0.1:9/maven2</url></mirror></mirrors></settings>", encoding="utf-8")
    offline = ValidationSettings(maven_repo_local=tmp_path / "empty-m2")
    runner = CountingRunner(extra_args=("-s", str(settings_xml)))
    with pytest.raises(ToolUnavailableError) as raised:
        ensure_tool("jacoco-agent", tools_dir=tmp_path / "tools", settings=offline, runner=runner)
    message = str(raised.value)
    assert "Maven could not download from Maven Central" in message
    assert "Connection refused" in message
    assert "put org.jacoco.agent-0.8.15-runtime.jar into" in message
    assert f"-Dmaven.repo.local={tmp_path / 'empty-m2'}" in runner.calls[0]


def test_a_refetched_file_that_differs_from_its_record_is_refused(
    cache: Path, fake_maven: Callable[[dict[str, bytes]], CopyDependencies]
) -> None:
    home = cache / "jacoco-cli-0.8.15"
    jar = home / "org.jacoco.cli-0.8.15-nodeps.jar"
    before = manifest(cache)
    jar.write_bytes(b"damaged in the cache")
    maven = fake_maven({jar.name: b"and different in Maven's local repository"})
    with pytest.raises(ToolUnavailableError, match="differs from the copy recorded"):
        ensure_tool("jacoco-cli", tools_dir=cache, settings=SETTINGS, runner=maven)
    assert maven.calls == 1
    assert manifest(cache) == before
    assert jar.read_bytes() == b"damaged in the cache", "nothing that failed its check is installed"


def test_a_relative_tools_dir_is_fetched_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_maven: Callable[[dict[str, bytes]], CopyDependencies]
) -> None:
    monkeypatch.chdir(tmp_path)
    maven = fake_maven({"org.jacoco.cli-0.8.15-nodeps.jar": b"a jar"})
    tool = ensure_tool("jacoco-cli", tools_dir=Path(".junitbot/tools"), settings=SETTINGS, runner=maven)
    assert tool.path == tmp_path / ".junitbot" / "tools" / "jacoco-cli-0.8.15" / "org.jacoco.cli-0.8.15-nodeps.jar"
    assert tool.path.read_bytes() == b"a jar" and maven.calls == 1


def test_an_unreadable_manifest_trusts_nothing_and_fetches_again(cache: Path) -> None:
    (cache / "manifest.json").write_text("{not json", encoding="utf-8")
    runner = CountingRunner()
    tool = ensure_tool("jacoco-agent", tools_dir=cache, settings=SETTINGS, runner=runner)
    assert tool.fetched and not tool.adopted and len(runner.calls) == 1
    assert set(manifest(cache)) == {"jacoco-agent"}


def test_a_tool_recorded_at_another_version_is_replaced(cache: Path) -> None:
    records = json.loads((cache / "manifest.json").read_text(encoding="utf-8"))
    records["tools"]["jacoco-cli"]["version"] = "0.8.14"
    (cache / "manifest.json").write_text(json.dumps(records), encoding="utf-8")
    (cache / "jacoco-cli-0.8.15").rename(cache / "jacoco-cli-0.8.14")
    tool = ensure_tool("jacoco-cli", tools_dir=cache, settings=SETTINGS)
    assert tool.fetched and tool.version == "0.8.15"
    assert not (cache / "jacoco-cli-0.8.14").exists()
    assert manifest(cache)["jacoco-cli"]["version"] == "0.8.15"


def test_pit_comes_with_the_projects_platform_launcher_in_one_maven_run(cache: Path) -> None:
    # The session's cache may hold this launcher already (a PIT run on the shop fetched it): start without it.
    records = json.loads((cache / "manifest.json").read_text(encoding="utf-8"))
    records["tools"].pop("junit-platform-launcher@1.11.4", None)
    (cache / "manifest.json").write_text(json.dumps(records), encoding="utf-8")
    shutil.rmtree(cache / "junit-platform-launcher-1.11.4", ignore_errors=True)
    runner = CountingRunner()
    pit, launcher = ensure_pit("1.11.4", tools_dir=cache, settings=SETTINGS, runner=runner)
    assert len(runner.calls) == 1 and not pit.fetched
    assert launcher is not None and launcher.fetched
    assert launcher.path == cache / "junit-platform-launcher-1.11.4" / "junit-platform-launcher-1.11.4.jar"
    assert manifest(cache)["junit-platform-launcher@1.11.4"]["files"] == {launcher.path.name: sha256(launcher.path)}
    # Cached from now on, beside the pinned tools; without a launcher wanted, PIT alone.
    assert ensure_pit("1.11.4", tools_dir=cache, settings=SETTINGS, runner=runner)[1] == launcher.model_copy(
        update={"fetched": False})
    assert ensure_pit(None, tools_dir=cache, settings=SETTINGS, runner=runner) == (pit, None)
    assert len(runner.calls) == 1


def test_a_launcher_version_that_is_no_version_is_refused(tmp_path: Path, no_maven_on_path: None) -> None:
    with pytest.raises(ToolUnavailableError, match=r"not a Maven version: '\.\./1'"):
        ensure_pit("../1", tools_dir=tmp_path / "tools", settings=SETTINGS)
    with pytest.raises(ToolUnavailableError) as raised:
        ensure_pit("1.11.4", tools_dir=tmp_path / "tools", settings=SETTINGS)
    assert (f"junit-platform-launcher-1.11.4.jar into {tmp_path / 'tools' / 'junit-platform-launcher-1.11.4'}/"
            in str(raised.value))


def test_the_launcher_follows_the_projects_jupiter() -> None:
    assert junit_console_for(None) == "junit-console"
    assert junit_console_for("5.14.1") == "junit-console"
    assert junit_console_for("6.0.0") == "junit-console-6"
    assert junit_console_for("6.1.3") == "junit-console-6"


def test_artifact_files_are_named_as_maven_names_them() -> None:
    assert artifact_file("org.jacoco:org.jacoco.agent:0.8.15:jar:runtime") == "org.jacoco.agent-0.8.15-runtime.jar"
    assert artifact_file("org.apache.maven:apache-maven:3.9.16:tar.gz:bin") == "apache-maven-3.9.16-bin.tar.gz"
    assert artifact_file("org.pitest:pitest-command-line:1.30.1") == "pitest-command-line-1.30.1.jar"
    with pytest.raises(ValueError, match="group:artifact:version"):
        artifact_file("org.pitest:pitest")

"""Which launcher and JaCoCo judge a run: the pinned tools, a configured agent, Debian's when Maven cannot fetch."""

from __future__ import annotations

import logging
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.validation.build import tool_choice as toolchoice
from junitbot.validation.build.tool_choice import choose_launcher, judging_tools
from tests.validation.run.test_launcher import TEST_JARS

PINNED = {
    "junit": "junit-platform-console-standalone 1.14.4 (pinned)",
    "jacoco agent": "org.jacoco.agent 0.8.15 (pinned)",
    "jacoco analyzer": "org.jacoco.cli 0.8.15 (pinned)",
}


def test_the_pinned_tools_judge_and_the_launcher_follows_jupiter(
    fetched: Path, maven_jars: Callable[[str], list[str]]
) -> None:
    assert judging_tools(TEST_JARS, tools_dir=fetched, settings=ValidationSettings()) == PINNED
    six = choose_launcher(maven_jars("org.junit.jupiter:junit-jupiter:6.0.0"), tools_dir=fetched,
                          settings=ValidationSettings())
    assert (six.version, six.source) == ("6.1.3", "pinned")
    assert six.path.name == "junit-platform-console-standalone-6.1.3.jar"


def test_a_configured_agent_wins_over_the_pinned_one(fetched: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile("/usr/share/java/org.jacoco.agent.jar") as outer:
        shaded = Path(outer.extract("jacocoagent.jar", tmp_path))
    tools = judging_tools(TEST_JARS, tools_dir=fetched, settings=ValidationSettings(jacoco_agent=shaded))
    assert tools == PINNED | {"jacoco agent": "jacocoagent.jar 0.8.6 (configured)"}


def test_without_maven_central_debians_tools_judge_and_say_why(
    fetched: Path, tmp_path: Path, unreachable_maven: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tools_dir = tmp_path / "tools"
    tools = judging_tools([], tools_dir=tools_dir, settings=ValidationSettings())
    why = "fallback: Maven could not download from Maven Central (no network, or a proxy or mirror to configure"
    assert tools["junit"].startswith(f"junit-platform-console-standalone 1.9.1 (Debian's; {why}")
    assert tools["jacoco agent"].startswith(f"org.jacoco.agent.rt 0.8.6 (Debian's; {why}")
    assert tools["jacoco analyzer"].startswith(f"org.jacoco.core 0.8.6 (Debian's; {why}")
    assert "Network is unreachable" in tools["junit"]
    # One Maven run tried all three (the launcher is fetched with JaCoCo); each replacement warned once.
    assert unreachable_maven.read_text().splitlines() == ["run"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert [w.split(":")[0] for w in warnings] == [
        "using the classpath's or Debian's launcher instead of the pinned junit-console",
        "using Debian's JaCoCo agent instead of the pinned jacoco-agent",
        "using Debian's JaCoCo 0.8.6 instead of the pinned jacoco-cli",
    ]
    assert judging_tools([], tools_dir=tools_dir, settings=ValidationSettings()) == tools
    assert len(unreachable_maven.read_text().splitlines()) == 1 and len(caplog.records) == 3
    # While Maven is not retried, a launcher put into the cache by hand is used at once.
    home = tools_dir / "junit-console-1.14.4"
    home.mkdir()
    shutil.copy(fetched / "junit-console-1.14.4" / "junit-platform-console-standalone-1.14.4.jar", home)
    launcher = choose_launcher([], tools_dir=tools_dir, settings=ValidationSettings())
    assert (launcher.source, launcher.version) == ("pinned", "1.14.4")
    assert len(unreachable_maven.read_text().splitlines()) == 1


def test_without_any_jacoco_the_report_says_so(
    tmp_path: Path, unreachable_maven: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(toolchoice, "SYSTEM_JARS", tmp_path / "no-debian-jars")
    tools = judging_tools(TEST_JARS, tools_dir=tmp_path / "tools", settings=ValidationSettings())
    assert tools["junit"].startswith("junit-platform-console-standalone 1.9.1 (from the classpath; fallback: ")
    for role in ("jacoco agent", "jacoco analyzer"):
        assert tools[role].startswith(f"none: JaCoCo is not installed: {tmp_path / 'no-debian-jars'}/org.jacoco")
        assert "; the pinned JaCoCo could not be had either: Maven could not download" in tools[role]


def test_no_tools_dir_means_no_pinned_tools() -> None:
    tools = judging_tools(TEST_JARS, tools_dir=None, settings=ValidationSettings())
    assert tools == {
        "junit": "junit-platform-console-standalone 1.9.1 (from the classpath)",
        "jacoco agent": "org.jacoco.agent.rt 0.8.6 (Debian's)",
        "jacoco analyzer": "org.jacoco.core 0.8.6 (Debian's)",
    }

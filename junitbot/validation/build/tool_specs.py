"""The pinned Java tools: what each is (Maven coordinates, main file) and where it lives in the tools cache (pure)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Literal, cast

from junitbot.records import Record

ToolName = Literal["junit-console", "junit-console-6", "jacoco-agent", "jacoco-cli", "pitest", "maven", "byte-buddy"]


class ToolSpec(Record):
    """One pinned tool: Maven coordinates `group:artifact:version[:type[:classifier]]`, the first naming it."""

    title: str
    artifacts: tuple[str, ...]
    transitive: bool = False
    unpack: str | None = None  # the artifact is an archive unpacked into the tool's folder; its main file
    hint: str = ""  # another way to provide the tool, for the error message

    @property
    def version(self) -> str:
        return self.artifacts[0].split(":")[2]

    @property
    def main(self) -> str:
        """The main file, relative to the tool's folder."""
        return self.unpack or artifact_file(self.artifacts[0])


# The pinned versions, all in one place. The 1.x launcher bundles Jupiter 5 and shadows a project's
# Jupiter 6 (a test using MethodOrderer.Default fails discovery under it), hence a 6.x launcher too.
DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1"
TOOLS: Mapping[ToolName, ToolSpec] = MappingProxyType({
    "junit-console": ToolSpec(
        title="JUnit console launcher (Jupiter 5)",
        artifacts=("org.junit.platform:junit-platform-console-standalone:1.14.4",)),
    "junit-console-6": ToolSpec(
        title="JUnit console launcher (Jupiter 6, Java 17+)",
        artifacts=("org.junit.platform:junit-platform-console-standalone:6.1.3",)),
    "jacoco-agent": ToolSpec(
        title="JaCoCo agent (shaded, with Premain-Class)",
        artifacts=("org.jacoco:org.jacoco.agent:0.8.15:jar:runtime",),
        hint=", or set validation.jacoco_agent to a shaded agent jar"),
    "jacoco-cli": ToolSpec(
        title="JaCoCo command line", artifacts=("org.jacoco:org.jacoco.cli:0.8.15:jar:nodeps",)),
    "pitest": ToolSpec(
        title="PIT mutation tester",
        artifacts=("org.pitest:pitest-command-line:1.30.1", "org.pitest:pitest-junit5-plugin:1.2.3"),
        transitive=True),
    "byte-buddy": ToolSpec(
        title="Byte Buddy (the carver agent's instrumentation)", artifacts=("net.bytebuddy:byte-buddy:1.18.17",)),
    "maven": ToolSpec(
        title="Apache Maven", artifacts=("org.apache.maven:apache-maven:3.9.16:tar.gz:bin",),
        unpack="bin/mvn"),
})

# Follows the project rather than a pin (PIT's JUnit 5 plugin needs the project's platform version).
PLATFORM_LAUNCHER = "junit-platform-launcher"
ARTIFACT_VERSION = re.compile(r"\d+(?:\.\d+)*(?:[-.][A-Za-z0-9]+)*")


def artifact_file(coordinates: str) -> str:
    """The file name Maven gives an artifact: `org.jacoco:org.jacoco.agent:0.8.15:jar:runtime` ->
    `org.jacoco.agent-0.8.15-runtime.jar`."""
    parts = coordinates.split(":")
    if not 3 <= len(parts) <= 5 or not all(parts):
        raise ValueError(f"not group:artifact:version[:type[:classifier]]: {coordinates!r}")
    artifact, version = parts[1], parts[2]
    kind = parts[3] if len(parts) > 3 else "jar"
    classifier = f"-{parts[4]}" if len(parts) > 4 else ""
    return f"{artifact}-{version}{classifier}.{kind}"


def junit_console_for(jupiter_version: str | None) -> ToolName:
    """The launcher that runs a project's Jupiter: the 6.x one for Jupiter 6 and later, else the 1.x one."""
    major = (jupiter_version or "5").split(".")[0]
    return "junit-console-6" if major.isdigit() and int(major) >= 6 else "junit-console"


def tool_home(tools_dir: Path, name: str) -> Path:
    """The tool's folder in the cache: its name and pinned version."""
    return tools_dir / f"{tool_folder(name)}-{tool_spec(name).version}"


def tool_folder(name: str) -> str:
    """The tool's name without the version a `name@version` carries: its folder's (and Maven module's) stem."""
    return name.partition("@")[0]


def tool_spec(name: str) -> ToolSpec:
    """The pinned tool's spec, or that of an artifact following the project (`junit-platform-launcher@1.11.4`)."""
    if name in TOOLS:
        return TOOLS[cast(ToolName, name)]
    artifact, _, version = name.partition("@")
    if artifact != PLATFORM_LAUNCHER or not ARTIFACT_VERSION.fullmatch(version):
        raise ValueError(f"unknown tool {name!r}")
    return ToolSpec(title=f"JUnit Platform launcher {version}",
                    artifacts=(f"org.junit.platform:{PLATFORM_LAUNCHER}:{version}",))

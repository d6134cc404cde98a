"""Records of the build: frameworks, classpaths per module, pinned tools, the Maven that runs."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import Field

from junitbot.records import Record


class Frameworks(Record):
    """What the test classpath offers, so generation can adapt its style."""

    junit_jupiter: str | None = None
    junit_params: bool = Field(default=False, description="junit-jupiter-params (@ParameterizedTest) is there")
    mockito: str | None = None
    mockito_extension: bool = False
    mockito_inline: bool = False
    assertj: str | None = None
    hamcrest: str | None = None

    @property
    def mock_setup(self) -> Literal["extension", "openMocks", "initMocks"]:
        """How a test initialises `@Mock` fields with this Mockito."""
        if self.mockito_extension:
            return "extension"
        major = int((self.mockito or "2").split(".")[0] or 2)
        return "openMocks" if major >= 3 else "initMocks"


class Classpath(Record):
    """The test classpath of one build module and where it came from, with what compiling for it needs."""

    entries: tuple[str, ...]
    source: Literal["maven", "gradle", "config", "system"]
    frameworks: Frameworks
    jacoco_agent: str | None = None
    notes: tuple[str, ...] = ()
    module: str = Field(default="", description="the module's folder, relative to the repository root ('' = root)")
    release: int | None = Field(default=None, description="the Java release the module compiles for (--release)")
    processor_path: tuple[str, ...] = Field(default=(), description="annotation processors (Lombok) for javac")
    main_classes: str | None = Field(default=None, description="the module's main classes as the build compiled "
                                                               "them; None: junitbot compiles them")
    java_home: str | None = Field(default=None, description="the JDK for a release above the default JDK's")


class ProjectClasspath(Record):
    """The classpaths of a build's modules, how they were found, and which module a file belongs to."""

    modules: tuple[Classpath, ...] = Field(min_length=1)
    resolution: Literal["cached", "offline", "online", "none"] = Field(
        default="none", description="cached: no build tool ran; offline/online: how Maven resolved; none: no build")
    maven: MavenChoice | None = None
    notes: tuple[str, ...] = ()
    unbuilt: dict[str, str] = Field(default_factory=dict, description="module folder → why the build gave it no "
                                                                      "classpath (the other modules have theirs)")
    seconds: float = 0.0

    def unbuilt_module_of(self, path: str) -> str | None:
        """The folder of the module holding repo-relative `path` when the build could not give that module a
        classpath, else None."""
        parts = PurePosixPath(path).parts
        return next((folder for folder in sorted(self.unbuilt, key=len, reverse=True)
                     if folder and parts[:len(PurePosixPath(folder).parts)] == PurePosixPath(folder).parts), None)

    @property
    def primary(self) -> Classpath:
        """The root module's classpath, else the first module's (an aggregator root has no code)."""
        return next((m for m in self.modules if m.module == ""), self.modules[0])

    @property
    def source(self) -> str:
        return self.primary.source

    def module_for(self, path: str) -> Classpath:
        """The classpath of the module holding repo-relative `path` (the longest module folder that prefixes it)."""
        parts = PurePosixPath(path).parts
        holding = [m for m in self.modules if not m.module or parts[:len(PurePosixPath(m.module).parts)]
                   == PurePosixPath(m.module).parts]
        return max(holding, key=lambda m: len(m.module), default=self.primary)


class DependencyAdvice(Record):
    """A test dependency the module lacks for the generated tests, and the pom entry that adds it."""

    group_id: str
    artifact_id: str
    version: str
    reason: str

    @property
    def coordinates(self) -> str:
        return f"{self.group_id}:{self.artifact_id}:{self.version}"

    @property
    def pom_snippet(self) -> str:
        """The `<dependency>` element to add to the module's pom, in test scope."""
        return (f"<dependency>\n    <groupId>{self.group_id}</groupId>\n"
                f"    <artifactId>{self.artifact_id}</artifactId>\n    <version>{self.version}</version>\n"
                "    <scope>test</scope>\n</dependency>")

    @property
    def gradle_line(self) -> str:
        return f'testImplementation("{self.coordinates}")'


class Tool(Record):
    """A pinned Java tool in the tools cache, its files verified against the manifest's SHA-256 sums."""

    name: str
    version: str
    home: Path = Field(description="the tool's folder in the cache")
    path: Path = Field(description="its main file: the jar to run, or Maven's bin/mvn")
    classpath: tuple[Path, ...] = Field(default=(), description="every jar of the tool (PIT: with its dependencies)")
    fetched: bool = Field(default=False, description="this call fetched it (ran Maven) rather than found it cached")
    adopted: bool = Field(default=False, description="found in the cache without a record and adopted as it was")
    size_bytes: int = 0


class ToolChoice(Record):
    """Which Java tool plays a role in a run (the launcher, JaCoCo's agent or analyzer), and why a fallback."""

    tool: str = Field(description="what it is, e.g. 'junit-platform-console-standalone'")
    version: str | None = None
    source: Literal["pinned", "configured", "classpath", "debian"]
    path: Path = Field(description="the jar to run or attach")
    classpath: tuple[Path, ...] = Field(default=(), description="the jars to run it with, when not `path` alone")
    fallback: str | None = Field(default=None, description="why the pinned tool was not used, when it was not")

    @property
    def summary(self) -> str:
        """`junit-platform-console-standalone 1.14.4 (pinned)`, or a fallback and why, for reports."""
        text = " ".join(part for part in (self.tool, self.version) if part)
        where = {"pinned": "pinned", "configured": "configured", "classpath": "from the classpath",
                 "debian": "Debian's"}[self.source]
        return f"{text} ({where}; fallback: {self.fallback})" if self.fallback else f"{text} ({where})"


class MavenChoice(Record):
    """Which Maven runs a repository's build, and why (for the report)."""

    command: tuple[str, ...]
    source: Literal["wrapper", "system", "fetched"]
    version: str | None = Field(default=None, description="None: a wrapper whose version is not declared")
    reason: str

    @property
    def label(self) -> str:
        """`Maven 3.9.16`, or `mvnw` for a wrapper that does not say which Maven it brings."""
        return f"Maven {self.version}" if self.version else "mvnw"

"""Pinned Java tools fetched once from Maven Central into `<state>/tools/`, checksummed, then used offline.

The JUnit console launchers, JaCoCo's agent and CLI, PIT and Maven 3.9 are pinned in `TOOLS`; the JUnit
Platform launcher that PIT's JUnit 5 plugin needs follows the project's platform version instead
(`ensure_pit`, cached as `junit-platform-launcher@<version>`, versions side by side). Maven fetches
them (`dependency:copy-dependencies` over a generated pom, strict checksums, the configured local repository);
each file's SHA-256 goes into `manifest.json` beside them, written atomically, and is checked on every use.
While the files match, no Maven runs at all, so a runner without network keeps working from its cache. A
file that no longer matches its record is fetched again, never used. Files put into a tool's folder by hand
(a machine without Maven or network) are adopted and recorded. Otherwise a ToolUnavailableError says what to
provide, and callers fall back (Debian's jars, the system Maven).
"""

from __future__ import annotations

import datetime
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Literal, Protocol, cast
from xml.sax.saxutils import escape

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError, ToolUnavailableError
from junitbot.records import Record
from junitbot.validation.build.models import Tool
from junitbot.validation.process import ProcessResult, run_process
from junitbot.validation.build.tool_manifest import (
    STAGING_PREFIX,
    CacheEntry,
    Manifest,
    hashes,
    intact_jar,
    locked,
    matches,
    read_manifest,
    remove_stale,
    unpack_tar,
    with_entry,
    write_manifest,
)

logger = logging.getLogger(__name__)

ToolName = Literal["junit-console", "junit-console-6", "jacoco-agent", "jacoco-cli", "pitest", "maven"]


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
    "maven": ToolSpec(
        title="Apache Maven", artifacts=("org.apache.maven:apache-maven:3.9.16:tar.gz:bin",),
        unpack="bin/mvn"),
})

# Follows the project rather than a pin (PIT's JUnit 5 plugin needs the project's platform version).
PLATFORM_LAUNCHER = "junit-platform-launcher"
_ARTIFACT_VERSION = re.compile(r"\d+(?:\.\d+)*(?:[-.][A-Za-z0-9]+)*")

_FETCH_TIMEOUT_S = 900.0
_MAX_OUTPUT_BYTES = 200_000
_POM_HEAD = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
             "<groupId>junitbot.tools</groupId>")
_POM_TAIL = "<version>0</version><packaging>pom</packaging>"
_NO_TRANSITIVE = "<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>"
_LEVEL = re.compile(r"^(?:\[(?:ERROR|FATAL)\]\s*)+")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_NETWORK = re.compile(r"Could not transfer|Connect to|nknown ?host|Connection refused|Network is unreachable"
                      r"|timed out|Temporary failure in name resolution|offline", re.IGNORECASE)


class Runner(Protocol):
    """How a command runs: `run_process`, or a test's double speaking the same protocol."""

    def __call__(self, argv: Sequence[str], *, cwd: Path, timeout_s: float, max_output_bytes: int) -> ProcessResult:
        ...


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


def ensure_tool(
    name: ToolName, *, tools_dir: Path, settings: ValidationSettings, runner: Runner = run_process
) -> Tool:
    """The pinned tool `name` from the cache in `tools_dir`, fetched with Maven when missing or changed.

    Runs no process when the cached files match the manifest. Raises ToolUnavailableError when the tool
    is neither cached nor fetchable (no Maven, no network), saying what to provide.
    """
    return ensure_tools((name,), tools_dir=tools_dir, settings=settings, runner=runner)[name]


def ensure_tools(
    names: Iterable[ToolName], *, tools_dir: Path, settings: ValidationSettings, runner: Runner = run_process
) -> dict[ToolName, Tool]:
    """`ensure_tool` for several tools, fetching all that are missing in one Maven run (one start-up).

    Tools that could be had are recorded even when others could not; then ToolUnavailableError names those.
    """
    wanted = tuple(dict.fromkeys(names))
    found = _ensure(wanted, tools_dir=tools_dir, settings=settings, runner=runner)
    return {name: found[name] for name in wanted}


def ensure_pit(
    platform_launcher: str | None, *, tools_dir: Path, settings: ValidationSettings, runner: Runner = run_process
) -> tuple[Tool, Tool | None]:
    """The pinned PIT, and `org.junit.platform:junit-platform-launcher` at version `platform_launcher` when given
    (without its dependencies), fetched together in one Maven run when missing.

    PIT's JUnit 5 plugin needs the launcher of the project's own platform version, so that one follows the
    project, not a pin; it is cached and checksummed like the pinned tools, as `junit-platform-launcher@<version>`
    (versions side by side). Raises ToolUnavailableError as `ensure_tools` does, or for a malformed version.
    """
    if platform_launcher is None:
        return ensure_tool("pitest", tools_dir=tools_dir, settings=settings, runner=runner), None
    if not _ARTIFACT_VERSION.fullmatch(platform_launcher):
        raise ToolUnavailableError(f"not a Maven version: {platform_launcher!r}")
    launcher = f"{PLATFORM_LAUNCHER}@{platform_launcher}"
    found = _ensure(("pitest", launcher), tools_dir=tools_dir, settings=settings, runner=runner)
    return found["pitest"], found[launcher]


def _ensure(names: Sequence[str], *, tools_dir: Path, settings: ValidationSettings, runner: Runner) -> dict[str, Tool]:
    tools_dir = tools_dir.absolute()  # Maven runs in a staging folder
    tools_dir.mkdir(parents=True, exist_ok=True)
    with locked(tools_dir):
        read, trusted = read_manifest(tools_dir)
        manifest = read
        found: dict[str, Tool] = {}
        wanted: dict[str, CacheEntry | None] = {}
        for name in names:
            tool, manifest = _cached(name, tools_dir, manifest, trusted=trusted)
            if tool is not None:
                found[name] = tool
            else:  # to fetch, with the record that the fetched files must match
                wanted[name] = _current(manifest, name)
        fetched, failures = _fetch(wanted, tools_dir=tools_dir, settings=settings, runner=runner)
        for name, files in fetched.items():
            found[name], manifest = _installed(name, files, tools_dir, manifest)
        if manifest is not read:
            write_manifest(tools_dir, manifest)
        if failures:
            why = "; ".join(dict.fromkeys(failures.values()))
            raise ToolUnavailableError(_unavailable(failures, tools_dir), reason=why)
        return found


def cached_tool(name: ToolName, *, tools_dir: Path) -> Tool | None:
    """The pinned tool `name` when the cache in `tools_dir` holds it intact (or adoptable); never runs Maven."""
    tools_dir = tools_dir.absolute()
    if not tools_dir.is_dir():
        return None
    with locked(tools_dir):
        read, trusted = read_manifest(tools_dir)
        tool, manifest = _cached(name, tools_dir, read, trusted=trusted)
        if manifest is not read:
            write_manifest(tools_dir, manifest)
        return tool


def _cached(name: str, tools_dir: Path, manifest: Manifest, *, trusted: bool) -> tuple[Tool | None, Manifest]:
    """The tool when its folder matches its record, or holds files put there by hand (then recorded)."""
    spec, home, current = _spec(name), _home(tools_dir, name), _current(manifest, name)
    if current is not None and matches(home, current.files):
        return _tool(name, home, fetched=False), manifest
    if current is not None:
        logger.warning("the %s in %s does not match the SHA-256 recorded on %s; fetching it again",
                       spec.title, home, current.recorded_at)
    elif trusted and _adoptable(home, spec):
        logger.warning("adopting the %s found in %s without a record", spec.title, home)
        return _tool(name, home, fetched=False, adopted=True), with_entry(manifest, name, _entry(spec, hashes(home)))
    return None, manifest


def _installed(
    name: str, files: dict[str, str], tools_dir: Path, manifest: Manifest
) -> tuple[Tool, Manifest]:
    """The tool just fetched, and the manifest recording it (an older version's folder removed)."""
    spec, old = _spec(name), manifest.tools.get(name)
    if old is not None and old.version != spec.version:
        shutil.rmtree(tools_dir / f"{name}-{old.version}", ignore_errors=True)
    tool = _tool(name, _home(tools_dir, name), fetched=True)
    logger.info("fetched the %s %s: %d files, %.1f MB", spec.title, tool.version, len(files), tool.size_bytes / 1e6)
    return tool, with_entry(manifest, name, _entry(spec, files, "maven"))


def _current(manifest: Manifest, name: str) -> CacheEntry | None:
    """The tool's record when it is for the pinned version."""
    entry = manifest.tools.get(name)
    return entry if entry is not None and entry.version == _spec(name).version else None


def _fetch(
    wanted: Mapping[str, CacheEntry | None], *, tools_dir: Path, settings: ValidationSettings, runner: Runner
) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """Fetch the tools with one Maven run into a staging folder (a module per tool), then swap each in;
    returns the SHA-256 of each installed tool's files, and why each of the others could not be had."""
    if not wanted:
        return {}, {}
    mvn = shutil.which("mvn")
    if mvn is None:
        return {}, dict.fromkeys(wanted, "Maven (mvn) is not on PATH")
    remove_stale(tools_dir)
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=tools_dir))
    try:
        for name in wanted:
            (staging / _module(name)).mkdir()
            (staging / _module(name) / "pom.xml").write_text(_pom(name), encoding="utf-8")
        (staging / "pom.xml").write_text(_aggregator([_module(name) for name in wanted]), encoding="utf-8")
        try:
            result = runner(_maven_argv(mvn, staging / "pom.xml", settings), cwd=staging,
                            timeout_s=_FETCH_TIMEOUT_S, max_output_bytes=_MAX_OUTPUT_BYTES)
            failure = None if result.ok else _maven_failure(result)
        except JunitbotError as e:
            failure = str(e)
        installed: dict[str, dict[str, str]] = {}
        failures: dict[str, str] = {}
        for name, recorded in wanted.items():
            try:
                installed[name] = _install(name, staging, tools_dir, recorded, settings, failure)
            except ToolUnavailableError as e:
                failures[name] = str(e)
        return installed, failures
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _install(
    name: str, staging: Path, tools_dir: Path, recorded: CacheEntry | None, settings: ValidationSettings,
    failure: str | None,
) -> dict[str, str]:
    """Move what Maven left in `staging/<name>/out` (unpacked, for Maven itself) to the tool's folder."""
    spec, home, out = _spec(name), _home(tools_dir, name), staging / _module(name) / "out"
    if spec.unpack and (out / artifact_file(spec.artifacts[0])).is_file():
        out = unpack_tar(out / artifact_file(spec.artifacts[0]), staging / _module(name) / "unpacked")
    if not (out / spec.main).is_file():
        raise ToolUnavailableError(failure or f"Maven ran but left no {spec.main}")
    files = hashes(out)
    if recorded is not None:
        _check_same(files, recorded, settings)
    if home.exists():
        home.rename(staging / _module(name) / "replaced")
    out.rename(home)
    return files


def _home(tools_dir: Path, name: str) -> Path:
    return tools_dir / f"{_module(name)}-{_spec(name).version}"


def _module(name: str) -> str:
    """The tool's name without the version a `name@version` carries: its folder's (and Maven module's) stem."""
    return name.partition("@")[0]


def _spec(name: str) -> ToolSpec:
    """The pinned tool's spec, or that of an artifact following the project (`junit-platform-launcher@1.11.4`)."""
    if name in TOOLS:
        return TOOLS[cast(ToolName, name)]
    artifact, _, version = name.partition("@")
    if artifact != PLATFORM_LAUNCHER or not _ARTIFACT_VERSION.fullmatch(version):
        raise ValueError(f"unknown tool {name!r}")
    return ToolSpec(title=f"JUnit Platform launcher {version}",
                    artifacts=(f"org.junit.platform:{PLATFORM_LAUNCHER}:{version}",))


def _maven_argv(mvn: str, pom: Path, settings: ValidationSettings) -> list[str]:
    # -fae: a tool that cannot be had does not keep the others from being fetched.
    argv = [mvn, "-B", "-q", "-C", "-fae", "-f", str(pom)]
    if settings.maven_repo_local is not None:
        argv.append(f"-Dmaven.repo.local={settings.maven_repo_local.expanduser().absolute()}")
    return [*argv, f"{DEPENDENCY_PLUGIN}:copy-dependencies"]


def _pom(name: str) -> str:
    """A module declaring the tool's artifacts, which `dependency:copy-dependencies` copies into `out/`."""
    spec = _spec(name)
    # Not even resolved: apache-maven's pom lists Maven's own jars, jacoco.cli's the ones its nodeps jar bundles.
    exclusions = "" if spec.transitive else _NO_TRANSITIVE
    dependencies = []
    for coordinates in spec.artifacts:
        group, artifact, version, *rest = (escape(part) for part in coordinates.split(":"))
        kind = f"<type>{rest[0]}</type>" if rest else ""
        classifier = f"<classifier>{rest[1]}</classifier>" if len(rest) > 1 else ""
        dependencies.append(f"<dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
                            f"<version>{version}</version>{kind}{classifier}{exclusions}</dependency>")
    group, artifact, version = DEPENDENCY_PLUGIN.split(":")
    plugin = (f"<plugin><groupId>{group}</groupId><artifactId>{artifact}</artifactId><version>{version}</version>"
              "<configuration><outputDirectory>${project.basedir}/out</outputDirectory></configuration></plugin>")
    return (f"{_POM_HEAD}<artifactId>{escape(_module(name))}</artifactId>{_POM_TAIL}"
            f"<dependencies>{''.join(dependencies)}</dependencies><build><plugins>{plugin}</plugins></build></project>\n")


def _aggregator(names: Sequence[str]) -> str:
    modules = "".join(f"<module>{escape(name)}</module>" for name in names)
    return f"{_POM_HEAD}<artifactId>tools</artifactId>{_POM_TAIL}<modules>{modules}</modules></project>\n"


def _maven_failure(result: ProcessResult) -> str:
    """Why Maven failed, in a line: its first [ERROR] lines, and whether the network looks to blame."""
    if result.timed_out:
        return f"Maven did not finish within {_FETCH_TIMEOUT_S:.0f} s"
    text = _ANSI.sub("", result.stdout + "\n" + result.stderr)
    errors = [_LEVEL.sub("", line).strip() for line in text.splitlines() if _LEVEL.match(line)]
    detail = " ".join(line for line in errors if line and not line.startswith(("Re-run", "To see", "For more",
                                                                               "[Help", "-> [Help")))[:600]
    detail = detail or text.strip()[-600:] or f"exit code {result.exit_code}"
    if _NETWORK.search(detail):
        return ("Maven could not download from Maven Central (no network, or a proxy or mirror to configure "
                f"in ~/.m2/settings.xml?): {detail}")
    return f"Maven failed: {detail}"


def _unavailable(failures: Mapping[str, str], tools_dir: Path) -> str:
    """What could not be had and why, and how to provide it; tools failing for one reason share a line."""
    by_reason: dict[str, list[str]] = {}
    for name, why in failures.items():
        by_reason.setdefault(why, []).append(name)
    lines = []
    for why, names in by_reason.items():
        tools = ", ".join(f"the {_spec(name).title} ({', '.join(_spec(name).artifacts)})" for name in names)
        places = "; ".join(f"{_wanted(name)} into {_home(tools_dir, name)}/" for name in names)
        hints = "".join(_spec(name).hint for name in names)
        lines.append(f"cannot fetch {tools}: {why}. Run once where Maven reaches Maven Central, or put {places} "
                     f"(checksummed and recorded on first use){hints}")
    return "\n".join(lines)


def _wanted(name: str) -> str:
    """The files to put into the tool's folder by hand."""
    spec = _spec(name)
    files = " and ".join(artifact_file(a) for a in spec.artifacts)
    if spec.unpack:
        return f"the contents of the folder in {files} (with {spec.unpack})"
    return f"{files} with their dependencies" if spec.transitive else files


def _check_same(files: Mapping[str, str], recorded: CacheEntry, settings: ValidationSettings) -> None:
    """A file fetched again must be the one recorded: releases on Maven Central never change."""
    changed = sorted(path for path, digest in files.items() if recorded.files.get(path, digest) != digest)
    if changed:
        repo = settings.maven_repo_local or Path("~/.m2/repository")
        raise ToolUnavailableError(
            f"fetched again, it differs from the copy recorded on {recorded.recorded_at} ({', '.join(changed[:3])}): "
            f"Maven's local repository ({repo}) may hold a damaged copy; delete the artifact's folder there so "
            "Maven downloads it anew")


def _adoptable(home: Path, spec: ToolSpec) -> bool:
    """Whether `home` holds the tool's files, put there by hand: each main jar intact, or Maven's bin/mvn."""
    if spec.unpack:
        return os.access(home / spec.main, os.X_OK)
    return all(intact_jar(home / artifact_file(a)) for a in spec.artifacts)


def _tool(name: str, home: Path, *, fetched: bool, adopted: bool = False) -> Tool:
    spec = _spec(name)
    classpath = () if spec.unpack else tuple(sorted(home.glob("*.jar")))
    size = sum(path.stat().st_size for path in home.rglob("*") if path.is_file())
    return Tool(name=name, version=spec.version, home=home, path=home / spec.main, classpath=classpath,
                fetched=fetched, adopted=adopted, size_bytes=size)


def _entry(spec: ToolSpec, files: dict[str, str], source: Literal["maven", "adopted"] = "adopted") -> CacheEntry:
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    return CacheEntry(version=spec.version, artifacts=spec.artifacts, files=files, source=source, recorded_at=now)



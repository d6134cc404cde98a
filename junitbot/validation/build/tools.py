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
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from junitbot.config import ValidationSettings
from junitbot.errors import ToolUnavailableError
from junitbot.validation.build.models import Tool
from junitbot.validation.build.tool_fetch import fetch_tools, unavailable
from junitbot.validation.build.tool_manifest import (
    CacheEntry,
    Manifest,
    hashes,
    intact_jar,
    locked,
    matches,
    read_manifest,
    with_entry,
    write_manifest,
)
from junitbot.validation.build.tool_specs import (
    ARTIFACT_VERSION,
    PLATFORM_LAUNCHER,
    ToolName,
    ToolSpec,
    artifact_file,
    tool_home,
    tool_spec,
)
from junitbot.validation.process import Runner, run_process

logger = logging.getLogger(__name__)


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
    if not ARTIFACT_VERSION.fullmatch(platform_launcher):
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
        fetched, failures = fetch_tools(wanted, tools_dir=tools_dir, settings=settings, runner=runner)
        for name, files in fetched.items():
            found[name], manifest = _installed(name, files, tools_dir, manifest)
        if manifest is not read:
            write_manifest(tools_dir, manifest)
        if failures:
            why = "; ".join(dict.fromkeys(failures.values()))
            raise ToolUnavailableError(unavailable(failures, tools_dir), reason=why)
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
    spec, home, current = tool_spec(name), tool_home(tools_dir, name), _current(manifest, name)
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
    spec, old = tool_spec(name), manifest.tools.get(name)
    if old is not None and old.version != spec.version:
        shutil.rmtree(tools_dir / f"{name}-{old.version}", ignore_errors=True)
    tool = _tool(name, tool_home(tools_dir, name), fetched=True)
    logger.info("fetched the %s %s: %d files, %.1f MB", spec.title, tool.version, len(files), tool.size_bytes / 1e6)
    return tool, with_entry(manifest, name, _entry(spec, files, "maven"))


def _current(manifest: Manifest, name: str) -> CacheEntry | None:
    """The tool's record when it is for the pinned version."""
    entry = manifest.tools.get(name)
    return entry if entry is not None and entry.version == tool_spec(name).version else None


def _adoptable(home: Path, spec: ToolSpec) -> bool:
    """Whether `home` holds the tool's files, put there by hand: each main jar intact, or Maven's bin/mvn."""
    if spec.unpack:
        return os.access(home / spec.main, os.X_OK)
    return all(intact_jar(home / artifact_file(a)) for a in spec.artifacts)


def _tool(name: str, home: Path, *, fetched: bool, adopted: bool = False) -> Tool:
    spec = tool_spec(name)
    classpath = () if spec.unpack else tuple(sorted(home.glob("*.jar")))
    size = sum(path.stat().st_size for path in home.rglob("*") if path.is_file())
    return Tool(name=name, version=spec.version, home=home, path=home / spec.main, classpath=classpath,
                fetched=fetched, adopted=adopted, size_bytes=size)


def _entry(spec: ToolSpec, files: dict[str, str], source: Literal["maven", "adopted"] = "adopted") -> CacheEntry:
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    return CacheEntry(version=spec.version, artifacts=spec.artifacts, files=files, source=source, recorded_at=now)



"""Which Java tools judge a run: the pinned launcher and JaCoCo from the tools cache, else Debian's.

Per role, first that can be had:
- launcher: the pinned console launcher for the classpath's Jupiter major (6.x for Jupiter 6, else 1.14),
  then a console-standalone jar on the classpath, then Debian's (JUnit 5.9);
- JaCoCo agent: `validation.jacoco_agent`, then the pinned shaded agent, then Debian's unshaded 0.8.6 agent
  (jacoco.py wraps it in a jar that names its PreMain);
- JaCoCo analyzer: the pinned org.jacoco.cli nodeps jar (core and asm relocated inside it), then Debian's
  org.jacoco.core 0.8.6 and asm jars, which cannot read sealed types.
With `tools_dir=None` no pinned tool is looked for. A missing launcher is fetched with both JaCoCo tools
(and a missing agent with the analyzer), so that a cold cache costs one Maven start, not three. Tools that
cannot be had (no Maven, no network) cost that one Maven run and a warning each when first replaced:
Maven is not tried again for them in this process for five minutes (the cache is still looked at), so the
many JVMs of one validation do not each start Maven.
"""

from __future__ import annotations

import logging
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError, ToolUnavailableError
from junitbot.validation.build.frameworks import detect_frameworks, jar_version
from junitbot.validation.build.models import Tool, ToolChoice
from junitbot.validation.build.tool_specs import ToolName, junit_console_for
from junitbot.validation.build.tools import cached_tool, ensure_tools

logger = logging.getLogger(__name__)

SYSTEM_JARS = Path("/usr/share/java")
SYSTEM_LAUNCHER = SYSTEM_JARS / "junit-platform-console-standalone.jar"
LAUNCHER = "junit-platform-console-standalone"
# Debian's JaCoCo: the agent's classes are not shaded, so core and asm come along.
DEBIAN_AGENT_JARS = ("org.jacoco.agent.rt.jar", "org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar")
DEBIAN_ANALYZER_JARS = ("org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar")
_RETRY_AFTER_S = 300.0


@dataclass
class _Failure:
    at: float
    error: ToolUnavailableError
    warned: bool = False


# (tools dir, tool) -> its last failure: a cache of failures only, so several processes stay correct.
_unavailable: dict[tuple[str, ToolName], _Failure] = {}


def choose_launcher(classpath: Sequence[str], *, tools_dir: Path | None, settings: ValidationSettings) -> ToolChoice:
    """The console launcher that runs tests on `classpath`: the pinned one for its Jupiter, else the
    classpath's own console-standalone jar, else Debian's."""
    fallback = None
    if tools_dir is not None:
        name = junit_console_for(detect_frameworks(classpath).junit_jupiter)
        try:
            tool = _pinned(name, tools_dir=tools_dir, settings=settings, fetch_with=("jacoco-agent", "jacoco-cli"),
                           instead="the classpath's or Debian's launcher")
            return ToolChoice(tool=LAUNCHER, version=tool.version, source="pinned", path=tool.path)
        except ToolUnavailableError as e:
            fallback = e.reason
    for entry in classpath:
        if is_console_launcher(entry):
            return ToolChoice(tool=LAUNCHER, version=jar_version(Path(entry)), source="classpath", path=Path(entry),
                              fallback=fallback)
    if not SYSTEM_LAUNCHER.is_file():
        raise JunitbotError(
            f"no JUnit console launcher: {SYSTEM_LAUNCHER} is missing and the classpath has none "
            "(apt-get install junit5, or add junit-platform-console-standalone.jar to validation.classpath)"
            + (f"; the pinned launcher could not be had either: {fallback}" if fallback else "")
        )
    return ToolChoice(tool=LAUNCHER, version=jar_version(SYSTEM_LAUNCHER), source="debian", path=SYSTEM_LAUNCHER,
                      fallback=fallback)


def choose_agent(*, tools_dir: Path | None, settings: ValidationSettings) -> ToolChoice:
    """The JaCoCo agent: the configured one (checked), else the pinned shaded one, else Debian's jars."""
    if settings.jacoco_agent is not None:
        path = checked_agent(settings.jacoco_agent)
        return ToolChoice(tool=path.name, version=jar_version(path), source="configured", path=path)
    fallback = None
    if tools_dir is not None:
        try:
            tool = _pinned("jacoco-agent", tools_dir=tools_dir, settings=settings, fetch_with=("jacoco-cli",),
                           instead="Debian's JaCoCo agent")
            return ToolChoice(tool="org.jacoco.agent", version=tool.version, source="pinned", path=tool.path)
        except ToolUnavailableError as e:
            fallback = e.reason
    jars = tuple(_debian_jar(name, fallback) for name in DEBIAN_AGENT_JARS)
    return ToolChoice(tool="org.jacoco.agent.rt", version=jar_version(jars[0]), source="debian", path=jars[0],
                      classpath=jars, fallback=fallback)


def choose_byte_buddy(*, tools_dir: Path, settings: ValidationSettings) -> Tool:
    """The pinned Byte Buddy the carver agent instruments with; raises ToolUnavailableError (warned once) where it
    cannot be had: the baseline then runs without carving."""
    return _pinned("byte-buddy", tools_dir=tools_dir, settings=settings,
                   instead="no carver (the existing tests run without recording arguments)")


def choose_analyzer(*, tools_dir: Path | None, settings: ValidationSettings) -> ToolChoice:
    """JaCoCo's analysis API: the pinned command line jar (nodeps), else Debian's core and asm jars."""
    fallback = None
    if tools_dir is not None:
        try:
            tool = _pinned("jacoco-cli", tools_dir=tools_dir, settings=settings, instead="Debian's JaCoCo 0.8.6")
            return ToolChoice(tool="org.jacoco.cli", version=tool.version, source="pinned", path=tool.path,
                              classpath=(tool.path,))
        except ToolUnavailableError as e:
            fallback = e.reason
    jars = tuple(_debian_jar(name, fallback) for name in DEBIAN_ANALYZER_JARS)
    return ToolChoice(tool="org.jacoco.core", version=jar_version(jars[0]), source="debian", path=jars[0],
                      classpath=jars, fallback=fallback)


def judging_tools(classpath: Sequence[str], *, tools_dir: Path | None, settings: ValidationSettings) -> dict[str, str]:
    """Which launcher and JaCoCo judge runs on `classpath`, by role, for the report: the choices the runs make."""
    choosers: dict[str, Callable[[], ToolChoice]] = {
        "junit": partial(choose_launcher, classpath, tools_dir=tools_dir, settings=settings),
        "jacoco agent": partial(choose_agent, tools_dir=tools_dir, settings=settings),
        "jacoco analyzer": partial(choose_analyzer, tools_dir=tools_dir, settings=settings),
    }
    tools = {}
    for role, choose in choosers.items():
        try:
            tools[role] = choose().summary
        except JunitbotError as e:
            tools[role] = f"none: {str(e).splitlines()[0]}"
    return tools


def is_console_launcher(entry: str | Path) -> bool:
    """Whether a classpath entry is a console-standalone jar (it bundles the platform and Jupiter)."""
    name = Path(entry).name
    return name.startswith(LAUNCHER) and name.endswith(".jar")


def checked_agent(path: Path) -> Path:
    """`validation.jacoco_agent`, resolved, once it is known to be a Java agent (a jar naming a Premain-Class)."""
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", errors="replace")
    except (OSError, KeyError, zipfile.BadZipFile) as e:
        raise JunitbotError(f"validation.jacoco_agent {path}: not a readable jar with a manifest ({e})") from e
    unfolded = manifest.replace("\r\n", "\n").replace("\n ", "")
    if not any(line.startswith("Premain-Class:") for line in unfolded.splitlines()):
        raise JunitbotError(
            f"validation.jacoco_agent {path} has no Premain-Class, so it is no Java agent: "
            "use the shaded runtime agent (jacocoagent.jar, Maven org.jacoco:org.jacoco.agent:<version>:runtime)"
        )
    return path.resolve()


def _pinned(
    name: ToolName, *, tools_dir: Path, settings: ValidationSettings, instead: str, fetch_with: Sequence[ToolName] = ()
) -> Tool:
    """The pinned tool from the cache, else fetched (with the tools `fetch_with` it is used with).

    A failure is remembered for a while, for each tool of the fetch that is still missing: meanwhile only
    the cache is looked at, and Maven is not run. The first time a tool is replaced, a warning says so.
    """
    tool = cached_tool(name, tools_dir=tools_dir)
    if tool is not None:
        return tool
    key = (str(tools_dir.absolute()), name)
    failure = _unavailable.get(key)
    if failure is None or time.monotonic() - failure.at >= _RETRY_AFTER_S:
        try:
            return ensure_tools((name, *fetch_with), tools_dir=tools_dir, settings=settings)[name]
        except ToolUnavailableError as e:
            had = {n: cached_tool(n, tools_dir=tools_dir) for n in (name, *fetch_with)}
            tool = had[name]
            if tool is not None:  # fetched, though one it goes with was not
                return tool
            for other in (n for n, found in had.items() if found is None):
                _unavailable[(key[0], other)] = _Failure(at=time.monotonic(), error=e)
            failure = _unavailable[key]
    if not failure.warned:
        failure.warned = True
        logger.warning("using %s instead of the pinned %s: %s", instead, name, failure.error)
    raise ToolUnavailableError(str(failure.error), reason=failure.error.reason)


def _debian_jar(name: str, fallback: str | None) -> Path:
    path = SYSTEM_JARS / name
    if not path.is_file():
        raise JunitbotError(
            f"JaCoCo is not installed: {path} is missing "
            "(apt-get install libjacoco-java, or set validation.jacoco_agent to a shaded agent jar)"
            + (f"; the pinned JaCoCo could not be had either: {fallback}" if fallback else "")
        )
    return path

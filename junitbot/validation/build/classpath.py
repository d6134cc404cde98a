"""The test classpath of each module: from config, else the Maven build (per module, online once then offline,
cached), else Gradle offline, else Debian's jars; with the frameworks each offers (`frameworks.py`)."""

from __future__ import annotations

import functools
import glob
import logging
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.state import DEFAULT_STATE_DIR, StateDir
from junitbot.validation.build.frameworks import detect_frameworks
from junitbot.validation.build.maven import maven_command
from junitbot.validation.build.maven_classpath import MavenRun, cached_classpaths, resolve_maven_classpaths
from junitbot.validation.build.models import Classpath, ProjectClasspath
from junitbot.validation.build.poms import read_modules
from junitbot.validation.process import Runner, run_process

log = logging.getLogger(__name__)

SYSTEM_JAR_DIR = Path("/usr/share/java")
# Debian's names for the jars a JUnit 5 + Mockito test needs (ARCHITECTURE.md, "Java toolchain").
SYSTEM_JARS = ("junit-platform-console-standalone.jar", "mockito-core.jar", "byte-buddy.jar",
               "byte-buddy-agent.jar", "objenesis.jar", "opentest4j.jar", "apiguardian-api.jar")
OPTIONAL_SYSTEM_JARS = ("assertj-core.jar", "hamcrest.jar")

def discover_classpaths(
    root: Path, settings: ValidationSettings, *, state: StateDir | None = None, build_timeout_s: float = 900.0,
    runner: Runner = run_process,
) -> ProjectClasspath:
    """Config first (it is explicit), then the Maven build per module, then Gradle offline, then the system jars.

    `state` holds the tools cache and the classpath cache (default: `<root>/.junitbot`).
    """
    notes: list[str] = []
    if settings.classpath:
        return _single(_classpath(_expand(root, settings.classpath), "config", notes))
    if (root / "pom.xml").is_file():
        found = _maven_classpaths(root, settings, state or StateDir(root / DEFAULT_STATE_DIR), build_timeout_s,
                                  runner)
        if isinstance(found, ProjectClasspath):
            return found
        log.warning("no classpath from the Maven build of %s: %s", root, found)
        notes.append(f"maven: {found}")
    if any((root / name).is_file() for name in ("build.gradle", "build.gradle.kts")):
        entries, note = _gradle_classpath(root, build_timeout_s)
        notes.append(note)
        if entries:
            return _single(_classpath(entries, "gradle", notes))
    return _single(_classpath(system_jars(), "system", notes))


def discover_classpath(root: Path, settings: ValidationSettings, *, state: StateDir | None = None) -> Classpath:
    """The classpath of the root module (or the first module of an aggregator build)."""
    return discover_classpaths(root, settings, state=state).primary


def _single(classpath: Classpath) -> ProjectClasspath:
    return ProjectClasspath(modules=(classpath,), notes=classpath.notes)


def _maven_classpaths(
    root: Path, settings: ValidationSettings, state: StateDir, timeout_s: float, runner: Runner
) -> ProjectClasspath | str:
    modules = read_modules(root)
    cached = cached_classpaths(root, modules, settings=settings, cache_dir=state.classpaths)
    if cached is not None:
        return cached
    try:
        maven = maven_command(root, tools_dir=state.tools, settings=settings, runner=runner)
    except JunitbotError as e:
        return f"no usable Maven: {e}"
    build = MavenRun(root=root, maven=maven, settings=settings, runner=runner, timeout_s=timeout_s)
    return resolve_maven_classpaths(modules, build=build, cache_dir=state.classpaths)


def system_jars() -> list[str]:
    """Debian's JUnit 5 and Mockito jars; a clear error when they are missing."""
    missing = [name for name in SYSTEM_JARS if not (SYSTEM_JAR_DIR / name).is_file()]
    if missing:
        raise JunitbotError(
            f"the Java test jars are missing from {SYSTEM_JAR_DIR} ({', '.join(missing)}): run scripts/setup.sh, "
            "or set validation.classpath in .junitbot.yml"
        )
    optional = [name for name in OPTIONAL_SYSTEM_JARS if (SYSTEM_JAR_DIR / name).is_file()]
    return [str(SYSTEM_JAR_DIR / name) for name in (*SYSTEM_JARS, *optional)]


def _expand(root: Path, patterns: Sequence[str]) -> list[str]:
    entries: list[str] = []
    for pattern in patterns:
        path = Path(pattern) if Path(pattern).is_absolute() else root / pattern
        matches = sorted(glob.glob(str(path))) if any(c in pattern for c in "*?[") else [str(path)]
        if not matches or not all(Path(m).exists() for m in matches):
            raise JunitbotError(f"validation.classpath entry {pattern!r} matches nothing under {root}")
        entries.extend(matches)
    return entries


_GRADLE_INIT = """
allprojects {
    tasks.register("junitbotClasspath") {
        doLast {
            def cp = project.configurations.findByName("testRuntimeClasspath")
            if (cp != null) { println("JUNITBOT_CP=" + cp.resolve().join(File.pathSeparator)) }
        }
    }
}
"""


def _gradle_classpath(root: Path, timeout_s: float) -> tuple[list[str], str]:
    gradle = str(root / "gradlew") if (root / "gradlew").is_file() else "gradle"
    with tempfile.TemporaryDirectory() as scratch:
        init = Path(scratch) / "junitbot.gradle"
        init.write_text(_GRADLE_INIT)
        try:
            result = run_process([gradle, "--offline", "-q", "--init-script", str(init), "junitbotClasspath"],
                                 cwd=root, timeout_s=timeout_s, max_output_bytes=2_000_000)
        except JunitbotError as e:
            return [], f"gradle not usable: {e}"
    lines = [line for line in result.stdout.splitlines() if line.startswith("JUNITBOT_CP=")]
    if result.exit_code != 0 or not lines:
        return [], "gradle --offline could not resolve testRuntimeClasspath"
    entries = sorted({e for line in lines for e in line.removeprefix("JUNITBOT_CP=").split(":") if e})
    return entries, f"gradle: {len(entries)} entries"


def _classpath(
    entries: Sequence[str], source: Literal["maven", "gradle", "config", "system"], notes: list[str]
) -> Classpath:
    return Classpath(entries=tuple(entries), source=source, frameworks=detect_frameworks(entries), notes=tuple(notes))


def test_sources(root: Path, module: Classpath) -> list[str]:
    """The module's test source folder (Maven's layout), where the tests' helpers and base classes live."""
    folder = root / module.module / "src" / "test" / "java"
    return [str(folder)] if folder.is_dir() else []


def resource_folders(root: Path, module: Classpath) -> list[str]:
    """The module's test and main resource folders, which the build puts on the test classpath (after the
    compiled classes, so resources the build filtered into them win)."""
    folders = (root / module.module / "src" / side / "resources" for side in ("test", "main"))
    return [str(f) for f in folders if f.is_dir()]


def classpath_packages(entries: Sequence[str]) -> frozenset[str]:
    """The packages the classpath's jars hold, so that the static passes know an import of a library the build
    declares (commons-lang3, junit-pioneer) from a made-up one; folders (the repo's own classes) are the graph's."""
    packages: set[str] = set()
    for entry in entries:
        path = Path(entry)
        if path.suffix == ".jar" and path.is_file():
            stat = path.stat()
            packages |= _jar_packages(str(path), stat.st_mtime_ns, stat.st_size)
    return frozenset(packages)


@functools.lru_cache(maxsize=1024)
def _jar_packages(jar: str, mtime_ns: int, size: int) -> frozenset[str]:
    """A jar's packages (cached per file version: a run validates many classes against the same jars)."""
    try:
        with zipfile.ZipFile(jar) as archive:
            names = archive.namelist()
    except (OSError, zipfile.BadZipFile) as e:
        log.debug("cannot list %s: %s", jar, e)
        return frozenset()
    return frozenset(name.rsplit("/", 1)[0].replace("/", ".") for name in names
                     if name.endswith(".class") and "/" in name and not name.startswith("META-INF/"))

"""The test classpath: from Maven or Gradle when they work offline, from config, else the system jars.

Also reports which JUnit, Mockito (with or without `mockito-junit-jupiter`, inline mock maker) and
AssertJ the classpath offers, so generated tests use what is there.
"""

from __future__ import annotations

import glob
import logging
import re
import tempfile
import zipfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.models import Classpath, Frameworks
from junitbot.validation.process import run_process

log = logging.getLogger(__name__)

SYSTEM_JAR_DIR = Path("/usr/share/java")
# Debian's names for the jars a JUnit 5 + Mockito test needs (ARCHITECTURE.md, "Java toolchain").
SYSTEM_JARS = ("junit-platform-console-standalone.jar", "mockito-core.jar", "byte-buddy.jar",
               "byte-buddy-agent.jar", "objenesis.jar", "opentest4j.jar", "apiguardian-api.jar")
OPTIONAL_SYSTEM_JARS = ("assertj-core.jar", "hamcrest.jar")

_MARKERS = {
    "junit": "org/junit/jupiter/api/Test.class",
    "mockito": "org/mockito/Mockito.class",
    "extension": "org/mockito/junit/jupiter/MockitoExtension.class",
    "assertj": "org/assertj/core/api/Assertions.class",
    "hamcrest": "org/hamcrest/Matcher.class",
    "mock_maker": "mockito-extensions/org.mockito.plugins.MockMaker",
}
_VERSION_IN_NAME = re.compile(r"-(\d+(?:\.\d+)+)(?:[-.][\w.]+)?\.jar$")


def discover_classpath(root: Path, settings: ValidationSettings, *, build_timeout_s: float = 120.0) -> Classpath:
    """Config first (it is explicit), then the build tool offline, then the system jars."""
    notes: list[str] = []
    if settings.classpath:
        entries = _expand(root, settings.classpath)
        return _classpath(entries, "config", notes)
    if (root / "pom.xml").is_file():
        entries, note = _maven_classpath(root, build_timeout_s, settings.maven_repo_local)
        notes.append(note)
        if entries:
            return _classpath(entries, "maven", notes)
    if any((root / name).is_file() for name in ("build.gradle", "build.gradle.kts")):
        entries, note = _gradle_classpath(root, build_timeout_s)
        notes.append(note)
        if entries:
            return _classpath(entries, "gradle", notes)
    return _classpath(system_jars(), "system", notes)


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


def _maven_classpath(root: Path, timeout_s: float, repo_local: Path | None) -> tuple[list[str], str]:
    local = [f"-Dmaven.repo.local={repo_local.expanduser().absolute()}"] if repo_local is not None else []
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "cp.txt"
        try:
            result = run_process(
                ["mvn", "-o", "-q", "-B", *local, "dependency:build-classpath", "-Dmdep.includeScope=test",
                 f"-Dmdep.outputFile={out}"],
                cwd=root, timeout_s=timeout_s, max_output_bytes=200_000,
            )
        except JunitbotError as e:
            return [], f"maven not usable: {e}"
        if result.exit_code != 0 or not out.is_file():
            tail = (result.stdout + result.stderr).strip().splitlines()[-1:] or ["no output"]
            return [], f"mvn -o dependency:build-classpath failed (offline?): {tail[0][:200]}"
        entries = [e for e in out.read_text().strip().split(":") if e]
    return entries, f"maven: {len(entries)} entries"


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


def detect_frameworks(entries: Sequence[str]) -> Frameworks:
    """Which test libraries the classpath holds, and their versions, by looking inside the jars."""
    found: dict[str, str | None] = {}
    inline = False
    for entry in entries:
        contents = _jar_contents(entry)
        for key, marker in _MARKERS.items():
            if marker in contents and key not in found:
                found[key] = _jar_version(entry)
        if "inline" in Path(entry).name or contents.get(_MARKERS["mock_maker"]) == "mock-maker-inline":
            inline = True
    return Frameworks(
        junit_jupiter=found.get("junit") or ("5" if "junit" in found else None),
        mockito=found.get("mockito") or ("2" if "mockito" in found else None),
        mockito_extension="extension" in found,
        mockito_inline=inline,
        assertj=found.get("assertj") or ("3" if "assertj" in found else None),
        hamcrest=found.get("hamcrest") or ("2" if "hamcrest" in found else None),
    )


@lru_cache(maxsize=512)
def _jar_contents(entry: str) -> dict[str, str]:
    """Marker entries present in a jar (or class folder); the mock maker file's content is read."""
    path = Path(entry)
    present: dict[str, str] = {}
    if path.is_dir():
        for marker in _MARKERS.values():
            if (path / marker).is_file():
                present[marker] = (path / marker).read_text(errors="replace").strip()
        return present
    try:
        with zipfile.ZipFile(path) as jar:
            names = set(jar.namelist())
            for marker in _MARKERS.values():
                if marker in names:
                    present[marker] = jar.read(marker).decode(errors="replace").strip() if marker.startswith(
                        "mockito-extensions") else ""
    except (OSError, zipfile.BadZipFile):
        log.warning("classpath entry %s is not a readable jar", entry)
    return present


@lru_cache(maxsize=512)
def _jar_version(entry: str) -> str | None:
    """The version in the jar's name, else its manifest's Implementation-Version or Bundle-Version."""
    real = Path(entry).resolve()
    match = _VERSION_IN_NAME.search(real.name)
    if match:
        return match.group(1)
    try:
        with zipfile.ZipFile(real) as jar:
            manifest = jar.read("META-INF/MANIFEST.MF").decode(errors="replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    for key in ("Implementation-Version", "Bundle-Version"):
        found = re.search(rf"^{key}:\s*(\S+)", manifest, re.MULTILINE)
        if found:
            return found.group(1)
    return None

"""Which JDK compiles and runs a module's tests: the one on PATH, unless the module's release needs a newer one.

javac 17 cannot compile for release 21 (joda-money) and a Java 17 JVM cannot load its classes, so a module
whose release is above the default JDK's version gets the oldest installed JDK that is new enough
(`/usr/lib/jvm/*`, `JAVA_HOME`), read from each JDK's `release` file. None: the default serves.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)

JVM_ROOTS = (Path("/usr/lib/jvm"),)
_VERSION = re.compile(r'^JAVA_VERSION="(?:1\.)?(\d+)', re.MULTILINE)

# The JVMs junitbot starts (javac, the test launcher, PIT, the coverage dump) live seconds: C2 compiles and the
# parallel collector's threads cost more than they return. C1 only with the serial collector takes about half the
# CPU and a quarter to a half less time (javac on 264 files: 4.4 s -> 2.4 s; a JUnit run of two classes: 1.9 s ->
# 1.4 s). Known to every HotSpot since 8; OpenJ9 ignores -XX options it does not know.
QUICK_JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
# Mockito's inline mock maker attaches Byte Buddy's agent to the JVM that runs the tests. A JVM 9+ refuses to attach
# to itself without this, and Byte Buddy then starts a helper `java` to attach from outside: a second JVM per test
# run and per PIT minion (15 in one run of the example's tests).
SELF_ATTACH = "-Djdk.attach.allowAttachSelf=true"


def javac_jvm_options() -> list[str]:
    """`QUICK_JVM_OPTIONS` as javac passes them on to its JVM."""
    return [f"-J{option}" for option in QUICK_JVM_OPTIONS]


def java_home_for(release: int | None) -> str | None:
    """The JDK home to use for `release`, or None when the default JDK (the `javac` on PATH) is new enough,
    unknown, or no installed JDK is (then javac says why, naming the release)."""
    if release is None:
        return None
    default = default_jdk_version()
    if default is not None and default >= release:
        return None
    newer = sorted((version, home) for home, version in installed_jdks().items() if version >= release)
    if not newer:
        log.warning("the module compiles for Java %d but no JDK %d or newer is installed", release, release)
        return None
    return str(newer[0][1])


def maven_invocation(
    argv: Sequence[str], java_home: str | None, environ: Mapping[str, str] = os.environ
) -> list[str]:
    """`argv` (Maven or its wrapper) run with JAVA_HOME set to that JDK when given (how both pick their JVM), and
    Maven's own JVM on C1 only (`MAVEN_OPTS`, before the user's, which win). No collector is chosen: a
    `.mvn/jvm.config` choosing another would make the JVM refuse to start; the tests Surefire forks are not
    affected."""
    options = " ".join([QUICK_JVM_OPTIONS[0], environ.get("MAVEN_OPTS", "")]).strip()
    return ["env", *([f"JAVA_HOME={java_home}"] if java_home else []), f"MAVEN_OPTS={options}", *argv]


def java_tool(java_home: str | None, tool: str) -> str:
    """`java`/`javac` of that JDK, or the one on PATH."""
    return str(Path(java_home) / "bin" / tool) if java_home else tool


def java_version(java_home: str | None) -> int | None:
    """The major version of the `java` that `java_tool(java_home, "java")` names: that JDK's, else the default's."""
    return jdk_version(Path(java_home)) if java_home else default_jdk_version()


@lru_cache(maxsize=1)
def default_jdk_version() -> int | None:
    """The version of the JDK whose `javac` is on PATH."""
    javac = shutil.which("javac")
    if javac is None:
        return None
    return jdk_version(Path(javac).resolve().parent.parent)


@lru_cache(maxsize=1)
def installed_jdks() -> dict[Path, int]:
    """JDK homes (with javac) under the usual roots and JAVA_HOME, with their major versions."""
    homes = [child for root in JVM_ROOTS if root.is_dir() for child in root.iterdir()]
    if os.environ.get("JAVA_HOME"):
        homes.append(Path(os.environ["JAVA_HOME"]))
    found: dict[Path, int] = {}
    for home in homes:
        resolved = home.resolve()
        version = jdk_version(resolved)
        if version is not None and (resolved / "bin" / "javac").is_file():
            found[resolved] = version
    return found


def jdk_version(home: Path) -> int | None:
    """The major version in a JDK's `release` file (`JAVA_VERSION="25.0.3"` -> 25, `"1.8.0"` -> 8)."""
    try:
        match = _VERSION.search((home / "release").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    return int(match.group(1)) if match else None

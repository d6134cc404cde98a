"""Which Maven runs a repository's build: its wrapper, the system Maven when it is 3.9 or newer, else 3.9 cached.

Debian's Maven 3.8 is too old for current Apache builds (commons-parent's enforcer requires `[3.9,)`, recent
plugins refuse to load), so Maven 3.9 from the tools cache is preferred whenever the system one is older.
Only when 3.9 cannot be had does the older one run, and only for a build whose enforcer does not refuse it.
The choice and its reason go into the report.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
from pathlib import Path

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError, ToolUnavailableError
from junitbot.validation.build.models import MavenChoice
from junitbot.validation.build.poms import pom_enforced_version
from junitbot.validation.build.tools import ensure_tool
from junitbot.validation.process import Runner, run_process

logger = logging.getLogger(__name__)

PREFERRED_MAVEN = "3.9"
_VERSION_TIMEOUT_S = 60.0
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_WRAPPER_PROPERTIES = Path(".mvn/wrapper/maven-wrapper.properties")


def maven_command(
    repo: Path, *, tools_dir: Path, settings: ValidationSettings, runner: Runner = run_process
) -> MavenChoice:
    """The Maven command for `repo`'s build, with which Maven it is and why.

    `mvnw` when the repository has one; else the system `mvn` when it is 3.9 or newer; else Maven 3.9
    from the tools cache (fetched once). Raises ToolUnavailableError when no usable Maven can be had.
    """
    wrapper = repo / "mvnw"
    if wrapper.is_file():
        return _wrapper_choice(repo, wrapper)
    system = _system_maven(repo, runner)
    if system is not None and _key(system[1]) >= _key(PREFERRED_MAVEN):
        return MavenChoice(command=(system[0],), source="system", version=system[1],
                           reason=f"the system Maven {system[1]} is 3.9 or newer")
    required = required_maven_version(repo / "pom.xml")
    why = f"the system Maven {system[1]} is older than 3.9" if system else "no Maven on PATH"
    try:
        tool = ensure_tool("maven", tools_dir=tools_dir, settings=settings, runner=runner)
    except ToolUnavailableError as e:
        if system is None or (required is not None and not version_satisfies(system[1], required)):
            needs = f"Maven {required}" if required else "Maven"
            raise ToolUnavailableError(f"{repo.name} needs {needs}: {why}, and {e}") from e
        logger.warning("Maven 3.9 unavailable, building %s with the system Maven %s: %s", repo, system[1], e)
        return MavenChoice(command=(system[0],), source="system", version=system[1],
                           reason=f"{why}, but Maven 3.9 could not be fetched ({e})")
    needs = f"; the build requires Maven {required}" if required else ""
    return MavenChoice(command=(str(tool.path),), source="fetched", version=tool.version,
                       reason=f"{why}{needs}: Maven {tool.version} from the tools cache")


def required_maven_version(pom: Path) -> str | None:
    """The Maven version range the pom's enforcer requires (`requireMavenVersion`), e.g. `[3.9,)`; None when
    it declares none (a parent's requirement is not seen here) or the pom cannot be read."""
    return pom_enforced_version(pom, "requireMavenVersion")


def version_satisfies(version: str, requirement: str) -> bool:
    """Whether `version` meets a Maven requirement: a range such as `[3.9,)` or `[3.6.3,4)`, several
    ranges joined by commas, or a bare version meaning that one or newer."""
    ranges = re.findall(r"[\[(][^\])]*[\])]", requirement)
    if not ranges:
        return _key(version) >= _key(requirement)
    return any(_in_range(_key(version), spec) for spec in ranges)


def _in_range(key: tuple[int, ...], spec: str) -> bool:
    body = spec[1:-1]
    if "," not in body:
        return key == _key(body)
    low, high = (part.strip() for part in body.split(",", 1))
    if low and (key < _key(low) or (key == _key(low) and spec[0] == "(")):
        return False
    return not high or key < _key(high) or (key == _key(high) and spec[-1] == "]")


def _key(version: str) -> tuple[int, ...]:
    """3.9 -> (3, 9, 0, 0): numbers of the release part, so 3.9 equals 3.9.0."""
    numbers = [int(n) for n in re.findall(r"\d+", version.split("-")[0])][:4]
    return tuple(numbers + [0] * (4 - len(numbers)))


def _wrapper_choice(repo: Path, wrapper: Path) -> MavenChoice:
    executable = os.access(wrapper, os.X_OK)
    version = _wrapper_version(repo)
    reason = "the repository's Maven wrapper (mvnw)"
    reason += f", which brings Maven {version}" if version else ""
    reason += "" if executable else "; mvnw is not executable, so it runs through sh"
    return MavenChoice(command=(str(wrapper),) if executable else ("sh", str(wrapper)), source="wrapper",
                       version=version, reason=reason)


def _wrapper_version(repo: Path) -> str | None:
    """The Maven version the wrapper downloads, from its distributionUrl."""
    try:
        text = (repo / _WRAPPER_PROPERTIES).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    match = re.search(r"^\s*distributionUrl\s*[=:].*?apache-maven-(\d[\w.]*?)-bin\.", text, re.MULTILINE)
    return match.group(1) if match else None


def _system_maven(repo: Path, runner: Runner) -> tuple[str, str] | None:
    """The system `mvn` and its version, or None when there is none or it does not say."""
    mvn = shutil.which("mvn")
    if mvn is None:
        return None
    try:
        if runner is run_process:
            installed = os.stat(os.path.realpath(mvn))
            version = _installed_version(mvn, installed.st_mtime_ns, installed.st_size)
        else:
            version = _version(mvn, repo, runner)
    except (JunitbotError, OSError) as e:
        logger.warning("%s", e)
        return None
    return mvn, version


@functools.lru_cache(maxsize=8)
def _installed_version(mvn: str, mtime_ns: int, size: int) -> str:
    """The version of the Maven installed as `mvn` (cached per version of its script on disk: `mvn -v` starts a
    JVM, and one process asks for the build's Maven at each step, 23 times in the test suite; a failure is not
    cached). Asked from Maven's own folder, which no project's `.mvn` settings reach."""
    return _version(mvn, Path(mvn).parent, run_process)


def _version(mvn: str, cwd: Path, runner: Runner) -> str:
    """What `mvn -v` says its version is; JunitbotError when it cannot run or names none."""
    try:
        result = runner([mvn, "-B", "-v"], cwd=cwd, timeout_s=_VERSION_TIMEOUT_S, max_output_bytes=65536)
    except JunitbotError as e:
        raise JunitbotError(f"cannot run {mvn} -v: {e}") from e
    match = re.search(r"Apache Maven (\d+(?:\.\d+)*)", _ANSI.sub("", result.stdout))
    if not result.ok or match is None:
        raise JunitbotError(f"{mvn} -v failed or named no version: "
                            f"{(result.stderr or result.stdout).strip()[-300:]}")
    return match.group(1)

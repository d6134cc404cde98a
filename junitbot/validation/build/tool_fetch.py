"""Fetching pinned tools: one Maven run over a generated pom into a staging folder, then each swapped into its folder.

Every file's SHA-256 is returned for the manifest (`tool_manifest.py`); a tool fetched again must match what was
recorded. What could not be had is said with how to provide it by hand (`unavailable`).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError, ToolUnavailableError
from junitbot.validation.build.tool_manifest import STAGING_PREFIX, CacheEntry, hashes, remove_stale, unpack_tar
from junitbot.validation.build.tool_specs import DEPENDENCY_PLUGIN, artifact_file, tool_folder, tool_home, tool_spec
from junitbot.validation.process import ProcessResult, Runner

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


def fetch_tools(
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
            (staging / tool_folder(name)).mkdir()
            (staging / tool_folder(name) / "pom.xml").write_text(_pom(name), encoding="utf-8")
        (staging / "pom.xml").write_text(_aggregator([tool_folder(name) for name in wanted]), encoding="utf-8")
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
    spec, home, out = tool_spec(name), tool_home(tools_dir, name), staging / tool_folder(name) / "out"
    if spec.unpack and (out / artifact_file(spec.artifacts[0])).is_file():
        out = unpack_tar(out / artifact_file(spec.artifacts[0]), staging / tool_folder(name) / "unpacked")
    if not (out / spec.main).is_file():
        raise ToolUnavailableError(failure or f"Maven ran but left no {spec.main}")
    files = hashes(out)
    if recorded is not None:
        _check_same(files, recorded, settings)
    if home.exists():
        home.rename(staging / tool_folder(name) / "replaced")
    out.rename(home)
    return files


def _maven_argv(mvn: str, pom: Path, settings: ValidationSettings) -> list[str]:
    # -fae: a tool that cannot be had does not keep the others from being fetched.
    argv = [mvn, "-B", "-q", "-C", "-fae", "-f", str(pom)]
    if settings.maven_repo_local is not None:
        argv.append(f"-Dmaven.repo.local={settings.maven_repo_local.expanduser().absolute()}")
    return [*argv, f"{DEPENDENCY_PLUGIN}:copy-dependencies"]


def _pom(name: str) -> str:
    """A module declaring the tool's artifacts, which `dependency:copy-dependencies` copies into `out/`."""
    spec = tool_spec(name)
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
    return (f"{_POM_HEAD}<artifactId>{escape(tool_folder(name))}</artifactId>{_POM_TAIL}"
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


def unavailable(failures: Mapping[str, str], tools_dir: Path) -> str:
    """What could not be had and why, and how to provide it; tools failing for one reason share a line."""
    by_reason: dict[str, list[str]] = {}
    for name, why in failures.items():
        by_reason.setdefault(why, []).append(name)
    lines = []
    for why, names in by_reason.items():
        tools = ", ".join(f"the {tool_spec(name).title} ({', '.join(tool_spec(name).artifacts)})" for name in names)
        places = "; ".join(f"{_wanted(name)} into {tool_home(tools_dir, name)}/" for name in names)
        hints = "".join(tool_spec(name).hint for name in names)
        lines.append(f"cannot fetch {tools}: {why}. Run once where Maven reaches Maven Central, or put {places} "
                     f"(checksummed and recorded on first use){hints}")
    return "\n".join(lines)


def _wanted(name: str) -> str:
    """The files to put into the tool's folder by hand."""
    spec = tool_spec(name)
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

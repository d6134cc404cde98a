"""Each Maven module's test classpath and main classes from the build itself, online once, then offline, cached.

One Maven run at the root compiles the main code of every module (`compile`: Lombok and other processors run
as the build configures them, resources are copied) and writes each module's test-scope classpath to its own
`target/junitbot-classpath.txt` (a relative output file, so modules do not overwrite one another; a module
depending on a sibling gets the sibling's `target/classes`, nothing needs installing). Offline (`-o`) first;
online only when something is missing from the local repository. The result is cached in the state directory
under the poms' hash and a stamp of each module's main sources, so an unchanged build runs no Maven at all.
When the compile fails (a broken class), the classpath alone is resolved and junitbot compiles what compiles.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from junitbot.atomic import write_atomically
from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.records import Record
from junitbot.validation.build.frameworks import detect_frameworks
from junitbot.validation.build.jdk import java_home_for, maven_invocation
from junitbot.validation.build.models import Classpath, MavenChoice, ProjectClasspath
from junitbot.validation.build.poms import MavenModule, build_jdk, class_file_release
from junitbot.validation.build.tool_specs import DEPENDENCY_PLUGIN
from junitbot.validation.process import ProcessResult, Runner

log = logging.getLogger(__name__)

CLASSPATH_FILE = "target/junitbot-classpath.txt"
# Plugins a classpath or test run does not need, and that fail builds on generated files or slow them down.
SKIP_FLAGS = ("-Drat.skip=true", "-Dcheckstyle.skip=true", "-Dspotbugs.skip=true", "-Dpmd.skip=true",
              "-Dcpd.skip=true", "-Djapicmp.skip=true", "-Danimal.sniffer.skip=true", "-Dcyclonedx.skip=true",
              "-Dmoditect.skip=true", "-Djacoco.skip=true", "-Dmaven.javadoc.skip=true", "-Dlicense.skip=true",
              "-Dspotless.check.skip=true", "-Dformatter.skip=true", "-Denforcer.skip=false")
_MISSING = re.compile(r"offline mode|has not been downloaded|Could not resolve|Cannot access|could not be resolved"
                      r"|was not found in|Failed to read artifact descriptor|Non-resolvable", re.IGNORECASE)
_LEVEL = re.compile(r"^(?:\[(?:ERROR|FATAL)\]\s*)+")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_MAX_OUTPUT_BYTES = 400_000
_CACHED_BUILDS = 16  # resolutions kept, the most recently used: each edit of a main source makes one


class _Cached(Record):
    """What the state directory keeps of one resolution."""

    key: str
    stamps: dict[str, str]
    modules: tuple[Classpath, ...]
    maven: MavenChoice | None = None


def cached_classpaths(
    root: Path, modules: Sequence[MavenModule], *, settings: ValidationSettings, cache_dir: Path,
) -> ProjectClasspath | None:
    """The modules' classpaths as a resolution of these poms and main sources left them in `cache_dir`, when
    everything they name is still there; no process runs."""
    started = time.perf_counter()
    coded = [m for m in modules if m.has_code]
    key, stamps = _key(root, modules, settings), _stamps(root, coded)
    cached = _load(_cache_file(cache_dir, key, stamps), key, stamps)
    if cached is None:
        return None
    return ProjectClasspath(modules=cached.modules, resolution="cached", maven=cached.maven,
                            seconds=round(time.perf_counter() - started, 3))


@dataclass(frozen=True)
class MavenRun:
    """How junitbot runs the project's Maven: in `root`, which Maven, the settings (local repository), the runner
    (`run_process`, or a test's double) and the time one run may take."""

    root: Path
    maven: MavenChoice
    settings: ValidationSettings
    runner: Runner
    timeout_s: float


def resolve_maven_classpaths(
    modules: Sequence[MavenModule], *, build: MavenRun, cache_dir: Path | None,
) -> ProjectClasspath | str:
    """The modules' classpaths from the build, or why Maven could not give them; a compiled result is cached in
    `cache_dir`."""
    started = time.perf_counter()
    root, settings = build.root, build.settings
    coded = [m for m in modules if m.has_code]
    if not coded:
        return "the Maven build declares no module with code"
    for module in coded:
        (root / module.path / CLASSPATH_FILE).unlink(missing_ok=True)
    notes: list[str] = []
    java_home = java_home_for(build_jdk(modules))
    resolution, compiled = _run_maven(build, notes, java_home, coded)
    if resolution is None:
        return "; ".join(notes)
    found = tuple(_module_classpath(root, module, settings, compiled) for module in coded)
    missing = [m.path or "." for m, cp in zip(coded, found, strict=True) if cp is None]
    classpaths = tuple(cp for cp in found if cp is not None)
    if not classpaths:
        return f"Maven wrote no classpath for {', '.join(missing)}"
    why = notes[-1] if notes else "no reason given"
    if missing:  # not cached: a later run tries those modules again
        log.warning("Maven wrote no classpath for %s (the build failed there; their classes are left out): %s",
                    ", ".join(missing), why)
        notes.append(f"no classpath for {', '.join(missing)}: Maven could not build them")
    elif compiled and cache_dir is not None:
        # Stamped after the run: the sources Maven compiled are the ones a later call compares with.
        key, stamps = _key(root, modules, settings), _stamps(root, coded)
        _store(cache_dir, _cache_file(cache_dir, key, stamps),
               _Cached(key=key, stamps=stamps, modules=classpaths, maven=build.maven))
    return ProjectClasspath(modules=classpaths, resolution=resolution, maven=build.maven, notes=tuple(notes),
                            unbuilt=dict.fromkeys((m for m in missing if m != "."), why[:600]),
                            seconds=round(time.perf_counter() - started, 3))


def _stamps(root: Path, modules: Sequence[MavenModule]) -> dict[str, str]:
    return {m.path: _sources_stamp(root / m.path) for m in modules}


def _run_maven(build: MavenRun, notes: list[str], java_home: str | None,
               coded: Sequence[MavenModule]) -> tuple[str | None, bool]:
    """(offline/online or None when it failed, whether main classes were compiled): compile + classpath, offline
    then online; when compiling fails for another reason, the classpath alone (junitbot compiles then).

    Maven runs with `--fail-at-end`: one module that cannot build (an integration-test module whose artifacts come
    from a repository this runner cannot reach) costs that module and those that need it; when the others wrote
    their classpaths, the run counts, and the caller says which modules have none."""
    for goals, compiled in ((("compile",), True), ((), False)):
        for offline in (True, False):
            result = _maven(build, goals=goals, offline=offline, java_home=java_home)
            if result.ok:
                if not offline:
                    log.info("Maven resolved the build's dependencies online; later runs work offline")
                return ("offline" if offline else "online"), compiled
            why = _failure(result)
            notes.append(f"mvn {'-o ' if offline else ''}{' '.join(goals)} dependency:build-classpath failed: {why}")
            if not _MISSING.search(why):
                break  # not a missing artifact: going online would not help
        if any((build.root / m.path / CLASSPATH_FILE).is_file() for m in coded):
            return ("offline" if offline else "online"), compiled
        if compiled:
            log.warning("Maven could not compile %s (%s); resolving the classpath alone", build.root, notes[-1])
    return None, False


def _maven(build: MavenRun, *, goals: Sequence[str], offline: bool, java_home: str | None) -> ProcessResult:
    argv = [*maven_invocation(build.maven.command, java_home), "-q", "-B", "-fae", *(["-o"] if offline else []),
            *maven_repo_flag(build.settings), *goals, f"{DEPENDENCY_PLUGIN}:build-classpath",
            "-Dmdep.includeScope=test", f"-Dmdep.outputFile={CLASSPATH_FILE}", *SKIP_FLAGS]
    try:
        return build.runner(argv, cwd=build.root, timeout_s=build.timeout_s, max_output_bytes=_MAX_OUTPUT_BYTES)
    except JunitbotError as e:
        return ProcessResult(argv=tuple(argv), exit_code=None, stdout="", stderr=str(e), timed_out=False, seconds=0.0)


def maven_repo_flag(settings: ValidationSettings) -> list[str]:
    """`-Dmaven.repo.local=...` when a local repository is configured (the one every junitbot Maven run uses)."""
    if settings.maven_repo_local is None:
        return []
    return [f"-Dmaven.repo.local={settings.maven_repo_local.expanduser().absolute()}"]


def _failure(result: ProcessResult) -> str:
    """Maven's first error lines, in one line."""
    if result.timed_out:
        return "timed out"
    text = _ANSI.sub("", result.stdout + "\n" + result.stderr)
    errors = [_LEVEL.sub("", line).strip() for line in text.splitlines() if _LEVEL.match(line)]
    errors = [e for e in errors if e and not e.startswith(("Re-run", "To see", "For more", "-> [Help", "[Help"))]
    return " ".join(errors)[:600] or text.strip()[-600:] or f"exit code {result.exit_code}"


def _module_classpath(
    root: Path, module: MavenModule, settings: ValidationSettings, compiled: bool
) -> Classpath | None:
    folder = root / module.path
    written = folder / CLASSPATH_FILE
    if not written.is_file():
        return None
    entries = tuple(e for e in written.read_text(encoding="utf-8").strip().split(os.pathsep) if e)
    classes = folder / "target" / "classes"
    main = str(classes) if compiled and classes.is_dir() else None
    release = module.release or (class_file_release(classes) if main else None)
    return Classpath(entries=entries, source="maven", frameworks=detect_frameworks(entries), module=module.path,
                     release=release, processor_path=_processor_path(module, entries, settings), main_classes=main,
                     java_home=java_home_for(release),
                     notes=(f"maven: {len(entries)} entries",))


def _processor_path(module: MavenModule, entries: Sequence[str], settings: ValidationSettings) -> tuple[str, ...]:
    """The jars of the declared annotation processors in the local repository; without a declaration, Lombok
    from the classpath (javac finds processors on the classpath, as the build's compiler does)."""
    repository = (settings.maven_repo_local or Path("~/.m2/repository")).expanduser()
    if module.processors:
        jars = []
        for coordinates in module.processors:
            group, artifact, version = coordinates.split(":")
            jar = repository / group.replace(".", "/") / artifact / version / f"{artifact}-{version}.jar"
            if jar.is_file():
                jars.append(str(jar))
        return tuple(jars)
    return tuple(e for e in entries if Path(e).name.startswith("lombok") and e.endswith(".jar"))


def _cache_file(cache_dir: Path, key: str, stamps: dict[str, str]) -> Path:
    """One file per poms and main sources: going back to a branch's sources finds its resolution again."""
    digest = hashlib.sha256(key.encode())
    for module, stamp in sorted(stamps.items()):
        digest.update(f"\0{module}\0{stamp}".encode())
    return cache_dir / f"{digest.hexdigest()[:32]}.json"


def _key(root: Path, modules: Sequence[MavenModule], settings: ValidationSettings) -> str:
    """What the resolution depends on besides the sources: the poms, Maven's own config, the local repository.
    Not which Maven ran: any Maven that can build the poms resolves the same classpath."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(module.path.encode() + b"\0" + _read(root / module.path / "pom.xml"))
    for name in (".mvn/maven.config", ".mvn/jvm.config", ".mvn/extensions.xml"):
        digest.update(name.encode() + b"\0" + _read(root / name))
    digest.update(str(settings.maven_repo_local).encode())
    return digest.hexdigest()


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _sources_stamp(module: Path) -> str:
    """Size and modification time of every file under the module's src/main: cheap, and changes with any edit."""
    digest = hashlib.sha256()
    main = module / "src" / "main"
    for folder, dirs, files in os.walk(main):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder) / name
            try:
                stat = path.stat()
            except OSError:
                continue
            digest.update(f"{path.relative_to(main)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _load(cache_file: Path, key: str, stamps: dict[str, str]) -> _Cached | None:
    """The cache when the key and stamps match and everything it names is still there."""
    if not cache_file.is_file():
        return None
    try:
        cached = _Cached.model_validate_json(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError, ValidationError):
        log.warning("ignoring the unreadable classpath cache %s", cache_file)
        return None
    if cached.key != key or cached.stamps != stamps:
        return None
    paths = [p for m in cached.modules
             for p in (*m.entries, *m.processor_path, *([m.main_classes] if m.main_classes else []))]
    if not all(Path(p).exists() for p in paths):
        return None
    with contextlib.suppress(OSError):
        os.utime(cache_file)  # used: the last to go when the folder is trimmed
    return cached


def _store(cache_dir: Path, cache_file: Path, cached: _Cached) -> None:
    """Written via a temporary file and a rename: a killed run never leaves half a cache. The `_CACHED_BUILDS`
    most recently used stay."""
    write_atomically(cache_file, cached.model_dump_json())
    files = sorted(cache_dir.glob("*.json"), key=_modified, reverse=True)
    for old in files[_CACHED_BUILDS:]:
        old.unlink(missing_ok=True)


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0

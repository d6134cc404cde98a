"""Class-data archives of the JVMs junitbot starts by the hundred, javac and the JUnit console launcher, one per
JDK (and launcher jar): the JVM maps the classes it loads at start-up from the archive instead of reading, parsing
and verifying them each time.

Most of those JVMs compile or run a handful of classes, so start-up is most of their work: with an archive a small
compile takes about a third less CPU (0.80 → 0.53 s on JDK 17), a JUnit run of one class too (0.90 → 0.55 s). An
archive is dumped once (`-XX:ArchiveClassesAtExit`, JDK 13 and later) by compiling, then running, a small class,
into the user's cache folder, keyed by the JDK's home, release file and module image (a JDK upgraded in place gets a
new one) and by the launcher jar. The JVM checks an archive before mapping it and starts without it when it does
not fit; its words on that are silenced so that they never mix with javac's diagnostics or a run's output.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from junitbot.atomic import exclusive
from junitbot.validation.build.jdk import QUICK_JVM_OPTIONS, jdk_version
from junitbot.validation.process import run_process

log = logging.getLogger(__name__)

_FIRST_VERSION = 13  # dynamic archives (-XX:ArchiveClassesAtExit) came with JDK 13
_TIMEOUT_S = 120
# Archives kept in the cache folder, the newest first: one per JDK and tool folder in use, and a few for tool
# folders since removed (a test session's), never a pile.
_MAX_ARCHIVES = 12
_QUIET = ("-Xlog:cds=off", "-Xlog:cds+dynamic=off")
# What the dumps compile and run: generics, a lambda, an annotation, a nested class and two JUnit tests load most
# of what javac loads for a test class and the launcher for a run.
_WARM_UP = """import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.*;
import java.util.function.*;
import org.junit.jupiter.api.Test;

public class WarmUpTest {
    static final class Box<T extends Comparable<T>> {
        private final List<T> items = new ArrayList<>();

        void add(T item) { items.add(item); }

        Optional<T> max() { return items.stream().max(Comparator.naturalOrder()); }
    }

    @Test
    void boxes() {
        Box<String> box = new Box<>();
        box.add("b");
        box.add("a");
        assertEquals("b", box.max().orElse(""));
    }

    @Test
    @Deprecated
    void counts() {
        Function<Integer, String> text = i -> "n" + i;
        assertEquals("n2", text.apply(Map.of("a", 2).get("a")));
    }
}
"""
# The same without JUnit, for javac's dump (no launcher needed): the test annotations become comments.
_PLAIN = _WARM_UP.replace("import static org.junit.jupiter.api.Assertions.assertEquals;\n", "").replace(
    "import org.junit.jupiter.api.Test;\n", "").replace("@Test", "// a test").replace(
    "assertEquals(", "Objects.equals(")

# (the JDK's `javac` or `java`, the archive to write, a scratch folder) → the command that dumps it.
Dump = Callable[[Path, Path, Path], list[str]]


def cache_folder() -> Path:
    """Where the archives live: `$XDG_CACHE_HOME/junitbot/cds`, else `~/.cache/junitbot/cds`."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "junitbot" / "cds"


def javac_archive_options(java_home: str | None) -> list[str]:
    """The javac options that map the archive of the JDK at `java_home` (the one on PATH when None), dumped first
    where there is none yet; none for a JDK older than 13 or where no archive can be made."""
    return [f"-J{option}" for option in _mapping(javac_archive(java_home, cache_folder()))]


def launcher_archive_options(java_home: str | None, launcher: Path, *, execute: bool) -> list[str]:
    """The JVM options that map the archive of the console launcher jar `launcher` on that JDK, dumped first where
    there is none yet; none where none can be made. `execute`: the launcher takes its options after an `execute`
    command."""
    return _mapping(launcher_archive(java_home, launcher, execute, cache_folder()))


def _mapping(archive: Path | None) -> list[str]:
    return [f"-XX:SharedArchiveFile={archive}", *_QUIET] if archive is not None else []


@lru_cache(maxsize=8)
def javac_archive(java_home: str | None, folder: Path) -> Path | None:
    """The archive of that JDK's javac in `folder` (see `_archive`)."""

    def dump(javac: Path, archive: Path, scratch: Path) -> list[str]:
        source = scratch / "WarmUpTest.java"
        source.write_text(_PLAIN, encoding="utf-8")
        return [str(javac), *(f"-J{o}" for o in (f"-XX:ArchiveClassesAtExit={archive}", *_QUIET,
                                                  *QUICK_JVM_OPTIONS)),
                "-nowarn", "-d", str(scratch / "classes"), str(source)]

    return _archive(_tool(java_home, "javac"), "javac", (), folder, dump)


@lru_cache(maxsize=8)
def launcher_archive(java_home: str | None, launcher: Path, execute: bool, folder: Path) -> Path | None:
    """The archive of the console launcher jar `launcher` run by that JDK's java, in `folder` (see `_archive`). The
    runs start the launcher with `-jar`, so the archive's class path is the launcher's whatever the tests' is."""

    def dump(java: Path, archive: Path, scratch: Path) -> list[str]:
        source = scratch / "WarmUpTest.java"
        source.write_text(_WARM_UP, encoding="utf-8")
        compiled = run_process([str(java.parent / "javac"), *(f"-J{o}" for o in QUICK_JVM_OPTIONS), "-nowarn",
                                "-cp", str(launcher), "-d", str(scratch), str(source)],
                               cwd=scratch, timeout_s=_TIMEOUT_S, max_output_bytes=20_000)
        if not compiled.ok:
            raise OSError(f"cannot compile the warm-up test: {compiled.stderr.strip()[:300]}")
        return [str(java), f"-XX:ArchiveClassesAtExit={archive}", *_QUIET, *QUICK_JVM_OPTIONS, "-jar",
                str(launcher), *(["execute"] if execute else []), "--disable-banner",
                "--details=none", f"--class-path={scratch}", "--select-class=WarmUpTest"]

    try:
        stamp = launcher.stat()
    except OSError:
        return None
    return _archive(_tool(java_home, "java"), "launcher",
                    (str(launcher.resolve()), f"{stamp.st_size}:{stamp.st_mtime_ns}"), folder, dump)


def _tool(java_home: str | None, tool: str) -> Path | None:
    found = str(Path(java_home) / "bin" / tool) if java_home else shutil.which(tool)
    return Path(found) if found and Path(found).is_file() else None


def _archive(tool: Path | None, kind: str, key_parts: Sequence[str], folder: Path, dump: Dump) -> Path | None:
    """The archive of `tool`'s JVM in `folder`, dumped by `dump` when missing (one process at a time, into a
    scratch folder, then moved into place whole); None where the JDK is older than 13 or unknown, or the dump
    failed (logged: the JVM runs as well without it)."""
    if tool is None:
        return None
    home = tool.resolve().parent.parent
    version = jdk_version(home)
    if version is None or version < _FIRST_VERSION:
        return None
    try:
        image = (home / "lib" / "modules").stat()
        release = (home / "release").read_bytes()
    except OSError:
        return None
    key = hashlib.sha256(b"\0".join([str(home).encode(), release, f"{image.st_size}:{image.st_mtime_ns}".encode(),
                                     *(part.encode() for part in key_parts)]))
    archive = folder / f"{kind}-{version}-{key.hexdigest()[:16]}.jsa"
    if archive.is_file():
        return archive
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with exclusive(folder / f".{archive.name}.lock"):
            if not archive.is_file():  # else the process that held the lock before dumped it
                with tempfile.TemporaryDirectory(prefix=f".{kind}-", dir=folder) as scratch:
                    dumped = Path(scratch) / "dumped.jsa"
                    result = run_process(dump(tool, dumped, Path(scratch)), cwd=Path(scratch),
                                         timeout_s=_TIMEOUT_S, max_output_bytes=20_000)
                    if not result.ok or not dumped.is_file():
                        raise OSError((result.stderr or result.stdout).strip()[:300] or "no archive written")
                    os.replace(dumped, archive)
            _prune(folder, keep=archive)
    except OSError as error:
        log.info("no class-data archive for %s: %s", tool, error)
        return None
    return archive


def _prune(folder: Path, *, keep: Path) -> None:
    """Remove the oldest archives beyond `_MAX_ARCHIVES` (a JVM that mapped one keeps its mapping)."""
    archives = sorted(folder.glob("*.jsa"), key=lambda path: path.stat().st_mtime_ns, reverse=True)
    for old in [path for path in archives if path != keep][_MAX_ARCHIVES - 1:]:
        old.unlink(missing_ok=True)

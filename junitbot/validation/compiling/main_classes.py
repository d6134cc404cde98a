"""The project's main classes, compiled once per run and reused while sources and classpath are unchanged."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from junitbot.errors import JunitbotError
from junitbot.records import Record
from junitbot.validation.build.models import Classpath
from junitbot.validation.compiling.javac import compile_batch
from junitbot.validation.compiling.models import JavacOptions

log = logging.getLogger(__name__)

_MAIN_TIMEOUT_S = 900.0
_MAIN_JAVAC = JavacOptions(timeout_s=_MAIN_TIMEOUT_S)


class MainBuild(Record):
    """Where the main classes are, whether they were reused, and the files that did not compile."""

    classes_dir: Path
    reused: bool
    failed: tuple[str, ...] = ()


def module_main_classes(
    root: Path, sources: Sequence[tuple[str, str]], *, classpath: Classpath, cache_root: Path
) -> MainBuild:
    """The module's main classes: the build's own output when it compiled them (Lombok and all), else compiled by
    junitbot from `sources` for the module's release, under `cache_root/<module>`."""
    if classpath.main_classes is not None:
        return MainBuild(classes_dir=Path(classpath.main_classes), reused=True)
    return build_main_classes(root, sources, classpath=classpath.entries, options=main_javac(classpath),
                              cache_dir=cache_root / (classpath.module.replace("/", "_") or "_root"))


def main_javac(module: Classpath) -> JavacOptions:
    """How a module's main classes compile: its release, JDK and annotation processors, and more time than tests."""
    return JavacOptions(release=module.release, processor_path=module.processor_path, java_home=module.java_home,
                        timeout_s=_MAIN_TIMEOUT_S)


def build_main_classes(
    root: Path, sources: Sequence[tuple[str, str]], *, classpath: Sequence[str], cache_dir: Path,
    options: JavacOptions = _MAIN_JAVAC, kind: str = "main",
) -> MainBuild:
    """Compile `sources` ((path, blob sha) pairs) into a folder of `cache_dir` named by a hash of the inputs,
    unless the same inputs already are.

    Files that fail to compile are reported (as `kind` source files: main, or the existing tests the baseline
    runs) and left out, so one broken class never blocks validation of tests for the others.
    """
    inputs = [list(sources), list(classpath), options.release, list(options.processor_path), options.java_home,
              list(options.source_path)]
    stamp = hashlib.sha256(json.dumps(inputs).encode()).hexdigest()[:24]
    # One folder per set of inputs, moved into place whole: partitions of a full pass that build at once never
    # see half a build, nor lose the folder a JVM of theirs is reading.
    classes = cache_dir / f"classes-{stamp}"
    failed_file = cache_dir / f"failed-{stamp}.json"
    if classes.is_dir() and failed_file.is_file():
        os.utime(classes)  # in use: kept by the pruning below
        return MainBuild(classes_dir=classes, reused=True, failed=tuple(json.loads(failed_file.read_text())))
    if not sources:
        raise JunitbotError(f"no {kind} Java sources to compile under {root}: run `junitbot index` first")
    cache_dir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="classes.tmp-", dir=cache_dir))
    try:
        results = compile_batch([root / path for path, _ in sources], classpath=classpath, out_dir=scratch,
                                options=options)
        failed = sorted(str(path.relative_to(root)) for path, result in results.items() if not result.compiled)
        if failed:
            log.warning("%d %s source files do not compile and are left out: %s", len(failed), kind,
                        ", ".join(failed[:5]))
        draft = failed_file.with_suffix(f".{os.getpid()}.tmp")
        draft.write_text(json.dumps(failed))
        os.replace(draft, failed_file)
        try:
            scratch.rename(classes)
        except OSError:  # a concurrent build of the same inputs got there first: its folder is as good
            shutil.rmtree(scratch, ignore_errors=True)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    _prune(cache_dir, keep=classes)
    return MainBuild(classes_dir=classes, reused=False, failed=tuple(failed))


_KEEP_BUILDS = 3
_STALE_S = 3600.0


def _prune(cache_dir: Path, *, keep: Path) -> None:
    """Remove the builds of other inputs beyond the few used last, once unused for an hour (a partition of a
    full pass may still be reading one it built a minute ago)."""
    now = time.time()
    builds = []
    for folder in cache_dir.glob("classes-*"):
        try:
            builds.append((folder.stat().st_mtime, folder))
        except OSError:
            continue
    builds.sort(reverse=True)
    for used, folder in builds[_KEEP_BUILDS:]:
        if folder != keep and now - used > _STALE_S:
            shutil.rmtree(folder, ignore_errors=True)
            (cache_dir / f"failed-{folder.name.removeprefix('classes-')}.json").unlink(missing_ok=True)

"""The project's main classes, compiled once per run and reused while sources and classpath are unchanged."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
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
    """Compile `sources` ((path, blob sha) pairs) into `cache_dir/classes`, unless the same inputs already are.

    Files that fail to compile are reported (as `kind` source files: main, or the existing tests the baseline
    runs) and left out, so one broken class never blocks validation of tests for the others.
    """
    inputs = [list(sources), list(classpath), options.release, list(options.processor_path), options.java_home,
              list(options.source_path)]
    stamp = hashlib.sha256(json.dumps(inputs).encode()).hexdigest()
    classes = cache_dir / "classes"
    stamp_file = cache_dir / "stamp.json"
    if stamp_file.is_file() and classes.is_dir():
        recorded = json.loads(stamp_file.read_text())
        if recorded.get("stamp") == stamp:
            return MainBuild(classes_dir=classes, reused=True, failed=tuple(recorded.get("failed", ())))
    if not sources:
        raise JunitbotError(f"no {kind} Java sources to compile under {root}: run `junitbot index` first")
    scratch = cache_dir / "classes.tmp"
    shutil.rmtree(scratch, ignore_errors=True)
    results = compile_batch([root / path for path, _ in sources], classpath=classpath, out_dir=scratch,
                            options=options)
    failed = sorted(str(path.relative_to(root)) for path, result in results.items() if not result.compiled)
    if failed:
        log.warning("%d %s source files do not compile and are left out: %s", len(failed), kind,
                    ", ".join(failed[:5]))
    shutil.rmtree(classes, ignore_errors=True)
    scratch.rename(classes)
    stamp_file.write_text(json.dumps({"stamp": stamp, "failed": failed}))
    return MainBuild(classes_dir=classes, reused=False, failed=tuple(failed))

"""Java helper classes junitbot ships as source (package data) and compiles once per classpath into a cache.

The output folder is named after a hash of the sources and the classpath they compiled against, so a newer
junitbot or another project's libraries never run stale classes, and a finished folder is renamed into place
atomically: two runs sharing a cache never see half-written classes.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from junitbot.errors import JunitbotError
from junitbot.validation.javac import compile_batch


def compiled_helper(
    name: str, sources: Mapping[str, str], *, classpath: Sequence[str], cache_dir: Path,
    resources: Mapping[str, str] | None = None, optional: Sequence[str] = (),
) -> Path:
    """The folder holding `sources` (relative path → Java text) compiled against `classpath`, plus `resources`
    (relative path → text, e.g. a `META-INF/services` file).

    Sources named in `optional` may fail to compile (an API the project's library version lacks): the others
    are kept. Raises JunitbotError when a required source does not compile.
    """
    key = hashlib.sha256(repr((sorted(sources.items()), sorted((resources or {}).items()),
                               list(classpath))).encode()).hexdigest()[:12]
    target = cache_dir / f"{name}-{key}"
    if (target / ".complete").is_file():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=cache_dir))
    try:
        files = []
        for relative, text in sources.items():
            file = build / "src" / relative
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text, encoding="utf-8")
            files.append(file)
        results = compile_batch(files, classpath=classpath, out_dir=build / "classes")
        failed = [f for f, r in results.items() if not r.compiled and f.relative_to(build / "src").as_posix()
                  not in optional]
        if failed:
            issues = [i.message for f in failed for i in results[f].issues]
            raise JunitbotError(f"junitbot's {name} classes do not compile against this classpath: {issues[:3]}")
        for relative, text in (resources or {}).items():
            file = build / "classes" / relative
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text, encoding="utf-8")
        (build / "classes" / ".complete").write_text("", encoding="utf-8")
        try:
            (build / "classes").rename(target)
        except OSError:
            if not (target / ".complete").is_file():
                raise
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return target

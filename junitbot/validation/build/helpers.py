"""junitbot's own Java helpers (`java/*.java`, package data), compiled on first use into a cache dir.

One folder per helper, source and the classpath it was compiled against: the folder's name carries a hash of
both, so a helper is compiled once per cache dir and classpath, and a changed source or tool gets a new folder.
The folder is moved into place whole (an atomic rename), so concurrent runs never see half a build, and built
under a lock, so concurrent runs (a class's two repeated runs side by side, partitions) compile it once; the
folder can go straight onto a JVM's classpath, with `META-INF/services` entries when the helper is a service.
Every helper lives in one cache, `helper_cache(tools_dir)`: its folders are content-addressed, so a tools cache
shared by runners or repositories shares them too.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from junitbot.atomic import exclusive
from junitbot.errors import JunitbotError
from junitbot.validation.build.jdk import javac_jvm_options
from junitbot.validation.process import run_process

_TIMEOUT_S = 300.0


def helper_cache(tools_dir: Path) -> Path:
    """The one folder junitbot's compiled helpers are cached in, beside the pinned tools they are compiled
    against."""
    return tools_dir / "compiled"


def compiled_helper(
    name: str,
    *,
    classpath: Sequence[Path],
    cache_dir: Path,
    folder_prefix: str,
    edit_source: Callable[[str], str] | None = None,
    services: Mapping[str, str] | None = None,
    source_file: Traversable | None = None,
    javac: str = "javac",
) -> Path:
    """The folder holding `<name>.class` (and its nested classes), compiled from `java/<name>.java` against
    `classpath`, with the source as compiled beside it.

    `source_file`: a helper kept elsewhere in junitbot's package data; `name` is then its qualified class name
    (`junitbot.recorder.Recorder`), and its class file lies in the package's folders.

    `javac`: the compiler, when the class must load on that JDK (an older one than the first javac on PATH).

    `edit_source` changes the source before compiling (e.g. imports pointed at a relocated package); it runs only
    when the folder is built, so it may be slow. `services`: {service interface: implementing class}, each written
    to `META-INF/services/<interface>` so that a `ServiceLoader` on the folder finds it.
    Raises JunitbotError when javac fails.
    """
    simple = name.rpartition(".")[2]
    source_file = source_file or importlib.resources.files("junitbot.validation") / "java" / f"{simple}.java"
    source = source_file.read_text("utf-8")
    class_file = Path(*name.split(".")).with_suffix(".class")
    entries = sorted((services or {}).items())
    jars = os.pathsep.join(str(jar) for jar in classpath)
    key = hashlib.sha256("\0".join([source, jars, *(f"{k}={v}" for k, v in entries),
                                     *([javac] if javac != "javac" else [])]).encode()).hexdigest()[:12]
    target = cache_dir / f"{folder_prefix}-{key}"
    if (target / class_file).is_file():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    with exclusive(cache_dir / f".{folder_prefix}-{key}.lock"):
        if (target / class_file).is_file():  # the run that held the lock before built it
            return target
        build = Path(tempfile.mkdtemp(prefix=f".{folder_prefix}-", dir=cache_dir))
        try:
            java = build / f"{simple}.java"
            java.write_text(edit_source(source) if edit_source else source, encoding="utf-8")
            result = run_process([javac, *javac_jvm_options(), "-nowarn", "-cp", jars, "-d", str(build),
                                  str(java)], cwd=build, timeout_s=_TIMEOUT_S, max_output_bytes=200_000)
            if not result.ok:
                raise JunitbotError(f"cannot compile junitbot's {name}.java: "
                                    f"{(result.stderr or result.stdout).strip()}")
            for interface, implementation in entries:
                service = build / "META-INF" / "services" / interface
                service.parent.mkdir(parents=True, exist_ok=True)
                service.write_text(implementation + "\n", encoding="utf-8")
            try:
                build.rename(target)  # atomic: a run without the lock (an older junitbot) sees all or nothing
            except OSError:
                if not (target / class_file).is_file():
                    raise
        finally:
            shutil.rmtree(build, ignore_errors=True)
    return target


"""JaCoCo coverage: the agent option for test JVMs, and per-class figures from JaCoCo's own analyzer.

Debian's `org.jacoco.agent.rt.jar` is not shaded and has no Premain-Class, so by default a small
wrapper jar is built whose manifest names the agent's PreMain and puts the agent, core and asm jars
on its Class-Path. Those classes then sit on the system class path of the test JVM (and shadow a
project's own asm, should it have one); a shaded agent (`validation.jacoco_agent`) avoids that.
Either way the option carries `includes=` the project's packages: unshaded, the agent would
otherwise instrument itself and overflow the stack.

Figures come from `java/CoverageDump.java` (package data), compiled once per cache dir, which runs
`org.jacoco.core.analysis` over the exec file and class files and prints JSON; that JSON is parsed
here into `ClassCoverage` records and goes no further.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import logging
import os
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.models import ClassCoverage, Counter, MethodCoverage
from junitbot.validation.process import run_process

logger = logging.getLogger(__name__)

JAVA_SHARE = Path("/usr/share/java")
_AGENT_JARS = ("org.jacoco.agent.rt.jar", "org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar")
_ANALYZER_JARS = ("org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar")
_PREMAIN = "org.jacoco.agent.rt.internal.PreMain"
_DUMP_CLASS = "CoverageDump"
_TIMEOUT_S = 300.0
_MAX_JSON_BYTES = 256 * 1024 * 1024
# ICounter line status values, as CoverageDump prints them.
_NOT_COVERED, _PARTLY_COVERED = 1, 3


def agent_option(
    *, exec_file: Path, includes: Sequence[str], cache_dir: Path, settings: ValidationSettings
) -> str:
    """`-javaagent:...` writing `exec_file` (replaced, not appended) for classes matching `includes`.

    `includes` are JaCoCo class-name patterns, e.g. `package_includes(target_classes)`.
    """
    if not includes:
        raise JunitbotError("JaCoCo needs the project's packages as includes (e.g. com.acme.*); none given")
    jar = _agent_jar(cache_dir=cache_dir, settings=settings).absolute()
    exec_file = exec_file.absolute()  # the test JVM runs in its own work dir
    if "=" in str(jar) or "," in str(exec_file) or any(c in p for p in includes for c in ",:="):
        raise JunitbotError(f"JaCoCo agent paths and patterns cannot contain '=', ',' or ':': {jar}, {exec_file}")
    return f"-javaagent:{jar}=destfile={exec_file},includes={':'.join(includes)},append=false"


def package_includes(classes: Sequence[str]) -> list[str]:
    """JaCoCo include patterns for the packages of `classes`: com.acme.shop.Cart -> com.acme.shop.*"""
    packages = sorted({name.rpartition(".")[0] for name in classes})
    return [f"{package}.*" if package else "*" for package in packages]


def folder_includes(class_dir: Path) -> list[str]:
    """JaCoCo include patterns for every package with class files under `class_dir` (the project's own code,
    never the test libraries a `*` would instrument too)."""
    packages = sorted({path.parent.relative_to(class_dir).as_posix().replace("/", ".")
                       for path in class_dir.rglob("*.class")})
    return [f"{package}.*" if package != "." else "*" for package in packages] or ["*"]


def analyze_coverage(
    exec_file: Path,
    class_dirs: Sequence[Path],
    *,
    cache_dir: Path,
    classes: Sequence[str] | None = None,
) -> dict[str, ClassCoverage]:
    """Coverage per class (fully qualified, nested ones as Outer$Inner) of `class_dirs` under `exec_file`.

    With `classes`, only those and their nested classes are analysed. Raises JunitbotError when the
    exec file is missing (the test JVM was killed before writing it) or the analyzer fails.
    """
    # Empty counts as missing: the agent always writes a header, and run_junit pre-creates the file to bind it.
    if not exec_file.is_file() or exec_file.stat().st_size == 0:
        raise JunitbotError(f"no coverage data at {exec_file}: the test JVM did not write it (killed by a timeout?)")
    paths = list(class_dirs) if classes is None else _class_files(class_dirs, classes)
    if not paths:
        return {}
    dump = _coverage_dump(cache_dir)
    classpath = os.pathsep.join([str(dump), *(str(_system_jar(name)) for name in _ANALYZER_JARS)])
    argv = ["java", "-cp", classpath, _DUMP_CLASS, str(exec_file), *(str(p) for p in paths)]
    result = run_process(argv, cwd=cache_dir, timeout_s=_TIMEOUT_S, max_output_bytes=_MAX_JSON_BYTES)
    if not result.ok or result.stdout_truncated:
        why = "timed out" if result.timed_out else f"exit code {result.exit_code}"
        raise JunitbotError(f"JaCoCo analysis of {exec_file} failed ({why}): {result.stderr.strip()[-1000:]}")
    return _parse_dump(result.stdout, classes)


class _RawCounter(BaseModel):
    model_config = ConfigDict(frozen=True)
    covered: int
    missed: int


class _RawMethod(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    desc: str
    first_line: int
    lines: _RawCounter
    branches: _RawCounter


class _RawClass(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    lines: _RawCounter
    branches: _RawCounter
    methods: list[_RawMethod]
    line_status: list[tuple[int, int, int, int]]


class _RawDump(BaseModel):
    model_config = ConfigDict(frozen=True)
    classes: list[_RawClass]
    mismatched: list[str]
    failed: list[str] = []


def _parse_dump(text: str, classes: Sequence[str] | None) -> dict[str, ClassCoverage]:
    try:
        dump = _RawDump.model_validate_json(text)
    except ValidationError as e:
        raise JunitbotError(f"unexpected output from the JaCoCo analyzer: {e}") from e
    if dump.mismatched:
        logger.warning(
            "coverage data does not match the class files of %s (recompiled after the run?); counted as missed",
            ", ".join(name.replace("/", ".") for name in dump.mismatched),
        )
    if dump.failed:
        logger.warning("JaCoCo could not read %s (a sealed type needs JaCoCo 0.8.7 or newer): not measured",
                       ", ".join(dump.failed))
    coverage = {}
    for raw in dump.classes:
        fqn = raw.name.replace("/", ".")
        if classes is None or any(fqn == c or fqn.startswith(c + "$") for c in classes):
            coverage[fqn] = _class_coverage(fqn, raw)
    return coverage


def _class_coverage(fqn: str, raw: _RawClass) -> ClassCoverage:
    return ClassCoverage(
        fqn=fqn,
        lines=Counter(covered=raw.lines.covered, missed=raw.lines.missed),
        branches=Counter(covered=raw.branches.covered, missed=raw.branches.missed),
        methods=tuple(
            MethodCoverage(
                name=m.name,
                descriptor=m.desc,
                first_line=m.first_line if m.first_line > 0 else None,
                lines=Counter(covered=m.lines.covered, missed=m.lines.missed),
                branches=Counter(covered=m.branches.covered, missed=m.branches.missed),
            )
            for m in raw.methods
        ),
        uncovered_lines=tuple(nr for nr, status, _, _ in raw.line_status if status == _NOT_COVERED),
        partly_covered_lines=tuple(nr for nr, status, _, _ in raw.line_status if status == _PARTLY_COVERED),
    )


def _class_files(class_dirs: Sequence[Path], classes: Sequence[str]) -> list[Path]:
    """The .class files of `classes` and their nested classes; jars are passed whole and filtered later."""
    found: list[Path] = []
    for root in class_dirs:
        if root.is_file():
            found.append(root)
            continue
        for name in classes:
            package, _, simple = name.rpartition(".")
            folder = root.joinpath(*package.split(".")) if package else root
            found += sorted(folder.glob(f"{simple}.class")) + sorted(folder.glob(f"{simple}$*.class"))
    return found


def _agent_jar(*, cache_dir: Path, settings: ValidationSettings) -> Path:
    """The configured shaded agent, checked; else the wrapper around Debian's jars, built once."""
    if settings.jacoco_agent is not None:
        return _checked_agent(settings.jacoco_agent)
    manifest = _manifest(
        {
            "Manifest-Version": "1.0",
            "Premain-Class": _PREMAIN,
            "Class-Path": " ".join(_system_jar(name).as_uri() for name in _AGENT_JARS),
            "Created-By": "junitbot",
        }
    )
    jar = cache_dir / f"jacoco-agent-{hashlib.sha256(manifest).hexdigest()[:12]}.jar"
    if not jar.is_file():
        cache_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".jacoco-agent-", suffix=".jar", dir=cache_dir)
        with os.fdopen(fd, "wb") as out, zipfile.ZipFile(out, "w") as archive:
            # A fixed timestamp keeps the jar byte-identical across builds.
            archive.writestr(zipfile.ZipInfo("META-INF/MANIFEST.MF", date_time=(1980, 1, 1, 0, 0, 0)), manifest)
        os.replace(tmp, jar)  # atomic: concurrent runs never see half a jar
    return jar


def _checked_agent(path: Path) -> Path:
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", errors="replace")
    except (OSError, KeyError, zipfile.BadZipFile) as e:
        raise JunitbotError(f"validation.jacoco_agent {path}: not a readable jar with a manifest ({e})") from e
    unfolded = manifest.replace("\r\n", "\n").replace("\n ", "")
    if not any(line.startswith("Premain-Class:") for line in unfolded.splitlines()):
        raise JunitbotError(
            f"validation.jacoco_agent {path} has no Premain-Class, so it is no Java agent: "
            "use the shaded runtime agent (jacocoagent.jar, Maven org.jacoco:org.jacoco.agent:<version>:runtime)"
        )
    return path.resolve()


def _manifest(attributes: dict[str, str]) -> bytes:
    """A JAR manifest: lines of at most 72 bytes, continued on lines starting with a space."""
    lines: list[bytes] = []
    for key, value in attributes.items():
        data = f"{key}: {value}".encode()
        lines.append(data[:72])
        lines += [b" " + data[i : i + 71] for i in range(72, len(data), 71)]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _coverage_dump(cache_dir: Path) -> Path:
    """The directory holding CoverageDump.class, compiled from the packaged source on first use."""
    source = (importlib.resources.files("junitbot.validation") / "java" / f"{_DUMP_CLASS}.java").read_bytes()
    classpath = os.pathsep.join(str(_system_jar(name)) for name in _ANALYZER_JARS)
    key = hashlib.sha256(source + classpath.encode()).hexdigest()[:12]
    target = cache_dir / f"coverage-dump-{key}"
    if (target / f"{_DUMP_CLASS}.class").is_file():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix=".coverage-dump-", dir=cache_dir))
    try:
        (build / f"{_DUMP_CLASS}.java").write_bytes(source)
        argv = ["javac", "-nowarn", "-cp", classpath, "-d", str(build), str(build / f"{_DUMP_CLASS}.java")]
        result = run_process(argv, cwd=build, timeout_s=_TIMEOUT_S, max_output_bytes=200_000)
        if not result.ok:
            raise JunitbotError(f"cannot compile the JaCoCo analyzer: {(result.stderr or result.stdout).strip()}")
        try:
            build.rename(target)  # atomic; a concurrent run that got there first wins
        except OSError:
            if not (target / f"{_DUMP_CLASS}.class").is_file():
                raise
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return target


def _system_jar(name: str) -> Path:
    path = JAVA_SHARE / name
    if not path.is_file():
        raise JunitbotError(
            f"JaCoCo is not installed: {path} is missing "
            "(apt-get install libjacoco-java, or set validation.jacoco_agent to a shaded agent jar)"
        )
    return path

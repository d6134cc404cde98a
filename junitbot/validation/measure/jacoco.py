"""JaCoCo coverage: the agent option for test JVMs, and per-class figures from JaCoCo's own analyzer.

Which JaCoCo is toolchoice.py's call: a configured agent, else the pinned 0.8.15 (a shaded agent with a
Premain-Class, attached as it is; the analysis API from the org.jacoco.cli nodeps jar), else Debian's 0.8.6.
Debian's `org.jacoco.agent.rt.jar` is not shaded and has no Premain-Class, so then a small wrapper jar is
built whose manifest names the agent's PreMain and puts the agent, core and asm jars on its Class-Path.
Those classes then sit on the system class path of the test JVM (and shadow a project's own asm, should it
have one). Either way the option carries `includes=` the project's packages: unshaded, the agent would
otherwise instrument itself and overflow the stack.

Figures come from `java/CoverageDump.java` (package data), compiled once per cache dir and analyzer
(`javahelpers.compiled_helper`), which runs JaCoCo's analysis API over the exec files (merged) and class files
and prints JSON; that JSON is parsed here into `ClassCoverage` records and goes no further. The nodeps jar
relocates that API (to `org.jacoco.cli.internal.core`), so the source's imports are pointed at the package the
jars hold.
JaCoCo 0.8.6 cannot read sealed types (release 17 and later); 0.8.15 can (tested with releases 17 and 21).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.build.helpers import compiled_helper
from junitbot.validation.build.jdk import QUICK_JVM_OPTIONS
from junitbot.validation.build.tool_choice import choose_agent, choose_analyzer
from junitbot.validation.measure.models import ClassCoverage, Counter, MethodCoverage
from junitbot.validation.process import run_process

logger = logging.getLogger(__name__)

_PREMAIN = "org.jacoco.agent.rt.internal.PreMain"
_DUMP_CLASS = "CoverageDump"
_TIMEOUT_S = 300.0
_MAX_JSON_BYTES = 256 * 1024 * 1024
# ICounter line status values, as CoverageDump prints them.
_NOT_COVERED, _PARTLY_COVERED = 1, 3
_CORE_PACKAGE = "org.jacoco.core"
_ANALYZER_CLASS = re.compile(r"^((?:[\w$]+/)*core)/analysis/Analyzer\.class$")


def agent_option(
    *, exec_file: Path, includes: Sequence[str], cache_dir: Path, settings: ValidationSettings,
    tools_dir: Path | None = None,
) -> str:
    """`-javaagent:...` writing `exec_file` (replaced, not appended) for classes matching `includes`.

    `includes` are JaCoCo class-name patterns, e.g. `package_includes(target_classes)`. `tools_dir`: the
    pinned tools' cache (`StateDir.tools`); None uses a configured agent or Debian's.
    """
    if not includes:
        raise JunitbotError("JaCoCo needs the project's packages as includes (e.g. com.acme.*); none given")
    agent = choose_agent(tools_dir=tools_dir, settings=settings)
    jar = (_wrapper_jar(agent.classpath, cache_dir) if agent.source == "debian" else agent.path).absolute()
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


@dataclass(frozen=True)
class CoverageQuery:
    """One analysis of a batch: `exec_files` merged as JaCoCo merges them (a probe counts if any file has it), over
    `classes` and their nested classes (None: every class of the class dirs)."""

    exec_files: tuple[Path, ...]
    classes: tuple[str, ...] | None = None


def analyze_coverage(
    exec_files: Path | Sequence[Path],
    class_dirs: Sequence[Path],
    *,
    cache_dir: Path,
    classes: Sequence[str] | None = None,
    tools_dir: Path | None = None,
    settings: ValidationSettings | None = None,
) -> dict[str, ClassCoverage]:
    """Coverage per class (fully qualified, nested ones as Outer$Inner) of `class_dirs` under `exec_files`.

    Several exec files are merged as JaCoCo merges them (a probe counts if any file has it), e.g. the baseline's
    and the kept tests' for the coverage of both. With `classes`, only those and their nested classes are
    analysed. `tools_dir`: the pinned tools' cache, for JaCoCo 0.8.15's analyzer; None uses Debian's 0.8.6.
    Raises JunitbotError when no exec file is given, one is missing (the test JVM was killed before writing
    it) or the analyzer fails.
    """
    files = (exec_files,) if isinstance(exec_files, Path) else tuple(exec_files)
    query = CoverageQuery(files, None if classes is None else tuple(classes))
    (found,) = analyze_coverages([query], class_dirs, cache_dir=cache_dir, tools_dir=tools_dir, settings=settings)
    if isinstance(found, JunitbotError):
        raise found
    return found


def analyze_coverages(
    queries: Sequence[CoverageQuery],
    class_dirs: Sequence[Path],
    *,
    cache_dir: Path,
    tools_dir: Path | None = None,
    settings: ValidationSettings | None = None,
) -> list[dict[str, ClassCoverage] | JunitbotError]:
    """`analyze_coverage` of each query, in order, from one analyzer JVM: a run asks for each class's coverage
    alone and merged with the existing tests', and a JVM's start costs more than its analysis. A query without
    exec data (no file, or a missing or empty one) gets its error and the others are still answered; a failed
    analyzer is each query's error."""
    answers: list[dict[str, ClassCoverage] | JunitbotError] = []
    asked: list[tuple[int, CoverageQuery, list[Path]]] = []
    for number, query in enumerate(queries):
        error = _missing_exec_data(query.exec_files)
        paths = list(class_dirs) if query.classes is None else _class_files(class_dirs, query.classes)
        answers.append(error if error is not None else {})
        if error is None and paths:
            asked.append((number, query, paths))
    if not asked:
        return answers
    jars = choose_analyzer(tools_dir=tools_dir, settings=settings or ValidationSettings()).classpath
    dump = _coverage_dump(cache_dir, jars)
    classpath = os.pathsep.join([str(dump), *(str(jar) for jar in jars)])
    groups = [[*(str(f.absolute()) for f in query.exec_files), "--", *(str(p.absolute()) for p in paths)]
              for _, query, paths in asked]
    # The groups go through stdin: each merged question names every kept test's exec file, so a run of hundreds
    # of classes would pass the command line's limit (E2BIG).
    argv = ["java", *QUICK_JVM_OPTIONS, "-cp", classpath, _DUMP_CLASS, "-"]
    result = run_process(argv, cwd=cache_dir, timeout_s=_TIMEOUT_S, max_output_bytes=_MAX_JSON_BYTES,
                         stdin="".join(f"{argument}\n" for argument in _joined(groups, "---")))
    lines = result.stdout.splitlines()
    if not result.ok or result.stdout_truncated or len(lines) != len(asked):
        why = "timed out" if result.timed_out else f"exit code {result.exit_code}"
        files = [f for _, query, _ in asked for f in query.exec_files]
        names = str(files[0]) if len(files) == 1 else f"{len(files)} exec files ({files[0]}, ...)"
        failure = JunitbotError(f"JaCoCo analysis of {names} failed ({why}): {result.stderr.strip()[-1000:]}")
        for number, _, _ in asked:
            answers[number] = failure
        return answers
    for (number, query, _), line in zip(asked, lines, strict=True):
        try:
            answers[number] = _parse_dump(line, query.classes)
        except JunitbotError as e:
            answers[number] = e
    return answers


def _missing_exec_data(files: Sequence[Path]) -> JunitbotError | None:
    if not files:
        return JunitbotError("JaCoCo analysis needs at least one exec file; none given")
    for exec_file in files:
        # Empty counts as missing: the agent always writes a header, and run_junit pre-creates the file to bind it.
        if not exec_file.is_file() or exec_file.stat().st_size == 0:
            return JunitbotError(
                f"no coverage data at {exec_file}: the test JVM did not write it (killed by a timeout?)")
    return None


def _joined(groups: Sequence[Sequence[str]], separator: str) -> list[str]:
    """The groups' arguments in order, `separator` between two groups."""
    joined: list[str] = []
    for number, group in enumerate(groups):
        joined += [separator, *group] if number else list(group)
    return joined


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
        logger.warning("JaCoCo could not read %s (a sealed type needs JaCoCo 0.8.7 or newer, not Debian's 0.8.6): "
                       "not measured",
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


def _wrapper_jar(jars: Sequence[Path], cache_dir: Path) -> Path:
    """A jar whose manifest makes Debian's unshaded agent (`jars`: it, core and asm) a Java agent; built once."""
    manifest = _manifest(
        {
            "Manifest-Version": "1.0",
            "Premain-Class": _PREMAIN,
            "Class-Path": " ".join(jar.as_uri() for jar in jars),
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


def _manifest(attributes: dict[str, str]) -> bytes:
    """A JAR manifest: lines of at most 72 bytes, continued on lines starting with a space."""
    lines: list[bytes] = []
    for key, value in attributes.items():
        data = f"{key}: {value}".encode()
        lines.append(data[:72])
        lines += [b" " + data[i : i + 71] for i in range(72, len(data), 71)]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _coverage_dump(cache_dir: Path, jars: Sequence[Path]) -> Path:
    """The directory holding CoverageDump.class, compiled against `jars` from the packaged source on first use."""
    def relocated(source: str) -> str:
        return source.replace(f"import {_CORE_PACKAGE}.", f"import {_core_package(jars)}.")

    return compiled_helper(_DUMP_CLASS, classpath=jars, cache_dir=cache_dir, folder_prefix="coverage-dump",
                           edit_source=relocated)


def _core_package(jars: Sequence[Path]) -> str:
    """The package of JaCoCo's core in `jars`: `org.jacoco.core`, or where a shaded jar relocated it."""
    for jar in jars:
        try:
            with zipfile.ZipFile(jar) as archive:
                for name in archive.namelist():
                    match = _ANALYZER_CLASS.match(name)
                    if match:
                        return match.group(1).replace("/", ".")
        except (OSError, zipfile.BadZipFile) as e:
            raise JunitbotError(f"cannot read the JaCoCo jar {jar}: {e}") from e
    raise JunitbotError(f"no JaCoCo analysis API (core/analysis/Analyzer.class) in {', '.join(map(str, jars))}")

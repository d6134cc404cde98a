"""JaCoCo on real test runs: the pinned 0.8.15 agent and analyzer, Debian's 0.8.6 through the wrapper agent (the
fallback), a configured shaded agent; figures from JaCoCo's own analyzer, sealed types and records included."""

from __future__ import annotations

import logging
import os
import zipfile
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.build.jdk import installed_jdks
from junitbot.validation.measure import jacoco
from junitbot.validation.measure.jacoco import (
    CoverageQuery,
    agent_option,
    analyze_coverage,
    analyze_coverages,
    package_includes,
)
from junitbot.validation.measure.models import ClassCoverage, Counter, MethodCoverage
from junitbot.validation.run.launcher import run_junit
from junitbot.validation.run.models import JvmLaunch, RunConditions
from junitbot.validation.run.sandbox import detect_isolation
from tests.validation.run.test_launcher import TEST_JARS, compile_java

FIXTURE_EXEC = Path(__file__).resolve().parents[2] / "fixtures" / "jacoco" / "bucket.exec"

GRADE = """package com.acme.school;

public class Grade {
    public static String of(int score) {
        if (score >= 50) {
            return "pass";
        }
        return "fail";
    }

    public static int unused() {
        return 42;
    }
}
"""

GRADE_TEST = """package com.acme.school;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GradeTest {
    @Test void passes() { assertEquals("pass", Grade.of(70)); }
}
"""

EXPECTED = ClassCoverage(
    fqn="com.acme.school.Grade",
    lines=Counter(covered=2, missed=3),
    branches=Counter(covered=1, missed=1),
    methods=(
        MethodCoverage(name="<init>", descriptor="()V", first_line=3,
                       lines=Counter(covered=0, missed=1), branches=Counter()),
        MethodCoverage(name="of", descriptor="(I)Ljava/lang/String;", first_line=5,
                       lines=Counter(covered=2, missed=1), branches=Counter(covered=1, missed=1)),
        MethodCoverage(name="unused", descriptor="()I", first_line=12,
                       lines=Counter(covered=0, missed=1), branches=Counter()),
    ),
    uncovered_lines=(3, 8, 12),  # the implicit constructor, the "fail" return, unused()
    partly_covered_lines=(5,),  # the if: only its true branch ran
)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(main classes, test classes), compiled separately as a build would."""
    root = tmp_path_factory.mktemp("jacoco")
    main = compile_java({"com/acme/school/Grade.java": GRADE}, root / "main")
    tests = compile_java({"com/acme/school/GradeTest.java": GRADE_TEST}, root / "tests", classpath=[str(main)])
    return main, tests


def _covered_run(
    compiled: tuple[Path, Path], tmp_path: Path, settings: ValidationSettings, exec_file: Path,
    tools_dir: Path | None = None, test_class: str = "com.acme.school.GradeTest",
) -> Path:
    """Run `test_class` under the agent writing `exec_file` for the classes' package; returns it."""
    main, tests = compiled
    option = agent_option(
        exec_file=exec_file,
        includes=package_includes([test_class]),
        cache_dir=tmp_path / "cache",
        settings=settings,
        tools_dir=tools_dir,
    )
    result = run_junit(
        test_classes=[test_class],
        classpath=[str(main), str(tests), *TEST_JARS],
        workdir=tmp_path / "work",
        conditions=RunConditions(),
        launch=JvmLaunch(settings=settings, isolation=detect_isolation(), agent=option, tools_dir=tools_dir),
    )
    assert result.cases and {c.status for c in result.cases} == {"passed"}, result.output_tail
    return exec_file


def test_wrapper_agent_coverage_matches_jacoco(compiled: tuple[Path, Path], tmp_path: Path) -> None:
    exec_file = _covered_run(compiled, tmp_path, ValidationSettings(), tmp_path / "work" / "jacoco.exec")
    main, _ = compiled
    coverage = analyze_coverage(exec_file, [main], cache_dir=tmp_path / "cache", classes=["com.acme.school.Grade"])
    assert coverage == {"com.acme.school.Grade": EXPECTED}
    assert coverage["com.acme.school.Grade"].branches.ratio == 0.5
    # Built once: a second analysis reuses the compiled analyzer and the agent jar.
    assert len(list((tmp_path / "cache").glob("coverage-dump-*"))) == 1
    assert len(list((tmp_path / "cache").glob("jacoco-agent-*.jar"))) == 1
    assert analyze_coverage(exec_file, [main], cache_dir=tmp_path / "cache") == coverage


def test_a_class_this_jacoco_cannot_read_costs_only_itself(
        compiled: tuple[Path, Path], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    exec_file = _covered_run(compiled, tmp_path, ValidationSettings(), tmp_path / "work" / "jacoco.exec")
    sealed = compile_java({"com/acme/school/Shape.java": (
        "package com.acme.school;\npublic sealed interface Shape permits Shape.Square {\n"
        "    record Square(int side) implements Shape {}\n    default int sides() { return 4; }\n}\n")},
        tmp_path / "sealed")
    classes = ["com.acme.school.Grade", "com.acme.school.Shape"]
    coverage = analyze_coverage(exec_file, [compiled[0], sealed], cache_dir=tmp_path / "cache", classes=classes)
    # Debian's JaCoCo 0.8.6 cannot read the sealed interface; Grade and the record are measured all the same.
    assert coverage["com.acme.school.Grade"] == EXPECTED and "com.acme.school.Shape$Square" in coverage
    assert "com.acme.school.Shape" not in coverage
    assert "Shape.class" in caplog.text and "not measured" in caplog.text


def test_shaded_agent_from_settings_is_used_as_is(compiled: tuple[Path, Path], tmp_path: Path) -> None:
    # Debian's org.jacoco.agent.jar embeds the shaded runtime agent, as upstream's does.
    with zipfile.ZipFile("/usr/share/java/org.jacoco.agent.jar") as outer:
        shaded = Path(outer.extract("jacocoagent.jar", tmp_path))
    settings = ValidationSettings(jacoco_agent=shaded)
    # Outside the work dir: run_junit binds just this file writable in the sandbox.
    exec_file = _covered_run(compiled, tmp_path, settings, tmp_path / "coverage" / "jacoco.exec")
    main, _ = compiled
    coverage = analyze_coverage(exec_file, [main], cache_dir=tmp_path / "cache", classes=["com.acme.school.Grade"])
    assert coverage == {"com.acme.school.Grade": EXPECTED}
    assert not list((tmp_path / "cache").glob("jacoco-agent-*.jar"))


def test_the_pinned_agent_and_analyzer_measure_as_jacoco_does(
    compiled: tuple[Path, Path], tmp_path: Path, fetched: Path
) -> None:
    exec_file = tmp_path / "work" / "jacoco.exec"
    option = agent_option(exec_file=exec_file, includes=["com.acme.school.*"], cache_dir=tmp_path / "cache",
                          settings=ValidationSettings(), tools_dir=fetched)
    # The shaded agent is attached as it is: no wrapper jar, no Debian jar on the test JVM's class path.
    agent = fetched / "jacoco-agent-0.8.15" / "org.jacoco.agent-0.8.15-runtime.jar"
    assert option.startswith(f"-javaagent:{agent}=destfile={exec_file},includes=com.acme.school.*")
    _covered_run(compiled, tmp_path, ValidationSettings(), exec_file, tools_dir=fetched)
    main, _ = compiled
    coverage = analyze_coverage(exec_file, [main], cache_dir=tmp_path / "cache", classes=["com.acme.school.Grade"],
                                tools_dir=fetched)
    assert coverage == {"com.acme.school.Grade": EXPECTED}
    assert not list((tmp_path / "cache").glob("jacoco-agent-*.jar"))
    # Compiled once, against the CLI jar, whose relocated analysis API the analyzer's imports now name.
    (dump,) = (tmp_path / "cache").glob("coverage-dump-*")
    assert "import org.jacoco.cli.internal.core.analysis.Analyzer;" in (dump / "CoverageDump.java").read_text()


def test_a_run_s_questions_are_answered_by_one_analyzer_jvm_each_as_if_asked_alone(
    compiled: tuple[Path, Path], tmp_path: Path, fetched: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A validation asks for each class's coverage alone and merged with its existing tests': one JVM answers all,
    in order, and a question without exec data costs only itself."""
    exec_file = _covered_run(compiled, tmp_path, ValidationSettings(), tmp_path / "work" / "jacoco.exec",
                             tools_dir=fetched)
    main, _ = compiled
    whole = analyze_coverage(exec_file, [main], cache_dir=tmp_path / "cache", tools_dir=fetched)
    started: list[object] = []
    real = jacoco.run_process
    monkeypatch.setattr(jacoco, "run_process", lambda *a, **k: started.append(a) or real(*a, **k))
    grade, gone, everything, merged = analyze_coverages(
        [CoverageQuery((exec_file,), ("com.acme.school.Grade",)), CoverageQuery((tmp_path / "gone.exec",)),
         CoverageQuery((exec_file,)), CoverageQuery((exec_file, exec_file), ("com.acme.school.Grade",))],
        [main], cache_dir=tmp_path / "cache", tools_dir=fetched)
    assert len(started) == 1
    assert grade == merged == {"com.acme.school.Grade": EXPECTED}
    assert isinstance(gone, JunitbotError) and "gone.exec" in str(gone)
    assert everything == whole and set(whole) == {"com.acme.school.Grade"}
    # Questions past the command line's limit (about 2 MB: here 40 x 1,000 exec file names) are answered all the same.
    many = analyze_coverages([CoverageQuery((exec_file,) * 1000, ("com.acme.school.Grade",))] * 40, [main],
                             cache_dir=tmp_path / "cache", tools_dir=fetched)
    assert many == [{"com.acme.school.Grade": EXPECTED}] * 40 and len(started) == 2


SHAPES_17 = """package com.acme.shapes;

public sealed interface Shape permits Shape.Square, Shape.Circle {
    record Square(int side) implements Shape {
        public Square {
            if (side < 0) {
                throw new IllegalArgumentException("side");
            }
        }
    }

    record Circle(int radius) implements Shape {
    }

    default int corners() {
        if (this instanceof Square square && square.side() > 0) {
            return 4;
        }
        return 0;
    }
}
"""

SHAPES_21 = """package com.acme.shapes;

public sealed interface Shape permits Shape.Square, Shape.Circle {
    record Square(int side) implements Shape {
        public Square {
            if (side < 0) {
                throw new IllegalArgumentException("side");
            }
        }
    }

    record Circle(int radius) implements Shape {
    }

    default int corners() {
        return switch (this) {
            case Square(int side) when side > 0 -> 4;
            case Square square -> 0;
            case Circle circle -> 0;
        };
    }
}
"""

SHAPES_TEST = """package com.acme.shapes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ShapeTest {
    @Test void squaresHaveFourCorners() { assertEquals(4, new Shape.Square(2).corners()); }
}
"""


def _jdk(release: int) -> Path:
    """The oldest installed JDK for `release` or later (junitbot's own choice of JDK homes). The machines this
    project runs on have Temurin 25 beside the default JDK 17; its absence is a broken set-up, not a skip."""
    newer = sorted((version, home) for home, version in installed_jdks().items() if version >= release)
    assert newer, f"no JDK {release} or later under /usr/lib/jvm or JAVA_HOME"
    return newer[0][1]


# Shape.corners() per release: (lines, branches, uncovered lines, partly covered lines). 17: the instanceof and
# side() > 0 (2 of 4 branches), `return 0` missed; 21: the pattern switch and its guard, the other cases missed.
CORNERS_17 = (Counter(covered=2, missed=1), Counter(covered=2, missed=2), (19,), (16,))
CORNERS_21 = (Counter(covered=2, missed=2), Counter(covered=3, missed=4), (18, 19), (16, 17))


@pytest.mark.parametrize(("release", "source", "corners"), [(17, SHAPES_17, CORNERS_17), (21, SHAPES_21, CORNERS_21)])
def test_the_pinned_jacoco_measures_sealed_interfaces_and_records(
    fetched: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, release: int, source: str,
    corners: tuple[Counter, Counter, tuple[int, ...], tuple[int, ...]],
) -> None:
    jdk = _jdk(release)
    monkeypatch.setenv("PATH", f"{jdk / 'bin'}:{os.environ['PATH']}")  # the test JVM must run release-21 classes
    javac = str(jdk / "bin" / "javac")
    main = compile_java({"com/acme/shapes/Shape.java": source}, tmp_path / "main", javac=javac, release=release)
    tests = compile_java({"com/acme/shapes/ShapeTest.java": SHAPES_TEST}, tmp_path / "tests", [str(main)],
                         javac=javac, release=release)
    exec_file = _covered_run((main, tests), tmp_path, ValidationSettings(), tmp_path / "work" / "jacoco.exec",
                             tools_dir=fetched, test_class="com.acme.shapes.ShapeTest")
    coverage = analyze_coverage(exec_file, [main], cache_dir=tmp_path / "cache", classes=["com.acme.shapes.Shape"],
                                tools_dir=fetched)
    # Debian's 0.8.6 could read neither class file (the "failed" of test_a_class_this_jacoco_cannot_read...).
    assert set(coverage) == {"com.acme.shapes.Shape", "com.acme.shapes.Shape$Square", "com.acme.shapes.Shape$Circle"}
    shape = coverage["com.acme.shapes.Shape"]
    assert (shape.lines, shape.branches, shape.uncovered_lines, shape.partly_covered_lines) == corners
    assert [m.name for m in shape.methods] == ["corners"]
    # The records: their generated accessors, equals, hashCode and toString filtered; the compact constructor ran
    # (its `if` one way, not the throw); Circle's constructor never ran.
    square = coverage["com.acme.shapes.Shape$Square"]
    assert [m.name for m in square.methods] == ["<init>"]
    assert (square.lines, square.branches) == (Counter(covered=3, missed=1), Counter(covered=1, missed=1))
    assert (square.uncovered_lines, square.partly_covered_lines) == ((7,), (6,))
    assert coverage["com.acme.shapes.Shape$Circle"].lines == Counter(covered=0, missed=1)


def test_without_the_pinned_jacoco_debians_measures_with_a_warning(
    compiled: tuple[Path, Path], tmp_path: Path, unreachable_maven: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tools_dir = tmp_path / "tools"
    exec_file = _covered_run(compiled, tmp_path, ValidationSettings(), tmp_path / "work" / "jacoco.exec",
                             tools_dir=tools_dir)
    main, _ = compiled
    coverage = analyze_coverage(exec_file, [main], cache_dir=tmp_path / "cache", classes=["com.acme.school.Grade"],
                                tools_dir=tools_dir)
    assert coverage == {"com.acme.school.Grade": EXPECTED}
    assert len(list((tmp_path / "cache").glob("jacoco-agent-*.jar"))) == 1, "Debian's agent, in its wrapper"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("using Debian's JaCoCo agent instead of the pinned jacoco-agent" in w for w in warnings), warnings
    assert any("using Debian's JaCoCo 0.8.6 instead of the pinned jacoco-cli" in w for w in warnings), warnings


def test_a_jar_without_premain_class_is_rejected(tmp_path: Path) -> None:
    settings = ValidationSettings(jacoco_agent=Path("/usr/share/java/org.jacoco.agent.rt.jar"))
    with pytest.raises(JunitbotError, match="has no Premain-Class"):
        agent_option(exec_file=tmp_path / "x.exec", includes=["com.acme.*"], cache_dir=tmp_path, settings=settings)


def test_includes_are_required(tmp_path: Path) -> None:
    with pytest.raises(JunitbotError, match="includes"):
        agent_option(exec_file=tmp_path / "x.exec", includes=[], cache_dir=tmp_path, settings=ValidationSettings())


def test_missing_or_empty_exec_file_is_an_error(compiled: tuple[Path, Path], tmp_path: Path) -> None:
    with pytest.raises(JunitbotError, match="did not write it"):
        analyze_coverage(tmp_path / "none.exec", [compiled[0]], cache_dir=tmp_path)
    (tmp_path / "empty.exec").touch()
    with pytest.raises(JunitbotError, match="did not write it"):
        analyze_coverage(tmp_path / "empty.exec", [compiled[0]], cache_dir=tmp_path)
    # Several: every one must be there.
    with pytest.raises(JunitbotError, match=r"no coverage data at .*empty\.exec"):
        analyze_coverage([FIXTURE_EXEC, tmp_path / "empty.exec"], [compiled[0]], cache_dir=tmp_path)
    with pytest.raises(JunitbotError, match="at least one exec file"):
        analyze_coverage([], [compiled[0]], cache_dir=tmp_path)


def test_package_includes() -> None:
    assert package_includes(["com.acme.b.X", "com.acme.a.Y", "com.acme.a.Z", "Top"]) == [
        "*", "com.acme.a.*", "com.acme.b.*",
    ]

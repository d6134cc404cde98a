"""JaCoCo through the wrapper agent (and a shaded one) on a real test run, figures from JaCoCo's analyzer."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.jacoco import agent_option, analyze_coverage, package_includes
from junitbot.validation.junit import run_junit
from junitbot.validation.models import ClassCoverage, Counter, MethodCoverage, RunConditions
from junitbot.validation.sandbox import detect_isolation
from tests.validation.test_junit import TEST_JARS, compile_java

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
    compiled: tuple[Path, Path], tmp_path: Path, settings: ValidationSettings, exec_file: Path
) -> Path:
    """Run GradeTest under the agent writing `exec_file`; returns it."""
    main, tests = compiled
    option = agent_option(
        exec_file=exec_file,
        includes=package_includes(["com.acme.school.Grade"]),
        cache_dir=tmp_path / "cache",
        settings=settings,
    )
    result = run_junit(
        test_classes=["com.acme.school.GradeTest"],
        classpath=[str(main), str(tests), *TEST_JARS],
        workdir=tmp_path / "work",
        conditions=RunConditions(),
        settings=settings,
        isolation=detect_isolation(),
        java_agent_option=option,
    )
    assert [(c.method, c.status) for c in result.cases] == [("passes", "passed")], result.output_tail
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
    if "com.acme.school.Shape" not in coverage:
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


def test_package_includes() -> None:
    assert package_includes(["com.acme.b.X", "com.acme.a.Y", "com.acme.a.Z", "Top"]) == [
        "*", "com.acme.a.*", "com.acme.b.*",
    ]

"""Reading Maven's console output: javac's errors once each, the first error lines, offline misses."""

from __future__ import annotations

from pathlib import Path

from junitbot.validation.build.maven_log import compiler_errors, error_lines, missing_offline

# As Maven 3.9.16 with maven-compiler-plugin 3.13.0 printed them (-q -B): a test calling a misspelt method, and an
# offline build lacking a plugin.
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "maven"
COMPILE_FAILURE = (FIXTURES / "compile-failure.txt").read_text(encoding="utf-8")
OFFLINE = (FIXTURES / "offline-miss.txt").read_text(encoding="utf-8")


def test_javac_errors_are_read_once_each_with_file_and_line() -> None:
    [error] = compiler_errors(COMPILE_FAILURE)
    assert (error.file, error.line, error.message) == ("/w/src/test/java/demo/GreeterGeneratedTest.java", 19,
                                                       "cannot find symbol")
    assert compiler_errors("\x1b[1;31m[ERROR]\x1b[m /w/A.java:[3] ';' expected\n")[0].line == 3
    assert compiler_errors("[WARNING] /w/A.java:[3,1] deprecated\n") == ()


def test_error_lines_leave_out_maven_s_boilerplate_and_repeats() -> None:
    lines = error_lines(COMPILE_FAILURE)
    assert lines[0] == "/w/src/test/java/demo/GreeterGeneratedTest.java:[19,55] cannot find symbol"
    assert lines[1].startswith("Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin")
    assert not any("Help 1" in line or "re-run Maven" in line or "Re-run" in line for line in lines)
    assert len(lines) == len(set(lines)) and len(error_lines(COMPILE_FAILURE, limit=2)) == 2
    assert error_lines("[ERROR] [ERROR] doubled prefix\n") == ("doubled prefix",)


def test_an_offline_miss_is_recognised() -> None:
    line = missing_offline(OFFLINE)
    assert line is not None and line.startswith("Cannot access central") and "maven-resources-plugin" in line
    assert missing_offline(COMPILE_FAILURE) is None

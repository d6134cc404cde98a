"""regex_example on the patterns value objects validate with; each example is checked by Java's own regex engine."""

from __future__ import annotations

import subprocess
from pathlib import Path

from junitbot.generation.template.regex import regex_example, regex_matches

PATTERNS = {
    r"[A-Z]{3}-\d{4}": "ABC-1234",
    r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$": "a@a.ab",
    r"(EUR|USD|GBP)": "EUR",
    r"ISBN-\d{9}[\dX]": "ISBN-1234567891",
    r"\p{Upper}{2}\d{2,4}": "AB12",
    r"(?i)[a-f0-9]{8}": "abcdef01",
    r"[+-]?\d+(\.\d{1,2})?": "1",
    r"\Q1.0\E": "1.0",
    r"(?<year>\d{4})-(?<month>0[1-9]|1[0-2])": "1234-01",
    r"[^,;]{3,5}+": "abc",
}


def test_examples_of_common_patterns() -> None:
    assert {pattern: regex_example(pattern) for pattern in PATTERNS} == PATTERNS


def test_what_it_cannot_read_gives_no_example() -> None:
    assert regex_example(r"[a-z&&[^aeiou]]") is None  # class intersection
    assert regex_example(r"(a)\1") is None  # back-reference
    assert regex_example(r"(?=.*\d)\w+") is None  # lookahead
    assert regex_example(r"(unclosed") is None
    assert regex_example(r"a)") is None


def test_matches_is_a_whole_match_and_unknown_where_python_cannot_read_java() -> None:
    assert regex_matches(r"[A-Z]{3}-\d{4}", "ABC-1234") is True
    assert regex_matches(r"[A-Z]{3}-\d{4}", "xABC-1234") is False
    assert regex_matches(r"\p{Upper}+", "AB") is None


def test_java_agrees_with_every_example(tmp_path: Path) -> None:
    checks = "\n".join(
        f'        check({_java(pattern)}, {_java(example)});' for pattern, example in PATTERNS.items())
    source = tmp_path / "Agree.java"
    source.write_text(
        "public class Agree {\n"
        "    static void check(String pattern, String text) {\n"
        "        if (!text.matches(pattern)) throw new AssertionError(pattern + \" / \" + text);\n"
        "    }\n"
        "    public static void main(String[] args) {\n" + checks + "\n    }\n}\n")
    run = subprocess.run(["java", str(source)], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr


def _java(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

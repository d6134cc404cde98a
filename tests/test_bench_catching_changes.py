"""bench/bench_catching_changes.py: reading `git log --numstat`, sorting commits into candidates, and what it reads
from a corpus clone (a broken history, the pinned pom, the Maven it builds with)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path

import git
import pytest

_PATH = Path(__file__).resolve().parents[1] / "bench" / "bench_catching_changes.py"
_SPEC = importlib.util.spec_from_file_location("bench_catching_changes", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
sys.modules["bench_catching_changes"] = bench  # dataclasses look their module up by name
_SPEC.loader.exec_module(bench)

# Four commits as `git log --no-merges --numstat --format=LOG_FORMAT` prints them (NUL, sha parents, \x01 subject).
LOG = (
    "\x00aaaa1111 pppp0001\x01Fix lastIndexOf(\"\") on an empty builder (#741)\n\n"
    "6\t2\tsrc/main/java/org/x/TextBuilder.java\n"
    "12\t0\tsrc/test/java/org/x/TextBuilderTest.java\n"
    "\x00bbbb2222 pppp0002\x01Javadoc typos\n\n"
    "3\t3\tsrc/main/java/org/x/Money.java\n"
    "1\t1\tsrc/main/java/org/x/package-info.java\n"
    "\x00cccc3333 pppp0003 qqqq0003\x01Merge fix branch\n\n"
    "1\t1\tsrc/main/java/org/x/Money.java\n"
    "1\t0\tsrc/test/java/org/x/MoneyTest.java\n"
    "\x00dddd4444 pppp0004\x01Fix bug in the parser module\n\n"
    "30\t20\tparser/src/main/java/org/x/p/Parser.java\n"
    "-\t-\tsrc/main/resources/data.bin\n"
    "4\t0\tparser/src/test/java/org/x/p/ParserTest.java\n"
    "\x00eeee5555 pppp0005\x01Move {old => new} package\n\n"
    "2\t2\tsrc/main/java/org/x/{old => new}/Thing.java\n"
)


def test_numstat_is_read_into_commits_with_main_classes_lines_and_tests() -> None:
    commits = bench.parse_numstat(LOG)

    assert [c.sha for c in commits] == ["aaaa1111", "bbbb2222", "cccc3333", "dddd4444", "eeee5555"]
    first = commits[0]
    assert first.parent == "pppp0001"
    assert first.subject == 'Fix lastIndexOf("") on an empty builder (#741)'
    assert first.main_classes == ("org.x.TextBuilder",)
    assert first.main_lines == 8
    assert first.test_files == ("src/test/java/org/x/TextBuilderTest.java",)
    assert commits[1].main_classes == ("org.x.Money",)  # package-info is not a class
    assert commits[2].parent is None  # a merge has no single parent
    assert commits[3].main_classes == ("org.x.p.Parser",)  # a module's sources; binary rows count no lines
    assert commits[3].main_lines == 50
    assert commits[4].main_classes == ("org.x.new.Thing",)  # a rename counts under its new name


def test_a_small_fix_with_its_own_test_is_a_behaviour_candidate_and_a_javadoc_change_a_refactoring() -> None:
    commits = {c.sha: c for c in bench.parse_numstat(LOG)}

    assert bench.classify(commits["aaaa1111"]) == "behaviour"
    assert bench.classify(commits["bbbb2222"]) == "refactoring"
    assert bench.classify(commits["cccc3333"]) is None  # a merge
    assert bench.classify(commits["dddd4444"]) is None  # 50 changed lines: too big to read as one change
    assert bench.classify(commits["dddd4444"], max_lines=60) == "behaviour"


def test_every_curated_pick_names_a_kind_and_a_unique_sha() -> None:
    for picks in bench.CURATED.values():
        shas = [p.sha for p in picks]
        assert len(set(shas)) == len(shas)
        assert {p.kind for p in picks} == {"behaviour", "refactoring"}


def test_a_clone_whose_blobs_are_missing_fails_with_one_line_naming_it(
        make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo({"src/main/java/org/x/A.java": "class A {}\n"})
    with git.Repo(root) as repo:
        blob = repo.git.rev_parse("HEAD:src/main/java/org/x/A.java")
    (root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()  # as in a clone of a mirror that lacks the blob

    with pytest.raises(bench.CorpusError) as caught:
        bench.history(root)

    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{root.name}: git log cannot read the history (")
    assert blob[:7] in message or "unable to read" in message


def test_the_pinned_pom_is_the_corpus_heads_even_after_the_clone_moves(
        make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    source = make_java_repo({"pom.xml": "<project>head</project>\n"})
    with git.Repo.clone_from(str(source), str(tmp_path / "clone")) as clone:
        (tmp_path / "clone" / "pom.xml").write_text("<project>moved</project>\n", encoding="utf-8")
        clone.git.commit("-q", "-am", "the clone moves on")

        assert bench.pinned_pom(clone) == "<project>head</project>"  # origin/HEAD
    with git.Repo(source) as no_origin:
        assert bench.pinned_pom(no_origin) == "<project>head</project>"  # no origin/HEAD: HEAD


def test_the_check_builds_with_the_maven_junitbot_would_pick(tmp_path: Path) -> None:
    wrapper = tmp_path / "mvnw"  # junitbot prefers the repository's wrapper; no Maven runs to find that out
    wrapper.write_text("#!/bin/sh\n", encoding="utf-8")
    wrapper.chmod(0o755)
    assert os.access(wrapper, os.X_OK)

    assert bench.maven(tmp_path) == [str(wrapper)]

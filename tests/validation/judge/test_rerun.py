"""rerun_tests end to end on a small git repository: real javac, real guarded JUnit runs, real JaCoCo.

Commit A is the base; commit B changes a greeting (a behaviour change) and the signature of `add` (a test that no
longer compiles). The same test class runs as written on B (the head's tree) and on A (its base worktree).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import git
import pytest

from junitbot.config import load_config
from junitbot.state import StateDir
from junitbot.validation import (
    Checkout,
    ProjectClasspath,
    RerunClass,
    RerunReport,
    TestCandidate,
    TestOutcome,
    base_classpath,
    base_worktree,
    discover_classpaths,
    main_sources_at,
    rerun_tests,
)
from junitbot.validation.compiling.main_classes import build_main_classes
from tests.conftest import commit_all

CALC = "src/main/java/com/acme/Calc.java"
CALC_A = """package com.acme;

public class Calc {
    public static int add(int a, int b) { return a + b; }
    public static String greet(String name) { return "Hello, " + name; }
    public static int clamp(int value, int max) { return value < max ? value : max; }
}
"""
CALC_B = CALC_A.replace('"Hello, "', '"Hi, "').replace("add(int a, int b) { return a + b; }",
                                                        "add(int a, int b, int c) { return a + b + c; }")
TEST_PATH = "src/test/java/com/acme/CalcTest.java"
TEST = """package com.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    static int started;

    @Test
    void a_counts() {
        started++;
    }

    @Test
    void addSums() {
        assertEquals(5, Calc.add(2, 3));
    }

    @Test
    void clampKeepsSmallValues() {
        assertEquals(3, Calc.clamp(3, 5));
    }

    @Test
    void greetSaysHello() {
        assertEquals("Hello, Ann", Calc.greet("Ann"));
    }

    @Test
    void z_passesOnlyAlone() {
        assertEquals(0, started);
    }
}
"""
BROKEN_PATH = "src/test/java/com/acme/BrokenTest.java"
BROKEN = """package com.acme;

import org.junit.jupiter.api.Test;

class BrokenTest {
    private final int unused = Calc.add(1, 2);

    @Test
    void nothing() {
    }
}
"""


@dataclass(frozen=True)
class Repo:
    root: Path
    state: StateDir
    base: str
    head: str
    classpath: ProjectClasspath


# One module fixture, one worker: building it is the expensive part (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("rerun-calc")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Repo]:
    root = tmp_path_factory.mktemp("rerun") / "calc"
    (root / CALC).parent.mkdir(parents=True)
    (root / CALC).write_text(CALC_A, encoding="utf-8")
    with pytest.MonkeyPatch.context() as env:
        for name in ("AUTHOR", "COMMITTER"):
            env.setenv(f"GIT_{name}_NAME", "Test Author")
            env.setenv(f"GIT_{name}_EMAIL", "author@example.com")
        with git.Repo.init(root, initial_branch="main") as git_repo:
            base = commit_all(git_repo, "A")
            (root / CALC).write_text(CALC_B, encoding="utf-8")
            head = commit_all(git_repo, "B: Hi, and add takes three")
        state = StateDir(root.parent / "state")
        classpath = discover_classpaths(root, load_config(root, environ={}).validation, state=state)
        yield Repo(root=root, state=state, base=base, head=head, classpath=classpath)


def _tests() -> list[TestCandidate]:
    return [TestCandidate(path=TEST_PATH, source=TEST, target="com.acme.Calc"),
            TestCandidate(path=BROKEN_PATH, source=BROKEN, target="com.acme.Calc")]


@pytest.fixture(scope="module")
def on_head(repo: Repo) -> RerunReport:
    tree = Checkout(root=repo.root, main_sources=tuple(main_sources_at(repo.root, repo.head)), commit=repo.head)
    return rerun_tests(_tests(), tree=tree, settings=load_config(repo.root, environ={}).validation, state=repo.state,
                       classpath=repo.classpath)


def _class(report: RerunReport, path: str = TEST_PATH) -> RerunClass:
    return next(c for c in report.classes if c.path == path)


def _outcome(report: RerunReport, method: str) -> TestOutcome:
    return next(o for o in _class(report).outcomes if o.method == method)


def _line_of(text: str) -> int:
    return next(n for n, line in enumerate(TEST.splitlines(), 1) if text in line)


def test_a_test_that_still_passes_passes(on_head: RerunReport) -> None:
    assert on_head.commit is not None
    assert _outcome(on_head, "clampKeepsSmallValues").status == "passed"
    assert _outcome(on_head, "a_counts").status == "passed"


def test_a_changed_behaviour_fails_with_expected_actual_and_line(on_head: RerunReport) -> None:
    greet = _outcome(on_head, "greetSaysHello")
    assert greet.status == "failed"
    assert (greet.expected, greet.actual) == ("Hello, Ann", "Hi, Ann")
    assert greet.line == _line_of('assertEquals("Hello, Ann"')
    assert greet.message is not None and "but was: <Hi, Ann>" in greet.message


def test_a_method_that_no_longer_compiles_costs_only_itself(on_head: RerunReport) -> None:
    add = _outcome(on_head, "addSums")
    assert add.status == "not-compiled"
    assert add.line == _line_of("Calc.add(2, 3)")
    assert add.message is not None and "add" in add.message
    calc = _class(on_head)
    assert calc.compiled and not calc.ok
    assert {o.method for o in calc.failed} == {"addSums", "greetSaysHello", "z_passesOnlyAlone"}


def test_an_error_outside_every_method_makes_the_class_not_compiled(on_head: RerunReport) -> None:
    broken = _class(on_head, BROKEN_PATH)
    assert not broken.compiled and not broken.ok
    assert [(o.method, o.status) for o in broken.outcomes] == [("nothing", "not-compiled")]
    assert broken.note is not None and "does not compile" in broken.note


def test_a_method_that_passes_alone_is_flaky_not_failed(on_head: RerunReport) -> None:
    assert _outcome(on_head, "z_passesOnlyAlone").status == "flaky"


def test_the_coverage_of_the_target_by_the_class_is_measured(on_head: RerunReport) -> None:
    calc = _class(on_head)
    assert calc.line_coverage is not None and 0 < calc.line_coverage <= 1
    assert calc.branch_coverage is not None and 0 < calc.branch_coverage < 1  # clamp's `value < max` one way only


def test_on_the_base_worktree_the_changed_behaviour_passes(repo: Repo) -> None:
    worktree = base_worktree(repo.root, repo.base, repo.state)
    assert (worktree / CALC).read_text(encoding="utf-8") == CALC_A
    tree = Checkout(root=worktree, main_sources=tuple(main_sources_at(repo.root, repo.base)), commit=repo.base)
    report = rerun_tests(_tests()[:1], tree=tree, settings=load_config(worktree, environ={}).validation,
                         state=repo.state, classpath=base_classpath(repo.classpath), coverage=False)
    assert _outcome(report, "greetSaysHello").status == "passed"
    assert _outcome(report, "addSums").status == "passed"
    assert _class(report).line_coverage is None


def test_the_heads_main_classes_never_reach_the_base_run(repo: Repo) -> None:
    """Even given the head's classpath with its build output, the base run compiles the base's sources."""
    build = build_main_classes(repo.root, main_sources_at(repo.root, repo.head),
                               classpath=repo.classpath.primary.entries, cache_dir=repo.root / "target")
    head = repo.classpath.model_copy(update={"modules": (
        repo.classpath.primary.model_copy(update={"main_classes": str(build.classes_dir)}),)})
    assert base_classpath(head).primary.main_classes is None
    worktree = base_worktree(repo.root, repo.base, repo.state)
    tree = Checkout(root=worktree, main_sources=tuple(main_sources_at(repo.root, repo.base)))
    report = rerun_tests(_tests()[:1], tree=tree, settings=load_config(worktree, environ={}).validation,
                         state=repo.state, classpath=head, coverage=False)
    assert _outcome(report, "greetSaysHello").status == "passed"
    # and on the head itself, its own build output is what runs
    on_head = rerun_tests(_tests()[:1], tree=Checkout(root=repo.root,
                                                      main_sources=tuple(main_sources_at(repo.root, repo.head))),
                          settings=load_config(repo.root, environ={}).validation, state=repo.state, classpath=head,
                          coverage=False)
    assert _outcome(on_head, "greetSaysHello").status == "failed"

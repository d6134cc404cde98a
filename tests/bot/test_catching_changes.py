"""Catching changes end to end: `junitbot ci` on pushes of a real git history, the real pipeline, the GitHub double.

junitbot's tests for a small validator library are generated and merged first; then each push is one kind of
change a maintainer makes: a message change, a boundary fix, a refactoring, a signature change.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.bot import CiOutcome, pipeline_runner
from junitbot.runs import RunRequest, run_pipeline
from tests.bot.conftest import World, make_bare_world, serving

VALIDATOR_PATH = "src/main/java/com/acme/forms/Validator.java"
SIGN_UP_PATH = "src/main/java/com/acme/forms/SignUp.java"
VALIDATOR_TEST = "src/test/java/com/acme/forms/ValidatorGeneratedTest.java"
SIGN_UP_TEST = "src/test/java/com/acme/forms/SignUpGeneratedTest.java"
VALIDATOR = """package com.acme.forms;

public final class Validator {
    private final int maxLength;

    public Validator(int maxLength) {
        this.maxLength = maxLength;
    }

    public String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "name is required";
        }
        if (name.length() > maxLength) {
            return "name is too long";
        }
        return null;
    }

    public boolean isAdult(int age) {
        return age > 18;
    }
}
"""
SIGN_UP = """package com.acme.forms;

public final class SignUp {
    private final Validator validator;

    public SignUp(Validator validator) {
        this.validator = validator;
    }

    public String register(String name, int age) {
        String problem = validator.problem(name);
        if (problem != null) {
            return "rejected: " + problem;
        }
        return validator.isAdult(age) ? "welcome " + name : "ask a parent, " + name;
    }
}
"""


# One worker builds the merged tests once (`--dist loadgroup`); each test pushes onto its own copy.
pytestmark = pytest.mark.xdist_group("catching-changes")


@pytest.fixture(scope="module")
def merged_tests(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The test files a full pass of junitbot wrote for the library: what its maintainers merged."""
    tmp = tmp_path_factory.mktemp("first-pass")
    with serving(make_bare_world(tmp, {VALIDATOR_PATH: VALIDATOR, SIGN_UP_PATH: SIGN_UP})) as world:
        first = run_pipeline(world.root, world.config, world.state, RunRequest(full=True))
        assert {r.target for r in first.results if r.status == "kept"} >= {"com.acme.forms.Validator"}
        return {f.path: (world.root / f.path).read_text(encoding="utf-8")
                for f in first.files if f.action == "written"}


@pytest.fixture
def library(tmp_path: Path, merged_tests: dict[str, str]) -> Iterator[World]:
    """The library with junitbot's tests merged into main; a CI runner that starts without junitbot's state."""
    with serving(make_bare_world(tmp_path, {VALIDATOR_PATH: VALIDATOR, SIGN_UP_PATH: SIGN_UP})) as world:
        world.commit(merged_tests, "merge junitbot's tests")
        yield world


def _push(world: World, files: dict[str, str], message: str) -> CiOutcome:
    before, after = world.commit(files, message)
    environ = world.environ("push", world.push_event(before, after, message=message))
    return world.run(environ, runner=pipeline_runner)


def _summary(world: World) -> str:
    return max(world.tmp.glob("summary-*.md"), key=lambda p: p.stat().st_mtime).read_text(encoding="utf-8")


def test_a_message_change_is_reported_first_and_only_the_changed_class_is_regenerated(library: World) -> None:
    world = library
    old_test = (world.root / VALIDATOR_TEST).read_text(encoding="utf-8")
    assert '"name is required"' in old_test

    outcome = _push(world, {VALIDATOR_PATH: VALIDATOR.replace('"name is required"', '"a name is required"')},
                    "say what is missing")

    report = outcome.report
    assert report is not None and report.changes is not None
    found = report.changes.behaviour_changes
    assert any(c.target == "com.acme.forms.Validator" and c.expected is not None and "name is required" in c.expected
               and c.actual is not None and "a name is required" in c.actual for c in found)
    assert {k for c in found for k in c.changes} == {"com.acme.forms.Validator#problem/1"}
    # The changed class, and a dependent only where its own tests changed outcome (SignUp quotes the message).
    failing = {c.target for c in found}
    assert {r.target for r in report.results} == failing == set(report.changes.regenerated)
    assert outcome.delivery is not None and outcome.delivery.status == "created"
    assert set(outcome.delivery.files) == {VALIDATOR_TEST, *([SIGN_UP_TEST] if "com.acme.forms.SignUp" in failing
                                                             else [])}
    # The pull request lists the behaviour change before anything else, old expectation beside the new value.
    pull = world.double.open_pulls()[0]
    body = pull["body"]
    assert body.index("Behaviour changes") < body.index("### Classes")
    assert "name is required" in body and "a name is required" in body
    new_test = world.remote_file("junitbot/main", VALIDATOR_TEST) or ""
    assert '"a name is required"' in new_test and '"name is required"' not in new_test
    # The job's annotations point at the changed line of the code, and the summary says the same.
    line = VALIDATOR.splitlines().index('            return "name is required";') + 1
    assert f"::warning file={VALIDATOR_PATH},line={line}," in world.stdout.getvalue()
    assert "Behaviour changes" in _summary(world)


def test_a_refactoring_gives_no_finding_and_no_churn(library: World) -> None:
    world = library
    refactored = VALIDATOR.replace(
        "        if (name == null || name.isEmpty()) {",
        "        boolean missing = name == null || name.isEmpty();\n        if (missing) {").replace(
        "    public boolean isAdult(int age) {",
        "    // Adults may sign up alone.\n    public boolean isAdult(int age) {")

    outcome = _push(world, {VALIDATOR_PATH: refactored}, "name the condition")

    report = outcome.report
    assert report is not None and report.changes is not None
    assert report.changes.behaviour_changes == () and report.changes.catching == ()
    # Its tests ran first and still pass; new tests were written, none fails before the change: nothing changes.
    assert "no new test fails before the change" in report.changes.left_alone["com.acme.forms.Validator"]
    assert VALIDATOR_TEST in report.changes.rerun
    assert [(r.target, r.status) for r in report.results] == [("com.acme.forms.Validator", "unchanged")]
    assert not [f for f in report.files if f.action == "written"]
    assert outcome.delivery is not None and outcome.delivery.status == "nothing"
    assert world.double.open_pulls() == []


def test_a_boundary_fix_is_caught_by_the_old_test_and_by_a_new_one_that_fails_before_it(library: World) -> None:
    world = library
    outcome = _push(world, {VALIDATOR_PATH: VALIDATOR.replace("age > 18", "age >= 18")}, "adults are 18")

    report = outcome.report
    assert report is not None and report.changes is not None
    changes = report.changes
    # The old tests pinned 1 and 19, which the fix does not change: none fails. A new test at 18 fails before it.
    assert all(c.changes == ("com.acme.forms.Validator#isAdult/1",) for c in changes.behaviour_changes)
    assert changes.catching and all(c.base_commit == changes.base for c in changes.catching)
    assert {c.test_path for c in changes.catching} == {VALIDATOR_TEST}
    new_test = world.remote_file("junitbot/main", VALIDATOR_TEST) or ""
    assert all(f"void {c.method}()" in new_test for c in changes.catching) and "= 18;" in new_test
    body = world.double.open_pulls()[0]["body"]
    assert body.index("Tests that catch this change") < body.index("### Classes")


def test_a_signature_change_reports_the_old_tests_that_no_longer_compile(library: World) -> None:
    world = library
    validator = VALIDATOR.replace("public boolean isAdult(int age) {\n        return age > 18;",
                                  "public boolean isAdult(int age, int adultAge) {\n        return age >= adultAge;")
    sign_up = SIGN_UP.replace("validator.isAdult(age)", "validator.isAdult(age, 18)")

    outcome = _push(world, {VALIDATOR_PATH: validator, SIGN_UP_PATH: sign_up}, "the age of majority varies")

    report = outcome.report
    assert report is not None and report.changes is not None
    kinds = {c.member: c.kind for c in report.changes.member_changes if c.owner == "com.acme.forms.Validator"}
    assert kinds.get("isAdult/1") == "signature" or kinds.get("isAdult/2") in ("signature", "added")
    stale = [c for c in report.changes.behaviour_changes if c.status == "not-compiled"]
    assert stale and all(c.test_path == VALIDATOR_TEST for c in stale)
    assert "com.acme.forms.Validator" in report.changes.regenerated
    new_test = world.remote_file("junitbot/main", VALIDATOR_TEST) or ""
    assert re.search(r"isAdult\(\w+, \w+\)", new_test) and not re.search(r"isAdult\(\w+\)", new_test)

"""The build gate on real Maven builds made in tmp: what the project's own `mvn test` fails is dropped, what it
passes is kept, a build broken for other reasons judges nothing, and the user's work tree is never touched."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import git

from junitbot.config import ValidationSettings
from junitbot.state import StateDir
from junitbot.validation import GateResult, MavenChoice, TestCandidate, gate_tests, module_of
from junitbot.validation.judge.gate import SKIPPED_CHECKS, maven_test_argv
from tests.maven_builds import MULTI, SINGLE, greeter_test

MakeRepo = Callable[..., tuple[Path, StateDir]]
SETTINGS = ValidationSettings()
TEST = "src/test/java/demo/GreeterGeneratedTest.java"
APP_TEST = "app/src/test/java/demo/app/GreeterGeneratedTest.java"
# Passes under junitbot's runner, which sets no such property; surefire sets build.flavour=maven (maven_builds.py).
FLAVOUR = """
    @Test
    void flavour_isTheDefault() {
        assertEquals("plain", System.getProperty("build.flavour", "plain"));
    }
"""


def _snapshot(root: Path) -> dict[str, str]:
    """Every file under `root` but the state directory, with a hash of its bytes and its modification time."""
    return {p.relative_to(root).as_posix(): f"{hashlib.sha256(p.read_bytes()).hexdigest()} {p.stat().st_mtime_ns}"
            for p in sorted(root.rglob("*")) if p.is_file() and ".junitbot" not in p.relative_to(root).parts}


def _gate(root: Path, state: StateDir, *candidates: tuple[str, str]) -> GateResult:
    return gate_tests(root, [TestCandidate(path=path, source=source) for path, source in candidates],
                      settings=SETTINGS, state=state)


def test_the_module_of_a_test_is_the_nearest_folder_with_a_pom(tmp_path: Path) -> None:
    for pom in ("pom.xml", "app/pom.xml", "app/web/pom.xml"):
        (tmp_path / pom).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / pom).write_text("<project/>")
    assert module_of(tmp_path, "app/web/src/test/java/a/ATest.java") == "app/web"
    assert module_of(tmp_path, "app/src/test/java/a/ATest.java") == "app"
    assert module_of(tmp_path, "src/test/java/a/ATest.java") == ""
    assert module_of(tmp_path, "lib/src/test/java/a/ATest.java") == "", "no pom of its own: the root's module"


def test_the_command_builds_the_modules_with_what_they_need_and_runs_only_the_given_classes(tmp_path: Path) -> None:
    maven = MavenChoice(command=("/opt/mvn/bin/mvn",), source="fetched", version="3.9.16", reason="cached")
    offline = maven_test_argv(maven, ["", "app"], ["a.ATest", "b.BTest"], settings=SETTINGS, offline=True)
    assert offline[:7] == ["/opt/mvn/bin/mvn", "-q", "-B", "-o", "-pl", ".,app", "-am"]
    assert "-Dtest=a.ATest,b.BTest" in offline and "-Dsurefire.failIfNoSpecifiedTests=false" in offline
    assert set(SKIPPED_CHECKS) <= set(offline) and "-Denforcer.skip=false" in offline, "the enforcer stays"
    assert offline[-1] == "test" and not any(a.startswith("-Dmaven.repo.local") for a in offline)
    local = SETTINGS.model_copy(update={"maven_repo_local": tmp_path / "m2"})
    online = maven_test_argv(maven, ["app"], ["a.ATest"], settings=local, offline=False)
    assert "-o" not in online and f"-Dmaven.repo.local={tmp_path / 'm2'}" in online


def test_a_test_failing_only_in_the_build_is_dropped_and_the_rest_kept(make_maven_repo: MakeRepo) -> None:
    root, state = make_maven_repo(SINGLE)
    (root / "src/main/java/demo/Unsaved.java").write_text("package demo;\n\nclass Unsaved {}\n")  # work in progress
    before = _snapshot(root)
    other = greeter_test("demo", name="GreeterOtherGeneratedTest")

    result = _gate(root, state, (TEST, greeter_test("demo", methods=FLAVOUR)),
                   ("src/test/java/demo/GreeterOtherGeneratedTest.java", other))

    assert result.judged and result.why is None and result.runs == 2, result
    assert result.runner == "mvn test (Maven 3.9.16)" and result.online is None and "-o" in result.command
    flaky, fine = result.classes
    assert (flaky.test_class, flaky.judged, flaky.kept) == ("demo.GreeterGeneratedTest", True, True)
    [dropped] = flaky.dropped
    assert dropped.name == "flavour_isTheDefault"
    assert dropped.reason == "failed in mvn test (Maven 3.9.16): expected: <plain> but was: <maven>"
    assert flaky.source is not None and "flavour_isTheDefault" not in flaky.source
    assert "greet_returnsTheName" in flaky.source
    assert fine.judged and fine.kept and not fine.dropped and fine.source == other
    assert "source" not in result.model_dump()["classes"][0], "reports carry no test sources"
    assert _snapshot(root) == before, "the build ran in a scratch copy"
    assert not git.Repo(root).is_dirty(untracked_files=False)
    assert git.Repo(root).untracked_files == ["src/main/java/demo/Unsaved.java"]
    assert (state.gate / "work/src/main/java/demo/Unsaved.java").is_file(), "untracked work is built too"


def test_what_does_not_compile_in_the_build_loses_its_methods_or_else_its_class(make_maven_repo: MakeRepo) -> None:
    root, state = make_maven_repo(SINGLE)
    bad_method = greeter_test("demo", methods="""
    @Test
    void greet_misspelt() {
        assertEquals("Hello, Ada!", new Greeter(names).greeet(1));
    }
""")
    bad_field = greeter_test("demo", name="GreeterFieldGeneratedTest").replace(
        "private Names names;", "private Names names;\n    private Missing missing;")

    result = _gate(root, state, (TEST, bad_method), ("src/test/java/demo/GreeterFieldGeneratedTest.java", bad_field))

    assert result.judged and result.runs == 2
    method, field = result.classes
    assert method.kept and [m.name for m in method.dropped] == ["greet_misspelt"]
    assert (method.dropped[0].reason or "").startswith("does not compile in mvn test (Maven 3.9.16): line ")
    assert "cannot find symbol" in (method.dropped[0].reason or "")
    assert not field.kept and field.judged and field.source is None
    assert "does not compile" in (field.reason or "") and "cannot find symbol" in (field.reason or "")


def test_in_a_multi_module_build_the_test_s_module_builds_with_its_dependencies(make_maven_repo: MakeRepo) -> None:
    root, state = make_maven_repo(MULTI)

    result = _gate(root, state, (APP_TEST, greeter_test("demo.app")))

    assert result.judged and result.runs == 1 and result.why is None
    assert result.command[result.command.index("-pl") + 1] == "app" and "-am" in result.command
    [app] = result.classes
    assert (app.module, app.judged, app.kept, app.dropped) == ("app", True, True, ())
    # core's own failing test did not run: -Dtest limits surefire to the generated classes.
    assert not (state.gate / "work/core/target/surefire-reports").exists() or not any(
        (state.gate / "work/core/target/surefire-reports").glob("TEST-*.xml"))


def test_a_build_broken_for_another_reason_judges_nothing_and_drops_nothing(make_maven_repo: MakeRepo) -> None:
    root, state = make_maven_repo(SINGLE)
    greeter = root / "src/main/java/demo/Greeter.java"
    greeter.write_text(greeter.read_text().replace("names.nameOf(id)", "names.nameOf(id, 2)"))
    before = _snapshot(root)

    result = _gate(root, state, (TEST, greeter_test("demo", methods=FLAVOUR)))

    assert result.ran and not result.judged and result.runs == 1
    assert result.why is not None and result.why.startswith("src/main/java/demo/Greeter.java:11 does not compile")
    assert any("cannot be applied to given types" in line for line in result.errors)
    [greeter_test_class] = result.classes
    assert greeter_test_class.kept and not greeter_test_class.judged and not greeter_test_class.dropped
    assert greeter_test_class.reason == result.why
    assert _snapshot(root) == before


def test_what_offline_lacks_is_fetched_online_once_and_an_unresolvable_build_judges_nothing(
    make_maven_repo: MakeRepo,
) -> None:
    missing = ("<dependency><groupId>junitbot.test.absent</groupId><artifactId>absent</artifactId>"
               "<version>0.0.1</version><scope>test</scope></dependency>")
    root, state = make_maven_repo({**SINGLE, "pom.xml": SINGLE["pom.xml"].replace("<dependencies>",
                                                                                    f"<dependencies>{missing}", 1)})

    result = _gate(root, state, (TEST, greeter_test("demo")))

    assert result.online is not None and "junitbot.test.absent" in result.online, result
    assert "-o" not in result.command and result.runs == 2
    assert not result.judged and result.why == "Maven failed, but not in the generated tests"
    assert any("junitbot.test.absent" in line for line in result.errors)
    assert result.classes[0].kept and not result.classes[0].dropped


def test_a_folder_without_git_is_copied_without_its_build_output(make_maven_repo: MakeRepo) -> None:
    root, state = make_maven_repo(SINGLE, use_git=False)
    stale = root / "target/test-classes/demo/GreeterGeneratedTest.class"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"stale")

    result = _gate(root, state, (TEST, greeter_test("demo")))

    assert result.judged and result.classes[0].kept and not result.classes[0].dropped
    assert stale.read_bytes() == b"stale"
    assert not (state.gate / "work/.junitbot").exists(), "the state directory is never copied into itself"


def test_nothing_to_judge_runs_no_maven(tmp_path: Path) -> None:
    result = gate_tests(tmp_path, [], settings=SETTINGS, state=StateDir(tmp_path / "state"))
    assert (result.ran, result.judged, result.why, result.runs) == (False, False, "no kept tests to judge", 0)

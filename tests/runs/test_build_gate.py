"""The build gate in a run: a test junitbot's runner passes but the project's own `mvn test` fails is not
written, and the report says which runner judged what; switched off or without a pom, the report says so."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from junitbot.config import load_config
from junitbot.generation import GenerationResult
from junitbot.runs import RunReport, RunRequest, apply_gate, gate_in_build, judged_by, markdown_report, run_pipeline
from junitbot.state import StateDir
from junitbot.validation import (
    Frameworks,
    GateClass,
    GateResult,
    MavenChoice,
    MethodVerdict,
    TestCandidate,
    ValidationReport,
    Verdict,
)
from tests.maven_builds import SINGLE

# flavour() returns "plain" under junitbot's runner; surefire sets build.flavour=maven (tests/maven_builds.py).
LABELS = """package demo;

public class Labels {
    public String flavour() {
        return System.getProperty("build.flavour", "plain");
    }

    public String shout(String text) {
        return text.toUpperCase() + "!";
    }
}
"""
LABELS_TEST = "src/test/java/demo/LabelsGeneratedTest.java"


def test_a_test_only_the_build_fails_is_dropped_and_the_report_names_both_runners(
    make_maven_repo: Callable[..., tuple[Path, StateDir]],
) -> None:
    files = {path: text for path, text in SINGLE.items() if not path.endswith("GreeterTest.java")}
    root, state = make_maven_repo({**files, "src/main/java/demo/Labels.java": LABELS})

    report = run_pipeline(root, load_config(root, environ={}), state, RunRequest(classes=("Labels",)))

    [labels] = report.results
    assert labels.status == "kept" and labels.judged_by == ("junitbot runner", "mvn test (Maven 3.9.16)")
    assert labels.kept and all(name.startswith("shout") for name in labels.kept)
    [(name, why)] = [d for d in labels.dropped if d[0].startswith("flavour")]
    assert why == "failed in mvn test (Maven 3.9.16): expected: <plain> but was: <maven>"
    written = (root / LABELS_TEST).read_text()
    assert name not in written and "shout" in written
    assert report.gate is not None and report.gate.judged and report.gate.maven is not None
    assert "build_gate" in report.seconds
    markdown = (Path(str(report.report_dir)) / "report.md").read_text()
    assert "Build gate (mvn test (Maven 3.9.16), 2 runs," in markdown
    assert "| junitbot runner, mvn test (Maven 3.9.16) |" in markdown
    assert f"- `demo.Labels.{name}`: failed in mvn test (Maven 3.9.16): expected: <plain> but was: <maven>" in markdown
    saved = json.loads((Path(str(report.report_dir)) / "report.json").read_text())
    assert saved["gate"]["command"][-1] == "test" and saved["gate"]["maven"]["version"] == "3.9.16"
    assert RunReport.model_validate(saved).model_dump() == report.model_dump(), "report.json reads back"


def test_switched_off_or_without_a_pom_the_gate_does_not_run_and_the_report_says_so(
    make_java_repo: Callable[..., Path], tmp_path: Path,
) -> None:
    result = GenerationResult(candidates=(), validation=None)
    with_pom = make_java_repo({"pom.xml": "<project/>", ".junitbot.yml": "validation: {build_gate: false}\n"})
    off = gate_in_build(with_pom, load_config(with_pom, environ={}), StateDir(tmp_path / "s1"), result).gate
    plain = make_java_repo({"src/A.java": "class A {}"})
    no_pom = gate_in_build(plain, load_config(plain, environ={}), StateDir(tmp_path / "s2"), result).gate
    assert off is not None and no_pom is not None and not off.ran and not no_pom.ran
    report = RunReport(commit=None, mode="full", backend="template", dry_run=False, targets=0, results=(), gate=off)
    assert "Build gate: not run (switched off (validation.build_gate: false))." in markdown_report(report)
    assert no_pom.why == "not a Maven build (no pom.xml at the root)"


def test_what_the_build_dropped_leaves_verdicts_and_candidates() -> None:
    two = "package a;\nimport org.junit.jupiter.api.Test;\nclass {name} {{\n    @Test\n    void one() {{}}\n\n" \
          "    @Test\n    void two() {{}}\n}}\n"
    paths = {name: f"src/test/java/a/{name}.java" for name in ("ATest", "BTest", "CTest")}
    verdicts = tuple(Verdict(path=path, target=f"a.{name[0]}", kept=True, compiled=True, source=two.format(name=name),
                             methods=(MethodVerdict(name="one", kept=True), MethodVerdict(name="two", kept=True)))
                     for name, path in paths.items())
    result = GenerationResult(
        candidates=tuple(TestCandidate(path=v.path, source=v.source or "", target=v.target) for v in verdicts),
        validation=ValidationReport(verdicts=verdicts, classpath_source="maven", frameworks=Frameworks(),
                                    isolation="none", main_build_reused=False))
    maven = MavenChoice(command=("mvn",), source="system", version="3.9.16", reason="system")
    failed = MethodVerdict(name="two", kept=False, reason="failed in mvn test (Maven 3.9.16): boom")
    gate = GateResult(ran=True, judged=True, maven=maven, classes=(
        GateClass(path=paths["ATest"], test_class="a.ATest", module="", judged=True, kept=True, dropped=(failed,),
                  source=two.format(name="ATest").replace("    @Test\n    void two() {}\n", "")),
        GateClass(path=paths["BTest"], test_class="a.BTest", module="", judged=True, kept=False,
                  reason="does not compile in mvn test (Maven 3.9.16): line 2: cannot find symbol"),
        GateClass(path=paths["CTest"], test_class="a.CTest", module="", judged=False, kept=True,
                  reason="the build ran none of its tests")))

    gated = apply_gate(result, gate)

    assert gated.validation is not None
    a, b, c = gated.validation.verdicts
    assert a.kept and [(m.name, m.kept, m.reason) for m in a.methods] == [
        ("one", True, None), ("two", False, "failed in mvn test (Maven 3.9.16): boom")]
    assert a.source is not None and "two()" not in a.source
    assert not b.kept and b.source is None and all(not m.kept for m in b.methods)
    assert b.issues[-1].category == "build-failure" and "cannot find symbol" in b.issues[-1].message
    assert c == verdicts[2], "a class the build did not judge keeps what junitbot's runner kept"
    assert [cand.path for cand in gated.candidates] == [paths["ATest"], paths["CTest"]]
    assert "two()" not in gated.candidates[0].source and gated.gate == gate
    assert judged_by(a, gate) == ("junitbot runner", "mvn test (Maven 3.9.16)")
    assert judged_by(c, gate) == ("junitbot runner",) and judged_by(None, gate) == ()

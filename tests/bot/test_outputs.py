"""GitHub Actions plumbing: outputs that survive any value, annotations escaped by GitHub's rules."""

from __future__ import annotations

from pathlib import Path

from junitbot.bot.outputs import (
    annotation,
    annotations_for,
    append_summary,
    escape_data,
    escape_property,
    write_outputs,
)
from junitbot.runs import ClassResult


def test_escaping_follows_the_actions_toolkit() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_annotations_carry_file_line_and_title() -> None:
    assert annotation("warning", "two\nlines", file="src/A,B.java", line=3, title="junitbot: A") == \
        "::warning file=src/A%2CB.java,line=3,title=junitbot%3A A::two%0Alines"
    assert annotation("notice", "plain") == "::notice::plain"


def test_validation_problems_become_warnings_on_the_test_file_and_are_capped() -> None:
    result = ClassResult(target="com.acme.Money", status="kept", reason="changed",
                         test_path="src/test/java/com/acme/MoneyGeneratedTest.java",
                         dropped=(("divides", "fails"),), issues=("ERROR static: line 12: unused mock",))
    lines = annotations_for([result])
    assert lines == [
        "::warning file=src/test/java/com/acme/MoneyGeneratedTest.java,line=12,title=junitbot%3A Money::"
        "ERROR static: line 12: unused mock",
        "::warning file=src/test/java/com/acme/MoneyGeneratedTest.java,title=junitbot%3A Money::"
        "test divides dropped: fails",
    ]
    many = annotations_for([result] * 40, limit=10)
    assert len(many) == 10 and many[-1].endswith("71 more validation warnings: see the job summary")


def test_outputs_are_multiline_safe(tmp_path: Path) -> None:
    path = tmp_path / "output"
    tricky = "line one\nEOF\njunitbot_\n"
    write_outputs(path, {"classes": "a,b", "note": tricky})
    write_outputs(path, {"pr-url": ""})
    lines = path.read_text().split("\n")
    name, _, delimiter = lines[3].partition("<<")
    assert name == "note" and delimiter.startswith("junitbot_") and delimiter not in tricky
    assert "\n".join(lines[4:8]) == tricky.rstrip("\n") + "\n" and lines[8] == delimiter
    assert lines[9].startswith("pr-url<<")


def test_the_summary_is_appended(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_text("# earlier step\n")
    append_summary(path, "## junitbot\n")
    assert path.read_text() == "# earlier step\n## junitbot\n\n"


def test_behaviour_changes_are_annotated_first_on_the_changed_code_and_hostile_values_stay_escaped() -> None:
    from junitbot.runs import BehaviourChange, CatchingTest, ChangeCheck

    test_path = "src/test/java/com/acme/ValidatorGeneratedTest.java"
    change = BehaviourChange(target="com.acme.Validator", test_path=test_path,
                             test_class="com.acme.ValidatorGeneratedTest", method="problemWhenEmpty", status="failed",
                             expected="name is required", actual="a name is required\n::error::forged", line=31,
                             changes=("com.acme.Validator#problem/1",),
                             at=(("src/main/java/com/acme/Validator.java", 12),))
    unplaced = change.model_copy(update={"method": "other", "at": ()})
    catching = CatchingTest(target="com.acme.Validator", test_path=test_path,
                            method="isAdultAt18", base_commit="b" * 40, base_failure="expected true, got false")
    check = ChangeCheck(base="b" * 40, head="c" * 40, behaviour_changes=(change, unplaced), catching=(catching,))
    result = ClassResult(target="com.acme.Validator", status="kept", reason="changed", test_path="T.java",
                         dropped=(("x", "fails"),))

    lines = annotations_for([result], changes=check)

    assert lines[0] == ("::warning file=src/main/java/com/acme/Validator.java,line=12,title=junitbot%3A behaviour "
                        "change in Validator::ValidatorGeneratedTest.problemWhenEmpty passed before and fails now "
                        "(cccccccccccc): expected name is required, got a name is required%0A::error::forged")
    assert lines[1].startswith("::warning file=src/test/java/com/acme/ValidatorGeneratedTest.java,line=31,")
    assert lines[2].startswith("::notice file=src/test/java/com/acme/ValidatorGeneratedTest.java,title=junitbot%3A "
                               "a test that catches this change::ValidatorGeneratedTest.isAdultAt18 fails before")
    assert lines[3].endswith("test x dropped: fails") and len(lines) == 4
    assert all("\n" not in line for line in lines)

"""Which new tests run on the base commit to catch a change, and how one that does is kept (pure)."""

from __future__ import annotations

from pathlib import Path

from junitbot.analysis import MemberChange, MemberUse, parse_test_class
from junitbot.generation import GenerationResult
from junitbot.runs.changes import _keep_catching, fewest_put_back, to_run_on_base, touched_methods
from junitbot.runs.models import CatchingTest, ChangeCheck
from junitbot.validation import TestCandidate
from junitbot.validation.build.frameworks import Frameworks
from junitbot.validation.judge.models import Candidacy, MethodVerdict, ValidationReport, Verdict
from junitbot.validation.judge.selection import COVERED_BY_EXISTING, NOTHING_NEW
from junitbot.validation.judge.verdicts import verdict_of

_PATH = "src/test/java/a/CodecGeneratedTest.java"
_SOURCE = ("package a;\nimport org.junit.jupiter.api.Test;\nclass CodecGeneratedTest {\n"
           "    @Test\n    void encodesZero() {\n    }\n    @Test\n    void encodesOne() {\n    }\n}\n")


def _covered_by_existing() -> Verdict:
    """A class the existing tests already cover and kill: every passing method dropped for adding nothing."""
    candidacy = Candidacy(candidate=TestCandidate(path=_PATH, source=_SOURCE, target="a.Codec"),
                          test_class="a.CodecGeneratedTest", file=Path(_PATH), source=_SOURCE, compiled=True,
                          dropped={"encodesZero": NOTHING_NEW, "encodesOne": NOTHING_NEW},
                          failure=COVERED_BY_EXISTING, passed_source=_SOURCE)
    return verdict_of(candidacy, {})


def test_a_class_whose_tests_added_nothing_to_its_suite_still_runs_them_on_the_base() -> None:
    """commons-codec's Base64 (CODEC #441): its suite covers and kills everything, so no generated method is kept;
    but a test of `toIntegerBytes(ZERO)` that passes on the fix and fails before it catches the fix."""
    verdict = _covered_by_existing()
    assert not verdict.kept and verdict.passed_source == _SOURCE
    assert to_run_on_base([verdict], {"a.Codec"}) == [verdict]
    assert to_run_on_base([verdict], {"a.Other"}) == []  # a class new in this change has no base to fail on
    failed = verdict.model_copy(update={"methods": (
        MethodVerdict(name="encodesZero", kept=False, reason="failed: expected <1> but was <2>"),
        MethodVerdict(name="encodesOne", kept=False, reason=NOTHING_NEW))})
    assert to_run_on_base([failed], {"a.Codec"}) == []  # a method that failed here catches nothing


def test_a_catching_method_of_such_a_class_is_kept_and_its_class_written() -> None:
    verdict = _covered_by_existing()
    result = GenerationResult(candidates=(TestCandidate(path=_PATH, source=_SOURCE, target="a.Codec"),),
                              validation=None, skipped=())
    report = ValidationReport(verdicts=(verdict,), classpath_source="maven", frameworks=Frameworks(),
                              isolation="none", main_build_reused=False)
    caught = CatchingTest(target="a.Codec", test_path=_PATH, method="encodesZero", base_commit="abc",
                          base_failure="expected <[0]> but was <[]>")
    kept = _keep_catching(result.model_copy(update={"validation": report}), [caught])
    assert kept.validation is not None
    (after,) = kept.validation.verdicts
    assert after.kept and [m.name for m in after.methods if m.kept] == ["encodesZero"]
    assert after.source is not None and parse_test_class(after.source).test_names == ("encodesZero",)
    assert kept.candidates[0].source == after.source


def test_the_methods_a_change_touched_and_those_using_them_are_named_for_more_inputs() -> None:
    """CODEC-311 changed `RefinedSoundex.getMappingCode(char)`: that method is tried with more inputs, and so is
    `Soundex.soundex`, which calls it; a changed constructor is said as `<init>` (every instance method reads what it
    builds), a field or the class's header is not a method."""
    changes = (MemberChange(owner="a.RefinedSoundex", member="getMappingCode/1", kind="body", file="R.java"),
               MemberChange(owner="a.RefinedSoundex", member="<init>/1", kind="body", file="R.java"),
               MemberChange(owner="a.RefinedSoundex", member="MAPPING", kind="field", file="R.java"),
               MemberChange(owner="a.RefinedSoundex", member="clean/1", kind="removed", file="R.java"))
    uses = {"a.Soundex": (MemberUse(user="a.Soundex", member="a.RefinedSoundex#getMappingCode/1", via="soundex/1"),
                          MemberUse(user="a.Soundex", member="a.RefinedSoundex#getMappingCode/1", via="<type>"))}
    check = ChangeCheck(base="b" * 40, head="h" * 40, member_changes=changes, uses=uses)
    assert touched_methods(check) == {"a.RefinedSoundex": ("<init>", "getMappingCode"), "a.Soundex": ("soundex",)}


def test_the_class_s_own_methods_over_a_changed_helper_are_named_too() -> None:
    """CODEC-313 changed the static `encodeQuotedPrintable`; the codec's `encode`, which calls it, is where a strict
    codec's short input shows the fix."""
    changes = (MemberChange(owner="a.Codec", member="encodeQuotedPrintable/3", kind="body", file="C.java"),)
    check = ChangeCheck(base="b" * 40, head="h" * 40, member_changes=changes,
                        touched={"a.Codec": ("encode", "encodeQuotedPrintable")})
    assert touched_methods(check) == {"a.Codec": ("encode", "encodeQuotedPrintable")}
    assert touched_methods(check.model_copy(update={"touched": {}})) == {"a.Codec": ("encodeQuotedPrintable",)}


def test_of_many_catching_methods_the_gain_rule_dropped_two_are_put_back_other_methods_first() -> None:
    """CODEC-313: six short inputs of a strict codec failed before the fix; one file with six methods for one fix is
    more than a maintainer needs. Those kept anyway stay; of the rest two come back, another acted-on method first."""
    names = ("encode_whenEmpty_returnsEmpty", "encode_whenOneByte_returnsIt", "encodeQuotedPrintable_whenTwoBytes",
             "encode_whenTwoBytes_returnsThem", "decode_whenShort")
    verdict = Verdict(path=_PATH, target="a.Codec", kept=True, methods=(
        MethodVerdict(name="decode_whenShort", kept=True),
        *(MethodVerdict(name=n, kept=False, reason=NOTHING_NEW) for n in names[:-1])))
    catching = [CatchingTest(target="a.Codec", test_path=_PATH, method=n, base_commit="b", base_failure="x")
                for n in names]
    assert [c.method for c in fewest_put_back(catching, [verdict])] == [
        "encode_whenEmpty_returnsEmpty", "encodeQuotedPrintable_whenTwoBytes", "decode_whenShort"]
    other = [c.model_copy(update={"test_path": "src/test/java/a/OtherGeneratedTest.java"}) for c in catching[:1]]
    assert len(fewest_put_back([*catching, *other], [verdict])) == 4  # per test class

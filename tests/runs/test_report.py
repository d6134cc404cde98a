"""The run report tells, per class, where its tests came from and what the model rounds did."""

from __future__ import annotations

from junitbot.generation import Correction, GenerationResult, RoundRecord, Target, TargetOutcome
from junitbot.runs import RunReport, markdown_report
from junitbot.runs.report import class_results, dependency_advice
from junitbot.validation import (
    Counter,
    Frameworks,
    MethodVerdict,
    ReviewSummary,
    Severity,
    SuiteFigures,
    SuiteGain,
    ValidationIssue,
    ValidationReport,
    Verdict,
)


def test_report_shows_origin_model_rounds_and_corrections() -> None:
    outcome = TargetOutcome(
        target="com.acme.Cart", path="src/test/java/com/acme/CartGeneratedTest.java", backend="openai",
        model="qwen-coder", status="kept", rounds=2, tokens_in=1200, tokens_out=340, origin="corrected",
        history=(RoundRecord(round=1, status="failed", problems=("cannot find symbol: Basket",),
                             transcript="prompts/com.acme.Cart/round-1.md"),
                 RoundRecord(round=2, status="kept", fixed=("cannot find symbol: Basket",),
                             transcript="prompts/com.acme.Cart/round-2.md")),
        corrections=(Correction(method="total_of_two_items", line=31, expected="15", actual="10"),),
    )
    generation = GenerationResult(candidates=(), validation=None, backend="openai", llm=(outcome,))
    [result] = class_results([Target(fqn="com.acme.Cart", file="Cart.java", reason="changed")], generation)
    result = result.model_copy(update={"status": "kept", "test_path": outcome.path})
    assert (result.origin, result.model, result.rounds, result.tokens_in, result.tokens_out) == (
        "corrected", "qwen-coder", 2, 1200, 340)
    text = markdown_report(RunReport(commit="abc", mode="incremental", backend="openai", dry_run=False, targets=1,
                                     results=(result,)))
    assert "| `com.acme.Cart` | kept | corrected |" in text
    # Each round's prompt and answer, linked from the run directory the report lies in.
    assert ("| `com.acme.Cart` | qwen-coder | 2 | 1200 | 340 | [1](prompts/com.acme.Cart/round-1.md) "
            "[2](prompts/com.acme.Cart/round-2.md) |") in text
    assert "round 2 (kept): fixed cannot find symbol: Basket" in text
    # A wrong expectation is a finding (issue 17): what the model expected beside what the code returns.
    findings = text.split("## Expected values to check", 1)[1]
    assert "| `CartGeneratedTest.total_of_two_items` | 31 | `15` | `10` |" in findings
    assert result.attempts == outcome.history and result.corrections == outcome.corrections


def test_the_report_says_which_test_dependencies_to_add_with_their_pom_entries() -> None:
    frameworks = Frameworks(junit_jupiter="5.9.2", mockito="4.11.0")
    params = ValidationIssue(severity=Severity.ERROR, pass_name="javac", category="missing-package",
                             message="package org.junit.jupiter.params does not exist", line=5)
    verdict = Verdict(path="src/test/java/com/acme/CartGeneratedTest.java", target="com.acme.Cart", kept=False,
                      issues=(params,))
    validation = ValidationReport(verdicts=(verdict,), classpath_source="maven", frameworks=frameworks,
                                  isolation="none", main_build_reused=False)
    generation = GenerationResult(candidates=(), validation=validation, frameworks=frameworks, java_release=8,
                                  skipped=())
    advice = dependency_advice(generation)
    assert [a.coordinates for a in advice] == ["org.junit.jupiter:junit-jupiter-params:5.9.2",
                                               "org.mockito:mockito-junit-jupiter:4.11.0"]
    text = markdown_report(RunReport(commit="abc", mode="full", backend="template", dry_run=True, targets=1,
                                     results=(), advice=advice))
    assert "## Test dependencies to add" in text
    assert "- `org.mockito:mockito-junit-jupiter:4.11.0`: Mockito 4.11.0 is there without its JUnit 5 extension" in text
    assert ("```xml\n<dependency>\n    <groupId>org.mockito</groupId>\n    <artifactId>mockito-junit-jupiter"
            "</artifactId>\n    <version>4.11.0</version>\n    <scope>test</scope>\n</dependency>\n```") in text
    assert dependency_advice(GenerationResult(candidates=(), validation=None)) == ()  # nothing known


def test_the_report_shows_each_class_suite_before_and_after_with_mutants_and_the_lint() -> None:
    gain = SuiteGain(
        existing_tests=("com.acme.CartTest",),
        before=SuiteFigures(lines=Counter(covered=6, missed=4), branches=Counter(covered=1, missed=3),
                            mutants=Counter(covered=5, missed=5)),
        generated=SuiteFigures(lines=Counter(covered=5, missed=5), branches=Counter(covered=2, missed=2),
                               mutants=Counter(covered=4, missed=6)),
        after=SuiteFigures(lines=Counter(covered=9, missed=1), branches=Counter(covered=3, missed=1),
                           mutants=Counter(covered=8, missed=2)))
    verdict = Verdict(path="src/test/java/com/acme/CartGeneratedTest.java", target="com.acme.Cart", kept=True,
                      gain=gain)
    validation = ValidationReport(verdicts=(verdict,), classpath_source="maven", frameworks=Frameworks(),
                                  isolation="none", main_build_reused=False)
    [result] = class_results([Target(fqn="com.acme.Cart", file="Cart.java", reason="changed")],
                             GenerationResult(candidates=(), validation=validation))
    assert result.mutation_score == 0.4
    review = ReviewSummary.merged([ReviewSummary(counts={"duplicate-body": 1})])
    text = markdown_report(RunReport(commit="abc", mode="full", backend="template", dry_run=True, targets=1,
                                     results=(result,), review=review))
    assert "| `com.acme.Cart` | 1 | 60% → 90% | 25% → 75% | 50% → 80% | 50%, 50%, 40% |" in text
    assert "| `duplicate-body` | 1 |" in text and "| `weak-oracle` | 0 |" in text


def test_a_class_that_kept_nothing_says_what_dropped_its_methods_not_why_it_was_chosen() -> None:
    """Two fleet classes read "dropped: full pass": the reason they were targets, not why nothing was kept."""
    methods = (MethodVerdict(name="add_returnsSum", kept=False, reason="failed: expected 3, got 4"),
               MethodVerdict(name="add_withZero", kept=False, reason="adds nothing the existing tests do not"),
               MethodVerdict(name="add_withMax", kept=False, reason="adds nothing the existing tests do not"))
    verdict = Verdict(path="src/test/java/com/acme/CartGeneratedTest.java", target="com.acme.Cart", kept=False,
                      methods=methods)
    validation = ValidationReport(verdicts=(verdict,), classpath_source="maven", frameworks=Frameworks(),
                                  isolation="none", main_build_reused=False)
    generation = GenerationResult(candidates=(), validation=validation)
    [result] = class_results([Target(fqn="com.acme.Cart", file="Cart.java", reason="full pass")], generation)
    assert result.status == "dropped"
    assert result.reason == "2 of 3 methods dropped: adds nothing the existing tests do not"

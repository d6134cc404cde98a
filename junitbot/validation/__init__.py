"""Validation of candidate tests: static passes, batch javac, sandboxed JUnit runs, JaCoCo, verdicts."""

from __future__ import annotations

from junitbot.validation.classpath import detect_frameworks, discover_classpath
from junitbot.validation.models import (
    ClassCoverage,
    Classpath,
    CompileResult,
    Counter,
    Frameworks,
    MethodCoverage,
    MethodVerdict,
    RunConditions,
    Severity,
    TestCandidate,
    TestCaseResult,
    TestRunResult,
    ValidationIssue,
    ValidationReport,
    Verdict,
)
from junitbot.validation.validate import safe_test_path, test_class_name, validate_candidates

__all__ = [
    "ClassCoverage",
    "Classpath",
    "CompileResult",
    "Counter",
    "Frameworks",
    "MethodCoverage",
    "MethodVerdict",
    "RunConditions",
    "Severity",
    "TestCandidate",
    "TestCaseResult",
    "TestRunResult",
    "ValidationIssue",
    "ValidationReport",
    "Verdict",
    "detect_frameworks",
    "discover_classpath",
    "safe_test_path",
    "test_class_name",
    "validate_candidates",
]

"""Validation of candidate tests: static passes, batch javac, sandboxed JUnit runs, JaCoCo, verdicts."""

from __future__ import annotations

from junitbot.validation.classpath import detect_frameworks, discover_classpath
from junitbot.validation.gate import gate_tests, module_of
from junitbot.validation.maven import maven_command, required_maven_version, version_satisfies
from junitbot.validation.models import (
    ClassCoverage,
    Classpath,
    CompileResult,
    Counter,
    Frameworks,
    GateClass,
    GateResult,
    MavenChoice,
    MethodCoverage,
    MethodVerdict,
    RunConditions,
    Severity,
    TestCandidate,
    TestCaseResult,
    TestRunResult,
    Tool,
    ValidationIssue,
    ValidationReport,
    Verdict,
)
from junitbot.validation.tools import TOOLS, ToolName, ToolSpec, ensure_tool, ensure_tools, junit_console_for
from junitbot.validation.validate import safe_test_path, test_class_name, validate_candidates

__all__ = [
    "TOOLS",
    "ClassCoverage",
    "Classpath",
    "CompileResult",
    "Counter",
    "Frameworks",
    "GateClass",
    "GateResult",
    "MavenChoice",
    "MethodCoverage",
    "MethodVerdict",
    "RunConditions",
    "Severity",
    "TestCandidate",
    "TestCaseResult",
    "TestRunResult",
    "Tool",
    "ToolName",
    "ToolSpec",
    "ValidationIssue",
    "ValidationReport",
    "Verdict",
    "detect_frameworks",
    "discover_classpath",
    "ensure_tool",
    "ensure_tools",
    "gate_tests",
    "junit_console_for",
    "maven_command",
    "module_of",
    "required_maven_version",
    "safe_test_path",
    "test_class_name",
    "validate_candidates",
    "version_satisfies",
]

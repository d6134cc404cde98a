"""Validation of candidate tests: static passes, batch javac, sandboxed JUnit runs, JaCoCo, verdicts."""

from __future__ import annotations

from junitbot.validation.advice import missing_test_dependencies
from junitbot.validation.classpath import discover_classpath, discover_classpaths
from junitbot.validation.frameworks import detect_frameworks
from junitbot.validation.gate import gate_tests, module_of
from junitbot.validation.maven import maven_command, required_maven_version, version_satisfies
from junitbot.validation.models import (
    ClassCoverage,
    Classpath,
    CompileResult,
    Counter,
    DependencyAdvice,
    Frameworks,
    GateClass,
    GateResult,
    MavenChoice,
    MethodCoverage,
    MethodVerdict,
    ProjectClasspath,
    RunConditions,
    Severity,
    TestCandidate,
    TestCaseResult,
    TestRunResult,
    Tool,
    ToolChoice,
    ValidationIssue,
    ValidationReport,
    Verdict,
)
from junitbot.validation.toolchoice import judging_tools
from junitbot.validation.tools import (
    TOOLS,
    ToolName,
    ToolSpec,
    cached_tool,
    ensure_tool,
    ensure_tools,
    junit_console_for,
)
from junitbot.validation.validate import (
    as_project,
    merge_reports,
    safe_test_path,
    test_class_name,
    validate_candidates,
)

__all__ = [
    "TOOLS",
    "ClassCoverage",
    "Classpath",
    "CompileResult",
    "Counter",
    "DependencyAdvice",
    "Frameworks",
    "GateClass",
    "GateResult",
    "MavenChoice",
    "MethodCoverage",
    "MethodVerdict",
    "ProjectClasspath",
    "RunConditions",
    "Severity",
    "TestCandidate",
    "TestCaseResult",
    "TestRunResult",
    "Tool",
    "ToolChoice",
    "ToolName",
    "ToolSpec",
    "ValidationIssue",
    "ValidationReport",
    "Verdict",
    "as_project",
    "cached_tool",
    "detect_frameworks",
    "discover_classpath",
    "discover_classpaths",
    "ensure_tool",
    "ensure_tools",
    "gate_tests",
    "judging_tools",
    "junit_console_for",
    "maven_command",
    "merge_reports",
    "missing_test_dependencies",
    "module_of",
    "required_maven_version",
    "safe_test_path",
    "test_class_name",
    "validate_candidates",
    "version_satisfies",
]

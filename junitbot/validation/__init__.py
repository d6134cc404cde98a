"""Validation of candidate tests: static passes, batch javac, sandboxed JUnit runs, JaCoCo, verdicts."""

from __future__ import annotations

from junitbot.validation.build.advice import missing_test_dependencies
from junitbot.validation.build.base_checkouts import KEPT_WORKTREES, base_classpath, base_worktree, main_sources_at
from junitbot.validation.build.classpath import discover_classpath, discover_classpaths
from junitbot.validation.build.frameworks import detect_frameworks
from junitbot.validation.build.maven import maven_command, required_maven_version, version_satisfies
from junitbot.validation.build.models import (
    Classpath,
    DependencyAdvice,
    Frameworks,
    MavenChoice,
    ProjectClasspath,
    Tool,
    ToolChoice,
)
from junitbot.validation.build.tool_choice import judging_tools
from junitbot.validation.build.tool_specs import TOOLS, ToolName, ToolSpec, junit_console_for
from junitbot.validation.build.tools import cached_tool, ensure_pit, ensure_tool, ensure_tools
from junitbot.validation.candidates import safe_test_path, test_class_name
from junitbot.validation.compiling.models import CompileResult, JavacOptions
from junitbot.validation.context import IndexedRepo, ValidationContext
from junitbot.validation.judge.gate import gate_tests, module_of
from junitbot.validation.judge.models import (
    Candidacy,
    Checkout,
    GateClass,
    GateResult,
    MethodVerdict,
    RerunClass,
    RerunReport,
    SuiteFigures,
    SuiteGain,
    TestOutcome,
    ValidationReport,
    Verdict,
)
from junitbot.validation.judge.rerun import rerun_tests
from junitbot.validation.measure.models import (
    ClassCoverage,
    ClassMutation,
    ClassProbes,
    Counter,
    MethodCoverage,
    Mutant,
    MutantStatus,
    MutationReport,
    PitOptions,
    ProbeHits,
)
from junitbot.validation.measure.per_test import (
    coverage_gain,
    per_test_config,
    per_test_exec_files,
    per_test_hits,
    per_test_listener,
)
from junitbot.validation.measure.pit import run_mutation_analysis
from junitbot.validation.measure.pit_report import parse_mutations_xml
from junitbot.validation.models import Severity, TestCandidate, ValidationIssue
from junitbot.validation.review.lint import review_sources
from junitbot.validation.review.models import REVIEW_RULES, ReviewFinding, ReviewRule, ReviewSummary
from junitbot.validation.run.expectations import expected_and_actual, thrown_value
from junitbot.validation.run.models import WHOLE_CLASS, JvmLaunch, RunConditions, TestCaseResult, TestRunResult
from junitbot.validation.validate import as_project, merge_reports, validate_candidates

__all__ = [
    "KEPT_WORKTREES",
    "REVIEW_RULES",
    "TOOLS",
    "WHOLE_CLASS",
    "Candidacy",
    "Checkout",
    "ClassCoverage",
    "ClassMutation",
    "ClassProbes",
    "Classpath",
    "CompileResult",
    "Counter",
    "DependencyAdvice",
    "Frameworks",
    "GateClass",
    "GateResult",
    "IndexedRepo",
    "JavacOptions",
    "JvmLaunch",
    "MavenChoice",
    "MethodCoverage",
    "MethodVerdict",
    "Mutant",
    "MutantStatus",
    "MutationReport",
    "PitOptions",
    "ProbeHits",
    "ProjectClasspath",
    "RerunClass",
    "RerunReport",
    "ReviewFinding",
    "ReviewRule",
    "ReviewSummary",
    "RunConditions",
    "Severity",
    "SuiteFigures",
    "SuiteGain",
    "TestCandidate",
    "TestCaseResult",
    "TestOutcome",
    "TestRunResult",
    "Tool",
    "ToolChoice",
    "ToolName",
    "ToolSpec",
    "ValidationContext",
    "ValidationIssue",
    "ValidationReport",
    "Verdict",
    "as_project",
    "base_classpath",
    "base_worktree",
    "cached_tool",
    "coverage_gain",
    "detect_frameworks",
    "discover_classpath",
    "discover_classpaths",
    "ensure_pit",
    "ensure_tool",
    "ensure_tools",
    "expected_and_actual",
    "gate_tests",
    "judging_tools",
    "junit_console_for",
    "main_sources_at",
    "maven_command",
    "merge_reports",
    "missing_test_dependencies",
    "module_of",
    "parse_mutations_xml",
    "per_test_config",
    "per_test_exec_files",
    "per_test_hits",
    "per_test_listener",
    "required_maven_version",
    "rerun_tests",
    "review_sources",
    "run_mutation_analysis",
    "safe_test_path",
    "test_class_name",
    "thrown_value",
    "validate_candidates",
    "version_satisfies",
]

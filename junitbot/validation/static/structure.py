"""The syntax and structure passes: one well-formed JUnit 5 class whose tests run and check something (pure)."""

from __future__ import annotations

from pathlib import PurePosixPath

from junitbot.analysis import Node, syntax_errors
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import (
    ERROR,
    CheckInput,
    annotation_names,
    assertion_calls,
    compact,
    issue_at,
    name_node,
    name_of,
    statements_of,
    text_of,
)

_JUNIT4_TO_5 = {
    "org.junit.Test": "org.junit.jupiter.api.Test", "org.junit.Before": "org.junit.jupiter.api.BeforeEach",
    "org.junit.After": "org.junit.jupiter.api.AfterEach", "org.junit.BeforeClass": "org.junit.jupiter.api.BeforeAll",
    "org.junit.AfterClass": "org.junit.jupiter.api.AfterAll", "org.junit.Ignore": "org.junit.jupiter.api.Disabled",
    "org.junit.Assert": "org.junit.jupiter.api.Assertions",
    "org.junit.runner.RunWith": "org.junit.jupiter.api.extension.ExtendWith",
}


# -- pass 1: syntax ----------------------------------------------------------------------------------


def check_syntax(inp: CheckInput) -> list[ValidationIssue]:
    """The source parses cleanly, declares exactly one top-level class, in the subject's package."""
    issues = [issue_at("syntax", ERROR, "syntax-error", message, line, "fix the Java syntax at this line")
              for line, message in syntax_errors(inp.test.tree)]
    tops = inp.test.nodes("top_type")
    classes = [n for n in tops if n.type == "class_declaration"]
    stem = PurePosixPath(inp.candidate.path).stem
    if not classes:
        issues.append(issue_at("syntax", ERROR, "no-test-class", "the candidate declares no top-level class", 1,
                               f"declare `class {stem}` holding the tests"))
    elif len(tops) > 1:
        names = ", ".join(name_of(n) for n in tops)
        issues.extend(issue_at("syntax", ERROR, "multiple-top-level-types",
                               f"a test file holds one top-level class; found {len(tops)}: {names}", name_node(node),
                               f"move {name_of(node)} inside {name_of(classes[0])} as a nested class or drop it")
                      for node in tops if node != classes[0])
    elif name_of(classes[0]) != stem:
        issues.append(issue_at("syntax", ERROR, "class-name-mismatch",
                               f"class {name_of(classes[0])} does not match its file name {stem}.java",
                               name_node(classes[0]), f"rename the class to {stem}"))
    subject = inp.subject
    if subject is not None and inp.test.package != subject.package:
        package = inp.test.nodes("package")
        issues.append(issue_at("syntax", ERROR, "wrong-package",
                               f"package {inp.test.package or '(default)'} differs from the package of "
                               f"{subject.name}, {subject.package or '(default)'}",
                               package[0] if package else 1, f"declare `package {subject.package};`"))
    return issues


# -- pass 2: structure -------------------------------------------------------------------------------


def check_structure(inp: CheckInput) -> list[ValidationIssue]:
    """JUnit 5 only; every test method is run by JUnit, has a body and checks something."""
    issues = _junit4_usage(inp)
    tests = inp.test.test_methods
    tops = [n for n in inp.test.nodes("top_type") if n.type == "class_declaration"]
    if not tests and tops:
        issues.append(issue_at("structure", ERROR, "no-test-methods", f"{name_of(tops[0])} has no @Test method",
                               name_node(tops[0]), "add @Test methods that exercise the class under test"))
    for method in tests:
        issues.extend(_test_method_shape(inp, method))
    return issues


def _is_junit4(name: str) -> bool:
    return name.startswith("org.junit.") and not name.startswith(("org.junit.jupiter.", "org.junit.platform."))


def _junit4_usage(inp: CheckInput) -> list[ValidationIssue]:
    issues = []
    for item in inp.test.imports:
        if _is_junit4(item.name):
            owner = item.name.rsplit(".", 1)[0] if item.static and not item.wildcard else item.name
            replacement = _JUNIT4_TO_5.get(owner, "its org.junit.jupiter counterpart")
            issues.append(issue_at("structure", ERROR, "junit4-api", f"JUnit 4 import {item.name}", item.line,
                                   f"use {replacement} (JUnit 5)"))
    for node in inp.test.nodes("annotation"):
        name = compact(node.child_by_field_name("name"))
        if _is_junit4(name) or name in ("RunWith", "Rule", "ClassRule"):
            issues.append(issue_at("structure", ERROR, "junit4-api", f"JUnit 4 annotation @{name}", node,
                                   "use @ExtendWith and JUnit 5 extensions instead of runners and rules"))
        elif name == "Test" and node.type == "annotation":
            issues.append(issue_at("structure", ERROR, "junit4-api",
                                   f"@Test{compact(node.child_by_field_name('arguments'))} is JUnit 4 style", node,
                                   "use a plain @Test with assertThrows or assertTimeout"))
    for call in inp.test.nodes("call"):
        receiver = compact(call.child_by_field_name("object"))
        if _is_junit4(receiver + "."):
            issues.append(issue_at("structure", ERROR, "junit4-api", f"JUnit 4 call {receiver}.{name_of(call)}", call,
                                   f"use {_JUNIT4_TO_5.get(receiver, 'the org.junit.jupiter API')}"))
    return issues


def _test_method_shape(inp: CheckInput, method: Node) -> list[ValidationIssue]:
    modifiers = {c.type for n in method.children if n.type == "modifiers" for c in n.children}
    returns = text_of(method.child_by_field_name("type"))
    name = name_of(method)
    if "TestFactory" in annotation_names(method):  # a factory returns its dynamic tests: never void
        if modifiers & {"private", "static"} or returns == "void":
            return [issue_at("structure", ERROR, "test-not-run",
                             f"JUnit 5 does not run {name}: a @TestFactory must be non-private, non-static and "
                             "return its dynamic tests", name_node(method),
                             f"declare it as `Stream<DynamicTest> {name}()`")]
    elif modifiers & {"private", "static"} or returns != "void":
        return [issue_at("structure", ERROR, "test-not-run",
                         f"JUnit 5 does not run {name}: test methods must be non-private, non-static and void",
                         name_node(method), f"declare it as `void {name}(...)`")]
    if not statements_of(method.child_by_field_name("body")):
        return [issue_at("structure", ERROR, "empty-test", f"test {name} has an empty body", name_node(method),
                         "exercise the class under test and assert on the outcome, or delete the method")]
    if not check_calls(inp, method):
        return [issue_at("structure", ERROR, "no-assertion",
                         f"test {name} neither asserts, verifies nor expects an exception", name_node(method),
                         "add assertEquals/assertThat on the result, verify(mock) an interaction or assertThrows")]
    return []


def check_calls(inp: CheckInput, method: Node) -> list[Node]:
    """The assertion, verification and fail calls a method makes, directly or through test helpers."""
    return assertion_calls(inp.test, method, inp.on_subject)

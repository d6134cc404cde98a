"""The syntax and structure passes: one well-formed JUnit 5 class whose tests run and check something (pure).

ERRORs are what makes a file impossible (a syntax error, no class, a class that does not match its path) or a
method that JUnit 5 never runs (private, static, non-void, or JUnit 4's `@Test`: the gate runs only the Jupiter
engine, so such a method would be kept without ever running). What javac or the run judges anyway, or what only
makes a test weak (an empty body, no assertion), is a WARNING for the report and the repair prompt (issue 18).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from junitbot.analysis import Node, Tree, syntax_errors
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import CheckInput, assertion_calls
from junitbot.validation.static.nodes import (
    ERROR,
    WARNING,
    annotation_names,
    compact,
    enclosing,
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


def syntax_issues(tree: Tree) -> list[ValidationIssue]:
    """The first few places where `tree`'s source does not parse, as the syntax pass's ERRORs."""
    return [issue_at("syntax", ERROR, "syntax-error", message, line, "fix the Java syntax at this line")
            for line, message in syntax_errors(tree)]


def check_syntax(inp: CheckInput) -> list[ValidationIssue]:
    """The source parses cleanly, declares exactly one top-level class, in the subject's package."""
    issues = syntax_issues(inp.test.tree)
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
    package = inp.test.nodes("package")
    at = package[0] if package else 1
    folder = PurePosixPath(inp.candidate.path).parent
    misplaced = bool(inp.test.package) and \
        folder.parts[-inp.test.package.count(".") - 1:] != tuple(inp.test.package.split("."))
    subject = inp.subject
    # javac and Maven compile a class whose package is not its folder: in a person's file that is a finding, never
    # a reason to reject it (issue 27); junitbot's own file would be written under a name its path does not give.
    misplaced_severity = WARNING if inp.candidate.written_by == "person" else ERROR
    if subject is not None and inp.test.package != subject.package:
        # Legal Java in the path's package (javac judges what the test reaches from there); impossible elsewhere.
        issues.append(issue_at("syntax", misplaced_severity if misplaced else WARNING, "wrong-package",
                               f"package {inp.test.package or '(default)'} differs from the package of "
                               f"{subject.name}, {subject.package or '(default)'}", at,
                               f"declare `package {subject.package};`"))
    elif misplaced:
        issues.append(issue_at("syntax", misplaced_severity, "wrong-package",
                               f"package {inp.test.package} does not match the file's folder {folder}", at,
                               f"declare the package that {folder} stands for"))
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
    """JUnit 4's API: a WARNING where javac or the run judges it; an ERROR on a test whose `@Test` is JUnit 4's,
    which the gate's Jupiter-only run would never run."""
    issues = []
    for item in inp.test.imports:
        if _is_junit4(item.name):
            owner = item.name.rsplit(".", 1)[0] if item.static and not item.wildcard else item.name
            replacement = _JUNIT4_TO_5.get(owner, "its org.junit.jupiter counterpart")
            issues.append(issue_at("structure", WARNING, "junit4-api", f"JUnit 4 import {item.name}", item.line,
                                   f"use {replacement} (JUnit 5)"))
    junit4_test = _junit4_test_imported(inp)
    for node in inp.test.nodes("annotation"):
        name = compact(node.child_by_field_name("name"))
        method = enclosing(node, "method_declaration")
        if name in ("org.junit.Test", "Test") and (name != "Test" or junit4_test) and method is not None:
            issues.append(issue_at("structure", ERROR, "junit4-api",
                                   f"JUnit 5 does not run {name_of(method)}: its @Test is JUnit 4's org.junit.Test",
                                   node, "use org.junit.jupiter.api.Test"))
        elif _is_junit4(name) or name in ("RunWith", "Rule", "ClassRule"):
            issues.append(issue_at("structure", WARNING, "junit4-api", f"JUnit 4 annotation @{name}", node,
                                   "use @ExtendWith and JUnit 5 extensions instead of runners and rules"))
        elif name == "Test" and node.type == "annotation":
            issues.append(issue_at("structure", WARNING, "junit4-api",
                                   f"@Test{compact(node.child_by_field_name('arguments'))} is JUnit 4 style", node,
                                   "use a plain @Test with assertThrows or assertTimeout"))
    for call in inp.test.nodes("call"):
        receiver = compact(call.child_by_field_name("object"))
        if _is_junit4(receiver + "."):
            issues.append(issue_at("structure", WARNING, "junit4-api", f"JUnit 4 call {receiver}.{name_of(call)}",
                                   call, f"use {_JUNIT4_TO_5.get(receiver, 'the org.junit.jupiter API')}"))
    return issues


def _junit4_test_imported(inp: CheckInput) -> bool:
    """Whether a plain `@Test` means `org.junit.Test`: imported by name, or on demand without Jupiter's."""
    names = {(i.name, i.wildcard) for i in inp.test.imports if not i.static}
    if ("org.junit.Test", False) in names:
        return True
    jupiter = ("org.junit.jupiter.api.Test", False) in names or ("org.junit.jupiter.api", True) in names
    return ("org.junit", True) in names and not jupiter


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
        if _overrides(inp, method):
            return []  # an empty override disables a case the base test class runs
        return [issue_at("structure", WARNING, "empty-test", f"test {name} has an empty body", name_node(method),
                         "exercise the class under test and assert on the outcome, or delete the method")]
    if not check_calls(inp, method) and not _may_inherit_check(inp, method):
        # A test that only calls passes when nothing is thrown: weak, but a test all the same.
        return [issue_at("structure", WARNING, "no-assertion",
                         f"test {name} neither asserts, verifies nor expects an exception", name_node(method),
                         "add assertEquals/assertThat on the result, verify(mock) an interaction or assertThrows")]
    return []


def _overrides(inp: CheckInput, method: Node) -> bool:
    """A method that overrides one of the test class's base class: `@Override`, or a base method of its name."""
    if "Override" in annotation_names(method):
        return True
    inherited = inp.methods_of(inp.test.superclass) if inp.test.superclass is not None else None
    return inherited is not None and name_of(method) in inherited


def _may_inherit_check(inp: CheckInput, method: Node) -> bool:
    """Whether a test calls a method its own class does not declare but its base class may: a helper of the base
    test class that asserts (the base's bodies are not in this source)."""
    base = inp.test.superclass
    if base is None:
        return False
    inherited = inp.methods_of(base)
    for call in inp.test.within("call", method):
        receiver = call.child_by_field_name("object")
        if receiver is not None and text_of(receiver) not in ("this", "super"):
            continue
        name = name_of(call)
        if name not in inp.test.helpers and (inherited is None or name in inherited):
            return True
    return False


def check_calls(inp: CheckInput, method: Node) -> list[Node]:
    """The assertion, verification and fail calls a method makes, directly or through test helpers."""
    return assertion_calls(inp.test, method, inp.on_subject)

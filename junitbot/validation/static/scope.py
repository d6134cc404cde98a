"""Which test methods a static ERROR concerns: its own, those reaching the helper it sits in, or the whole file (pure).

A finding costs the method it is in, never its siblings (issue 18). What runs for every test (a field initializer,
a constructor, a `@BeforeEach`/`@BeforeAll` method, a helper they call, an annotation on the class) or what
makes the source unreadable (a syntax error) concerns the whole file, except a syntax error inside a test method
whose removal leaves a source that parses cleanly (`broken_tests`): that costs the method.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from junitbot.analysis import Node, member_node, prune_tests
from junitbot.validation.models import Severity, ValidationIssue
from junitbot.validation.static.facts import ParsedTest, parse_test
from junitbot.validation.static.nodes import name_of, text_of
from junitbot.validation.static.structure import syntax_issues

_SALVAGE_ROUNDS = 4


class ErrorScope(NamedTuple):
    """The ERRORs of a candidate by what they cost: `methods` maps each test method to the first ERROR that
    concerns it; `file` is the first ERROR that concerns every method, or None."""

    methods: Mapping[str, ValidationIssue]
    file: ValidationIssue | None


def error_scope(source: str, issues: Iterable[ValidationIssue]) -> ErrorScope:
    """Where each ERROR among `issues` (the static passes' findings on `source`) applies."""
    errors = [i for i in issues if i.severity is Severity.ERROR]
    if not errors:
        return ErrorScope(methods={}, file=None)
    test = parse_test(source)
    reached = _helpers_reached(test)
    methods: dict[str, ValidationIssue] = {}
    for issue in errors:
        concerned = [issue.method] if issue.method else _methods_at(test, issue.line, reached)
        if concerned is None:
            return ErrorScope(methods=methods, file=issue)
        for name in concerned:
            methods.setdefault(name, issue)
    return ErrorScope(methods=methods, file=None)


def broken_tests(source: str) -> dict[str, ValidationIssue]:
    """The test methods of `source` that hold its syntax errors, each with its first one, when `source` without
    them parses cleanly; empty when it does not (an error outside every test method, or one that hid where a
    method ends) or there is no syntax error."""
    found: dict[str, ValidationIssue] = {}
    # A few rounds: the syntax pass reports the first errors only, and removing a method can show the next.
    for _ in range(_SALVAGE_ROUNDS):
        test = parse_test(source)
        errors = syntax_issues(test.tree)
        if not errors:
            return found
        for issue in errors:
            member = test.test_class.method_at(issue.line) if issue.line is not None else None
            if member is None or not member.is_test:
                return {}
            found.setdefault(member.name, issue.model_copy(update={"method": member.name}))
        source = prune_tests(source, found)
    return {}


def _methods_at(test: ParsedTest, line: int | None, reached: Mapping[str, tuple[bool, set[str]]]) -> list[str] | None:
    """The test methods that run the code at `line`; None when that is every one of them (or unknown)."""
    member = test.test_class.method_at(line) if line is not None and not test.test_class.syntax_errors else None
    if member is None or member.is_lifecycle:
        return None
    if member.is_test:
        return [member.name]
    callers = [name for name, (is_test, helpers) in reached.items() if member.name in helpers]
    if not callers or not all(reached[name][0] for name in callers):
        return None  # a helper the set-up runs, or one no test calls (it stays in the file): every test's concern
    return callers


def _helpers_reached(test: ParsedTest) -> dict[str, tuple[bool, set[str]]]:
    """For each test and lifecycle method (by name): whether it is a test, and the helpers of the test class it
    calls, directly or through other helpers."""
    reached: dict[str, tuple[bool, set[str]]] = {}
    for member in test.test_class.methods:
        if member.is_test or member.is_lifecycle:
            is_test, found = reached.setdefault(member.name, (member.is_test, set()))
            reached[member.name] = (is_test and member.is_test, found)
            _reach(test, member_node(test.tree, member), found)
    return reached


def _reach(test: ParsedTest, method: Node, found: set[str]) -> None:
    for call in test.within("call", method):
        name, receiver = name_of(call), call.child_by_field_name("object")
        if name in test.helpers and name not in found and \
                (receiver is None or text_of(receiver) in ("this", *test.own_names)):
            found.add(name)
            for helper in test.helpers[name]:
                _reach(test, helper, found)

"""Static passes over a candidate test's source, run before anything compiles it (pure).

The passes only report what the source decides on its own; javac stays the judge of everything else. An ERROR is
only what is dangerous or certainly wrong; `error_scope` says which test methods each one costs.
The parsed candidate and its node helpers are exported too, for other readers of test source (the review lint).
"""

from __future__ import annotations

from junitbot.validation.static.facts import CheckInput, KnownTypes, ParsedTest, Variable, assertion_calls, parse_test
from junitbot.validation.static.nodes import (
    annotation_names,
    arguments_of,
    compact,
    enclosing,
    is_call,
    line_of,
    name_of,
    stubbed_mock,
    text_of,
    variable_name,
)
from junitbot.validation.static.passes import PASSES, passed, run_static_checks
from junitbot.validation.static.scope import ErrorScope, broken_tests, error_scope

__all__ = [
    "PASSES",
    "CheckInput",
    "ErrorScope",
    "KnownTypes",
    "ParsedTest",
    "Variable",
    "annotation_names",
    "arguments_of",
    "assertion_calls",
    "broken_tests",
    "compact",
    "enclosing",
    "error_scope",
    "is_call",
    "line_of",
    "name_of",
    "parse_test",
    "passed",
    "run_static_checks",
    "stubbed_mock",
    "text_of",
    "variable_name",
]

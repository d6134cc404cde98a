"""Static passes over a candidate test's source, run before anything compiles it (pure).

The passes only report what the source decides on its own; javac stays the judge of everything else.
"""

from __future__ import annotations

from junitbot.validation.static.facts import CheckInput, KnownTypes, ParsedTest, parse_test
from junitbot.validation.static.passes import PASSES, passed, run_static_checks

__all__ = [
    "PASSES",
    "CheckInput",
    "KnownTypes",
    "ParsedTest",
    "parse_test",
    "passed",
    "run_static_checks",
]

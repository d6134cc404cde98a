"""The registry of static passes and the run over one candidate, before anything compiles it (pure).

Each pass is registered in `PASSES` under its name in `config.STATIC_PASSES`; `run_static_checks` parses
the candidate once and runs the enabled ones. A candidate passes when no issue is an ERROR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from junitbot.analysis import ClassInfo, TestContext
from junitbot.config import ValidationSettings
from junitbot.validation.build.models import Frameworks
from junitbot.validation.models import Severity, TestCandidate, ValidationIssue
from junitbot.validation.static.anti_patterns import check_anti_patterns
from junitbot.validation.static.builders import check_builders
from junitbot.validation.static.facts import Check, CheckInput, KnownTypes, parse_test
from junitbot.validation.static.forbidden import check_forbidden
from junitbot.validation.static.mocking import check_mocking
from junitbot.validation.static.structure import check_structure, check_syntax
from junitbot.validation.static.symbols import check_symbols

SUBJECT_PASSES = frozenset({"mocking", "symbols", "builders"})
"""Passes that judge a test against its class under test; a test that names no class skips them."""
PASSES: Mapping[str, Check] = {
    "syntax": check_syntax,
    "structure": check_structure,
    "mocking": check_mocking,
    "forbidden": check_forbidden,
    "symbols": check_symbols,
    "anti_patterns": check_anti_patterns,
    "builders": check_builders,
}


def run_static_checks(
    candidate: TestCandidate,
    *,
    subject: ClassInfo | None,
    context: TestContext | None,
    frameworks: Frameworks,
    settings: ValidationSettings,
    known: KnownTypes,
) -> list[ValidationIssue]:
    """Run the enabled static passes over one candidate, in `STATIC_PASSES` order.

    `known`: the repository's types by FQN and the external packages (beyond the JDK, JUnit, Mockito, AssertJ and
    Hamcrest) that imports may name; one for many candidates looks each type up once. After a syntax error the
    tree is partly guesswork, so the later passes are skipped rather than report noise.
    """
    inp = CheckInput(candidate=candidate, test=parse_test(candidate.source), subject=subject, context=context,
                     frameworks=frameworks, settings=settings, known=known)
    issues: list[ValidationIssue] = []
    for name, check in PASSES.items():
        if name in settings.disabled_passes or (subject is None and name in SUBJECT_PASSES):
            continue
        found = check(inp)
        issues.extend(found)
        if any(issue.category == "syntax-error" for issue in found):
            break
    return issues


def passed(issues: Iterable[ValidationIssue]) -> bool:
    """A candidate passes the static checks when no issue is an ERROR."""
    return all(issue.severity is not Severity.ERROR for issue in issues)

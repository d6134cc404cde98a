"""The lint's entry: every rule over one test class, the counts, and the methods the findings condemn (pure)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from junitbot.analysis import unused_imports
from junitbot.validation.review.accidents import flag_npe_from_mock_default, flag_null_from_unstubbed_mock
from junitbot.validation.review.context import ReviewContext
from junitbot.validation.review.inputs import flag_numbered_siblings, flag_placeholder_inputs
from junitbot.validation.review.models import REVIEW_RULES, ReviewFinding, ReviewSummary
from junitbot.validation.review.oracles import flag_asserts_mock_return, flag_weak_oracles
from junitbot.validation.review.redundancy import flag_duplicate_bodies, flag_unused_locals, flag_unused_mocks
from junitbot.validation.static import parse_test

_RULES: tuple[Callable[[ReviewContext], list[ReviewFinding]], ...] = (
    flag_npe_from_mock_default, flag_null_from_unstubbed_mock, flag_asserts_mock_return, flag_weak_oracles,
    flag_duplicate_bodies, flag_unused_locals, flag_unused_mocks, flag_numbered_siblings, flag_placeholder_inputs,
)


def review_test_class(source: str) -> list[ReviewFinding]:
    """The findings of every rule over one test class's source, in line order; none for a source that does
    not parse (javac judges it first)."""
    test = parse_test(source)
    if test.test_class.syntax_errors:
        return []
    review = ReviewContext(test)
    findings = [finding for rule in _RULES for finding in rule(review)]
    findings += [ReviewFinding(rule="unused-import", method=None, line=item.line,
                               message=f"`{item.statement}` is not used") for item in unused_imports(source)]
    return sorted(findings, key=lambda f: (f.line, REVIEW_RULES.index(f.rule)))


def summarize(findings: Iterable[ReviewFinding]) -> ReviewSummary:
    """The findings of one test class counted per rule (`ReviewSummary.merged` adds classes up)."""
    counts = dict.fromkeys(REVIEW_RULES, 0)
    for finding in findings:
        counts[finding.rule] += 1
    return ReviewSummary(counts=counts)


def review_sources(sources: Iterable[str]) -> ReviewSummary:
    """The lint's counts over test classes' sources, added up (a report's: its kept files)."""
    return ReviewSummary.merged(summarize(review_test_class(source)) for source in sources)


def methods_to_drop(findings: Iterable[ReviewFinding]) -> dict[str, str]:
    """Test method -> why, for the findings that condemn a method rather than ask for a fix."""
    drop: dict[str, str] = {}
    for finding in findings:
        if finding.drops_method and finding.method is not None:
            drop.setdefault(finding.method, f"{finding.rule}: {finding.message}")
    return drop

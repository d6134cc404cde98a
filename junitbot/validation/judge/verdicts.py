"""From runs to verdicts: what repeated runs say of each test method (failing, flaky, refused, skipped), and the
verdict of a candidate class once every step has judged it (pure)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from junitbot.analysis import parse_test_class
from junitbot.validation.judge.models import Candidacy, MethodVerdict, Verdict
from junitbot.validation.judge.selection import adds_nothing
from junitbot.validation.measure.models import ClassCoverage
from junitbot.validation.models import Severity, ValidationIssue
from junitbot.validation.run.models import WHOLE_CLASS, TestCaseResult

_Outcome = tuple[str, str | None]  # (status, message) of one method in one run


def settle(candidacy: Candidacy, runs: Sequence[Sequence[TestCaseResult]]) -> Candidacy:
    """The class after its repeated runs: a whole-class failure fails it; a method that failed in every run is
    dropped as failing, one whose outcomes differ as flaky, one that tried what the guard refuses for that (in
    whichever run it tried); a person's skipped test is said, not dropped."""
    failure = candidacy.failure
    outcomes: dict[str, list[_Outcome]] = defaultdict(list)
    for cases in runs:
        for case in cases:
            if case.test_class != candidacy.test_class:
                continue
            if case.method == WHOLE_CLASS:
                failure = failure or _failure(case.status, case.message)
            else:
                outcomes[case.method].append((case.status, case.message))
    dropped, flaky, issues = dict(candidacy.dropped), list(candidacy.flaky), list(candidacy.issues)
    for method, said in outcomes.items():
        statuses = {status for status, _ in said}
        if statuses == {"passed"}:
            continue
        message = next((m for s, m in said if s != "passed"), None)
        if statuses <= {"passed", "skipped"} and candidacy.candidate.written_by == "person":
            # A person's @Disabled or assumption is theirs to decide: said, not dropped (junitbot's own would add
            # nothing skipped, and go).
            issues.append(ValidationIssue(severity=Severity.WARNING, pass_name="junit", category="skipped",
                                          message=f"skipped: {short(message)}", method=method))
            continue
        if "refused" in statuses:
            dropped[method] = short(next(m for s, m in said if s == "refused"))
        elif "passed" in statuses:
            flaky.append(method)
            dropped[method] = f"flaky: passed in some runs, {_first_failure(said)} in others"
        else:
            dropped[method] = _failure(_first_failure(said), message)
    return candidacy.model_copy(update={"failure": failure, "dropped": dropped, "flaky": tuple(flaky),
                                        "issues": tuple(issues)})


def verdict_of(candidacy: Candidacy, coverage: Mapping[str, ClassCoverage]) -> Verdict:
    """The verdict of a class every step has judged: each method kept or dropped with its reason and what it adds;
    the kept source, coverage, gain and surviving mutants when something of it is kept."""
    target = candidacy.candidate.target
    failure, dropped = candidacy.failure, candidacy.dropped
    methods = tuple(MethodVerdict(name=m, kept=failure is None and m not in dropped, reason=failure or dropped.get(m),
                                  adds=candidacy.adds.get(m))
                    for m in parse_test_class(candidacy.candidate.source).test_names)
    kept = any(m.kept for m in methods)
    return Verdict(
        path=candidacy.candidate.path,
        target=target,
        kept=kept,
        issues=candidacy.issues,
        compiled=candidacy.compiled,
        methods=methods,
        flaky=tuple(sorted(set(candidacy.flaky))),
        coverage=coverage.get(target) if kept and target is not None else None,
        exercised=tuple(sorted(name for name, measured in coverage.items() if measured.lines.covered))
        if kept and target is None else (),
        source=candidacy.source if kept else None,
        # Every passing method, where the gain rule dropped some, or all for adding nothing: one that fails before a
        # change catches it (runs.changes).
        passed_source=candidacy.passed_source if (kept and candidacy.passed_source != candidacy.source)
        or (not kept and adds_nothing(failure)) else None,
        repairs=candidacy.repairs,
        gain=candidacy.gain if kept else None,
        baseline=candidacy.baseline,
        survivors=candidacy.survivors if kept else (),
    )


def short(message: str | None) -> str:
    """A message's first line, at most 300 characters, as verdicts quote it."""
    lines = (message or "").strip().splitlines()
    return lines[0][:300] if lines else "no message"


def _failure(status: str, message: str | None) -> str:
    """A failed outcome as a verdict says it; what the guard refused is said as it is ("tried to ...")."""
    return short(message) if status == "refused" else f"{status}: {short(message)}"


def _first_failure(outcomes: Sequence[_Outcome]) -> str:
    return next(s for s, _ in outcomes if s != "passed")

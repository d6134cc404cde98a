"""Records of judging: a candidate class's standing, per-method and per-class verdicts, the report, gate, reruns."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field

from junitbot.records import Record
from junitbot.validation.build.models import Frameworks, MavenChoice
from junitbot.validation.measure.models import ClassCoverage, Counter
from junitbot.validation.models import TestCandidate, ValidationIssue
from junitbot.validation.review.models import ReviewSummary


class MethodVerdict(Record):
    """Whether one test method is kept, and why not."""

    name: str
    kept: bool
    reason: str | None = None
    adds: str | None = Field(default=None, description="what a kept method adds beyond the existing tests and the "
                                                        "methods before it: new edges, killed mutants")


class SuiteFigures(Record):
    """A test suite's figures on one class: lines and branches (JaCoCo), mutants killed of all (PIT)."""

    lines: Counter = Field(default_factory=Counter)
    branches: Counter = Field(default_factory=Counter)
    mutants: Counter | None = Field(default=None, description="covered = killed (or timed out), missed = survived "
                                                              "or not covered; None: not measured")

    @property
    def mutation_score(self) -> float | None:
        return None if self.mutants is None else self.mutants.ratio


class SuiteGain(Record):
    """One class's suite before and after the generated tests: the existing tests alone, the kept generated
    methods alone, and both together."""

    existing_tests: tuple[str, ...] = ()
    before: SuiteFigures | None = Field(default=None, description="the existing tests alone; None: none measured")
    generated: SuiteFigures
    after: SuiteFigures
    note: str | None = None


class Candidacy(Record):
    """One candidate class's standing on its way through validation: the file it is compiled from, its source as it
    stands, and what the steps so far decided of it and its methods. Each step returns it updated (`model_copy`)."""

    candidate: TestCandidate
    test_class: str
    file: Path
    source: str
    issues: tuple[ValidationIssue, ...] = ()
    repairs: tuple[str, ...] = ()
    compiled: bool = False
    dropped: Mapping[str, str] = Field(default_factory=dict, description="test method -> why it was dropped")
    flaky: tuple[str, ...] = ()
    failure: str | None = Field(default=None, description="why the whole class is dropped; None: it is not")
    adds: Mapping[str, str] = Field(default_factory=dict, description="kept method -> what it adds beyond the "
                                                                      "existing tests")
    passed_source: str | None = Field(default=None, description="every passing method, before the gain rule "
                                                                "dropped any")
    gain: SuiteGain | None = None
    baseline: SuiteFigures | None = None
    survivors: tuple[str, ...] = ()
    baseline_exec: str | None = Field(default=None, description="the existing tests' JaCoCo data, for the coverage "
                                                                "of both suites together")


class Verdict(Record):
    """The outcome for one candidate file: kept methods, dropped ones with reasons, and coverage."""

    path: str
    target: str | None  # None: the test names no class of the repository
    kept: bool
    issues: tuple[ValidationIssue, ...] = ()
    compiled: bool = False
    methods: tuple[MethodVerdict, ...] = ()
    flaky: tuple[str, ...] = ()
    coverage: ClassCoverage | None = None
    exercised: tuple[str, ...] = Field(default=(), description="for a test that names no class: the classes its "
                                                                "run covered lines of (measured with its batch)")
    source: str | None = Field(default=None, description="the source as kept (failing methods removed)")
    passed_source: str | None = Field(default=None, description="every method that passed, before those that added "
                                                                "nothing were dropped (a test that catches a change "
                                                                "adds something the gain rule cannot see)")
    repairs: tuple[str, ...] = Field(default=(), description="deterministic repairs applied, one line each")
    gain: SuiteGain | None = Field(default=None, description="the class's suite before → after the kept methods")
    baseline: SuiteFigures | None = Field(
        default=None, description="the class's existing tests alone, kept or not (what a benchmark sums)")
    survivors: tuple[str, ...] = Field(default=(), description="mutants of the class that neither the existing tests "
                                                               "nor the kept methods kill: `line N: what PIT changed "
                                                               "(in method)`, by line")


class ValidationReport(Record):
    """All verdicts of one validation run, with what it ran on and how long each stage took."""

    verdicts: tuple[Verdict, ...]
    classpath_source: str
    frameworks: Frameworks
    isolation: str
    main_build_reused: bool
    main_build_failed: tuple[str, ...] = ()
    seconds: dict[str, float] = Field(default_factory=dict)
    tools: dict[str, str] = Field(default_factory=dict, description="which tools judged the run, by role "
                                  "('junit', 'jacoco agent', 'jacoco analyzer'): ToolChoice.summary")
    review: ReviewSummary | None = Field(default=None, description="the reviewer's lint over the kept files")

    @property
    def kept(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.kept)


class GateClass(Record):
    """What the project's own build made of one kept test class: the methods it dropped and why.

    `judged` is False when the build never said pass or fail for the class (it ran none of its tests, or
    failed for reasons of its own); such a class keeps what junitbot's runner kept, and `reason` says why.
    """

    path: str
    test_class: str
    module: str = Field(description="the Maven module's folder, relative to the repository root ('' = root)")
    judged: bool
    kept: bool = Field(description="the class keeps at least one test method")
    dropped: tuple[MethodVerdict, ...] = Field(default=(), description="methods the build dropped, with why")
    reason: str | None = Field(default=None, description="why the whole class was dropped or not judged")
    source: str | None = Field(default=None, exclude=True,
                               description="the source as the build kept it (not in JSON: reports carry no code)")


class GateResult(Record):
    """The last gate: the kept tests run in the project's own build (`mvn test` in a scratch copy).

    `judged` False means the build said nothing about the tests and dropped nothing: the gate was switched
    off or had nothing to do (`ran` False), or Maven failed for reasons unrelated to them (`why`, `errors`).
    """

    ran: bool
    judged: bool
    why: str | None = Field(default=None, description="why the build did not judge the tests")
    classes: tuple[GateClass, ...] = ()
    command: tuple[str, ...] = Field(default=(), description="the last Maven command line")
    maven: MavenChoice | None = None
    isolation: str = "none"
    online: str | None = Field(default=None, description="why Maven had to go online (offline it lacked this)")
    runs: int = 0
    errors: tuple[str, ...] = Field(default=(), description="Maven's first error lines when it was not judged")
    seconds: float = 0.0

    @property
    def runner(self) -> str:
        """The runner's name for reports: `mvn test (Maven 3.9.16)`, or `mvn test (mvnw)`."""
        return f"mvn test ({self.maven.label})" if self.maven else "mvn test"


RerunStatus = Literal["passed", "failed", "error", "skipped", "timeout", "refused", "not-compiled", "flaky"]


class TestOutcome(Record):
    """One test method of a written test class, run as written against a build."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    test_class: str
    method: str
    status: RerunStatus
    message: str | None = Field(default=None, description="the failure, the exception, or javac's error")
    expected: str | None = Field(default=None, description="what the assertion expected, when its message says")
    actual: str | None = Field(default=None, description="what it got; 'throws X: m' for an exception")
    line: int | None = Field(default=None, description="the test file's line it failed at or did not compile")


class RerunClass(Record):
    """A written test file run as written: each method's outcome and the coverage of its target by it alone."""

    path: str
    test_class: str
    target: str | None
    compiled: bool = Field(description="at least one method compiled")
    outcomes: tuple[TestOutcome, ...]
    line_coverage: float | None = Field(default=None, description="of `target` by this class alone (JaCoCo)")
    branch_coverage: float | None = None
    note: str | None = Field(default=None, description="why the whole file could not run")

    @property
    def failed(self) -> tuple[TestOutcome, ...]:
        """The outcomes that are neither passed nor skipped (flaky included: it did fail once)."""
        return tuple(o for o in self.outcomes if o.status not in ("passed", "skipped"))

    @property
    def ok(self) -> bool:
        return self.compiled and not self.failed and self.note is None


class Checkout(Record):
    """A tree written tests run against: its folder (the repository, or a base commit's worktree), its main sources
    as (repo-relative path, blob sha) pairs, and the commit it is at (None: the work tree as it is)."""

    root: Path
    main_sources: tuple[tuple[str, str], ...]
    commit: str | None = None


class RerunReport(Record):
    """Written tests run as written against one build (the head, or a base commit's worktree)."""

    commit: str | None
    classes: tuple[RerunClass, ...]
    seconds: float
    notes: tuple[str, ...] = ()

"""Records of one run: what was asked (RunRequest), what it covers (RunPlan), what came of it (RunReport)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import Field

from junitbot.analysis import MemberChange, MemberUse
from junitbot.config import BackendName
from junitbot.generation import Correction, Origin, RoundRecord, Target, WriteOutcome
from junitbot.records import Record
from junitbot.validation import DependencyAdvice, GateResult, ReviewSummary, SuiteFigures, SuiteGain

RunMode = Literal["incremental", "full", "regenerate"]
ALL_TARGETS = "*"
"""The `instructions` key for every target of the run without instructions of its own (`regenerate -- text` on a
pull request, before the run knows its targets)."""


def new_run_id() -> str:
    """A run directory's name: the UTC time to the microsecond, so runs sort by when they started."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


class RunRequest(Record):
    """What a caller (the CLI, the bot, a Dagster run config) asks one run to do."""

    full: bool = False
    since: str | None = Field(default=None, description="diff from this revision instead of the last run")
    classes: tuple[str, ...] = Field(default=(), description="exactly these classes (regenerate)")
    dry_run: bool = False
    max_classes: int | None = Field(default=None, ge=1, description="cap on targets (default from config)")
    pr_number: int | None = None
    instructions: dict[str, str] = Field(default_factory=dict, description="class FQN (or ALL_TARGETS) → what a "
                                         "person asked of its tests: untrusted text for the model, never run")

    @property
    def mode(self) -> RunMode:
        return "regenerate" if self.classes else "full" if self.full else "incremental"


class RunPlan(Record):
    """What a run covers: the mode, the changed files (None: every class) or the named classes, the backend
    configured and the cap on targets."""

    mode: str
    head: str | None
    changed_paths: tuple[str, ...] | None
    base: str | None = Field(default=None, description="the commit an incremental run diffs from")
    classes: tuple[str, ...] = ()
    dry_run: bool = False
    backend: BackendName = "auto"
    max_classes: int = 200
    run_id: str = Field(default_factory=new_run_id, description="the run directory's name under <state>/runs/")
    instructions: dict[str, str] = Field(default_factory=dict, description="the request's: class FQN (or "
                                         "ALL_TARGETS) → free text for the model")


class TargetList(Record):
    """The run's targets in order, at most the plan's cap; how many more were left for later runs."""

    targets: tuple[Target, ...]
    left_for_later: int = 0


class BehaviourChange(Record):
    """A generated test that passed when it was written and fails on the new head: the code's behaviour changed."""

    target: str = Field(description="the class the test is for")
    test_path: str
    test_class: str
    method: str
    status: str = Field(description="failed, error, timeout or not-compiled (the API it calls changed)")
    expected: str | None = Field(default=None, description="what the test expected (the behaviour before)")
    actual: str | None = Field(default=None, description="what the code does now")
    message: str | None = None
    line: int | None = Field(default=None, description="the line of the test file where it failed")
    commit: str | None = Field(default=None, description="the commit it fails at")
    changes: tuple[str, ...] = Field(default=(), description="the changed members it reaches (owner#member)")
    at: tuple[tuple[str, int], ...] = Field(default=(), description="(file, line) of the changed code it reaches")

    @property
    def outcome(self) -> str:
        """`expected X, got Y`, or the failure as the runner put it."""
        if self.expected is not None or self.actual is not None:
            return f"expected {self.expected}, got {self.actual}"
        return self.message or self.status


class CatchingTest(Record):
    """A new test that fails on the base commit and passes on the head: it catches this change."""

    target: str
    test_path: str
    method: str
    base_commit: str
    base_failure: str = Field(description="how it fails before the change")


class ChangeCheck(Record):
    """What a push changed, member by member, and what the generated tests said about it before regenerating."""

    base: str | None
    head: str | None
    member_changes: tuple[MemberChange, ...] = ()
    uses: dict[str, tuple[MemberUse, ...]] = Field(default_factory=dict,
                                                   description="dependent → the changed members it uses")
    touched: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="class → the names of its methods whose behaviour the change may alter: "
                                          "changed, or calling what changed (`<init>`: a constructor)")
    rerun: tuple[str, ...] = Field(default=(), description="the generated test files run on the head first")
    behaviour_changes: tuple[BehaviourChange, ...] = ()
    flaky: tuple[str, ...] = Field(default=(), description="Test.method that failed once and then passed")
    regenerated: dict[str, str] = Field(default_factory=dict, description="class → why its tests are regenerated")
    probing: tuple[str, ...] = Field(default=(), description="of those, the changed classes whose tests still pass: "
                                                             "their new tests are kept only if one catches the change")
    left_alone: dict[str, str] = Field(default_factory=dict, description="class → why its tests are left as they are")
    catching: tuple[CatchingTest, ...] = ()
    notes: tuple[str, ...] = ()
    seconds: dict[str, float] = Field(default_factory=dict)


class KeptCheck(Record):
    """The last check before publishing: the kept tests, as written, pass once more."""

    checked: int
    failures: dict[str, str] = Field(default_factory=dict, description="test file → why it did not pass")

    @property
    def passed(self) -> bool:
        return not self.failures


class ModuleSummary(Record):
    """One build module as the run judged its tests: its classpath, release and test stack."""

    module: str = Field(description="the module's folder ('' = the repository root)")
    source: str = Field(description="where the classpath came from: maven, gradle, config or system")
    entries: int
    release: int | None = None
    junit_jupiter: str | None = None
    mockito: str | None = None
    mockito_extension: bool = False
    assertj: str | None = None
    main_classes: str = Field(description="'build' when the build compiled them, else 'junitbot'")


class ClassResult(Record):
    """One target's outcome: kept tests (and dropped ones with reasons), coverage, or why it was skipped."""

    target: str
    status: str
    reason: str
    test_path: str | None = None
    kept: tuple[str, ...] = ()
    dropped: tuple[tuple[str, str], ...] = ()
    line_coverage: float | None = None
    branch_coverage: float | None = None
    issues: tuple[str, ...] = ()
    origin: Origin | None = Field(default=None, description="llm, corrected, merged or template; None if nothing kept")
    model: str | None = None
    rounds: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    notes: tuple[str, ...] = ()
    judged_by: tuple[str, ...] = Field(default=(), description="the runners that said pass or fail: 'junitbot "
                                                               "runner', then the build's ('mvn test (Maven 3.9.16)')")
    mutation_score: float | None = Field(default=None, description="the kept tests' mutation score (PIT) on the class")
    gain: SuiteGain | None = Field(default=None, description="the class's suite before → after the kept tests")
    baseline: SuiteFigures | None = Field(
        default=None, description="the class's existing tests alone (lines, branches, mutants), kept or not")
    corrections: tuple[Correction, ...] = Field(default=(), description="the model's expected values that the code "
                                                                      "did not return: kept with the observed value, "
                                                                      "reported as possible bugs")
    merged_methods: tuple[str, ...] = Field(default=(), description="no-model methods merged into the model's class")
    attempts: tuple[RoundRecord, ...] = Field(default=(), description="the model's rounds: what came back, compiled, "
                                                                      "passed, and the prompt and answer kept")


class RunReport(Record):
    """Everything one run did, for the terminal, the JSON report and the markdown report."""

    commit: str | None
    mode: str
    backend: str
    backend_reason: str = Field(default="", description="why this backend: config, or what auto found")
    dry_run: bool
    targets: int
    results: tuple[ClassResult, ...]
    files: tuple[WriteOutcome, ...] = ()
    advice: tuple[DependencyAdvice, ...] = Field(default=(), description="test dependencies the module lacks")
    modules: tuple[ModuleSummary, ...] = Field(default=(), description="each build module's classpath and stack")
    review: ReviewSummary | None = Field(default=None, description="the reviewer's lint over the kept test files")
    resolution: str | None = Field(default=None, description="how the classpaths were found: cached, offline, "
                                                             "online or none")
    report_dir: str | None = None
    run_id: str | None = Field(default=None, description="the run directory's name, chosen when the run was planned")
    seconds: dict[str, float] = Field(default_factory=dict)
    gate: GateResult | None = Field(default=None, description="the last gate, the project's own build")
    changes: ChangeCheck | None = Field(default=None, description="an incremental run's change check: behaviour "
                                                                  "changes first, what was regenerated and why")
    kept_check: KeptCheck | None = Field(default=None, description="the kept tests run once more as written; a "
                                                                   "failure blocks publishing")

    @property
    def publish_blocked(self) -> str | None:
        """Why this run's tests must not be published (the kept-tests check failed), or None."""
        if self.kept_check is None or self.kept_check.passed:
            return None
        failed = "; ".join(f"{path}: {why}" for path, why in sorted(self.kept_check.failures.items()))
        return f"{len(self.kept_check.failures)} kept test file(s) did not pass once more as written ({failed})"

    @property
    def kept(self) -> int:
        return sum(1 for r in self.results if r.status == "kept")

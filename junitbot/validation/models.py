"""Records of validation: issues, classpath and frameworks, compile and run results, coverage, mutants, verdicts."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import ClassVar, Literal, get_args

from pydantic import Field, field_validator

from junitbot.records import Record
from junitbot.validation.poms import module_of


class Severity(StrEnum):
    ERROR = "ERROR"
    WARNING = "WARNING"
    INFO = "INFO"


class ValidationIssue(Record):
    """One finding about a candidate test; ERROR means the test cannot be kept as it is."""

    severity: Severity
    pass_name: str = Field(description="the pass or stage that found it: syntax, structure, mocking, javac, junit, ...")
    category: str = Field(description="a stable machine-readable kind, e.g. 'missing-import', 'mocked-value-type'")
    message: str
    suggestion: str | None = None
    line: int | None = None
    method: str | None = Field(default=None, description="the test method it concerns, when it concerns one")


class TestCandidate(Record):
    """A generated test class to validate: where it would live in the repo, its source and the class it tests."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    path: str
    source: str
    target: str | None = None  # None: the test names no class of the repository (validated all the same)
    written_by: Literal["junitbot", "person"] = Field(
        default="junitbot",
        description="junitbot's tests lose methods the reviewer lint condemns or that add nothing to the existing "
                    "suite; a person's tests are judged (compile, pass, findings reported) but never pruned for that")


class Frameworks(Record):
    """What the test classpath offers, so generation can adapt its style."""

    junit_jupiter: str | None = None
    junit_params: bool = Field(default=False, description="junit-jupiter-params (@ParameterizedTest) is there")
    mockito: str | None = None
    mockito_extension: bool = False
    mockito_inline: bool = False
    assertj: str | None = None
    hamcrest: str | None = None

    @property
    def mock_setup(self) -> Literal["extension", "openMocks", "initMocks"]:
        """How a test initialises `@Mock` fields with this Mockito."""
        if self.mockito_extension:
            return "extension"
        major = int((self.mockito or "2").split(".")[0] or 2)
        return "openMocks" if major >= 3 else "initMocks"


class Classpath(Record):
    """The test classpath of one build module and where it came from, with what compiling for it needs."""

    entries: tuple[str, ...]
    source: Literal["maven", "gradle", "config", "system"]
    frameworks: Frameworks
    jacoco_agent: str | None = None
    notes: tuple[str, ...] = ()
    module: str = Field(default="", description="the module's folder, relative to the repository root ('' = root)")
    release: int | None = Field(default=None, description="the Java release the module compiles for (--release)")
    processor_path: tuple[str, ...] = Field(default=(), description="annotation processors (Lombok) for javac")
    main_classes: str | None = Field(default=None, description="the module's main classes as the build compiled "
                                                               "them; None: junitbot compiles them")
    java_home: str | None = Field(default=None, description="the JDK for a release above the default JDK's")


class ProjectClasspath(Record):
    """The classpaths of a build's modules, how they were found, and which module a file belongs to."""

    modules: tuple[Classpath, ...] = Field(min_length=1)
    resolution: Literal["cached", "offline", "online", "none"] = Field(
        default="none", description="cached: no build tool ran; offline/online: how Maven resolved; none: no build")
    maven: MavenChoice | None = None
    notes: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def primary(self) -> Classpath:
        """The root module's classpath, else the first module's (an aggregator root has no code)."""
        return next((m for m in self.modules if m.module == ""), self.modules[0])

    @property
    def source(self) -> str:
        return self.primary.source

    def module_for(self, path: str) -> Classpath:
        """The classpath of the module holding repo-relative `path` (the longest module folder that prefixes it)."""
        folder = module_of(path, tuple(m.module for m in self.modules))
        return next((m for m in self.modules if m.module == folder), self.primary)


class CompileResult(Record):
    """javac's verdict on one candidate file."""

    path: str
    compiled: bool
    issues: tuple[ValidationIssue, ...] = ()


class CompileOutcome(Record):
    """One test class after the compile rounds: the source that compiled (repaired, the test methods that did not
    compile removed), or why nothing of it did."""

    path: str
    source: str
    compiled: bool
    repairs: tuple[str, ...] = Field(default=(), description="deterministic repairs, one line each, round by round")
    dropped: dict[str, str] = Field(default_factory=dict, description="test method → why it was removed")
    issues: tuple[ValidationIssue, ...] = Field(
        default=(), description="javac's warnings of the class that compiled, and the errors that cost a method or it")
    failure: str | None = None


TestStatus = Literal["passed", "failed", "error", "skipped", "timeout", "refused"]
"""How a test ended; "refused": it tried what the test JVM's guard refuses (a process, an exit, a connection, a write
outside its directory), whatever JUnit said, and the message says what."""


class TestCaseResult(Record):
    """One test method's outcome in one run."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    test_class: str
    method: str
    status: TestStatus
    message: str | None = None
    seconds: float = 0.0
    line: int | None = Field(default=None, description="the test file's line it failed at: the first stack frame "
                                                       "of the test class itself")
    detail: str | None = Field(default=None, description="the failure's or exception's whole message, uncut "
                                                         "(`message` is its short form)")


class RunConditions(Record):
    """The environment one repetition ran under; repetitions differ so that flakes show."""

    order: Literal["default", "name", "reversed", "random"] = "default"
    order_seed: int | None = None  # the seed of a random order
    timezone: str = "UTC"
    locale: str = "en-US"
    charset: str = "UTF-8"


class TestRunResult(Record):
    """One JVM run over a batch of test classes."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    conditions: RunConditions
    cases: tuple[TestCaseResult, ...]
    exit_code: int | None
    timed_out: bool = False
    output_tail: str = ""
    isolation: str = "none"
    seconds: float = 0.0
    launcher: str = Field(default="", description="the console launcher that ran it (ToolChoice.summary)")
    running: str | None = Field(
        default=None, description="the test ('pkg.FooTest#method') or class the guard saw running when the JVM ended "
                                  "before writing its report; None when it did not, or the run was not guarded")


GuardAction = Literal["exec", "exit", "connect", "accept", "write", "delete", "guard"]
_GUARD_WORDS: dict[str, str] = {
    "exec": "start a process: {}", "exit": "exit the JVM (status {})", "connect": "connect to {}",
    "accept": "accept a connection from {}", "write": "write outside its working directory: {}",
    "delete": "delete outside its working directory: {}", "guard": "{}",
}


class GuardAttempt(Record):
    """Something a test tried that the test JVM's guard (java/SandboxGuard.java) refused."""

    owner: str = Field(description="'pkg.FooTest#method', the class 'pkg.FooTest' for its own work (@BeforeAll, "
                                   "construction), or '' outside any test")
    action: GuardAction
    detail: str

    def describe(self) -> str:
        """What the test tried, as a verdict says it: "tried to start a process: /bin/sh"."""
        return "tried to " + _GUARD_WORDS[self.action].format(self.detail)


class GuardLog(Record):
    """What the guard's log of one test JVM says."""

    guarded: bool = Field(description="the guard was installed; False where the JVM has no SecurityManager (JDK 24+) "
                                      "or its log is missing")
    note: str = Field(default="", description="why the guard was not installed")
    attempts: tuple[GuardAttempt, ...] = ()
    running: tuple[str, ...] = Field(default=(), description="tests and classes started and not finished, "
                                                             "outermost first")


class Counter(Record):
    covered: int = 0
    missed: int = 0

    @property
    def total(self) -> int:
        return self.covered + self.missed

    @property
    def ratio(self) -> float | None:
        return None if self.total == 0 else self.covered / self.total


class MethodCoverage(Record):
    name: str
    descriptor: str
    first_line: int | None
    lines: Counter
    branches: Counter


class ClassCoverage(Record):
    """JaCoCo's figures for one class: lines and branches, per method, and what is still uncovered."""

    fqn: str
    lines: Counter
    branches: Counter
    methods: tuple[MethodCoverage, ...] = ()
    uncovered_lines: tuple[int, ...] = ()
    partly_covered_lines: tuple[int, ...] = Field(default=(), description="lines with some branches missed")


# PIT's DetectionStatus, every value: NOT_STARTED and STARTED are left by a run cut short, EQUIVALENT by plugins.
MutantStatus = Literal["KILLED", "SURVIVED", "NO_COVERAGE", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR", "NON_VIABLE",
                       "NOT_STARTED", "STARTED", "EQUIVALENT"]
# What PIT counts as detected (DetectionStatus.isDetected in 1.30): the mutant made the tests fail in some way.
DETECTED: frozenset[MutantStatus] = frozenset({"KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR", "NON_VIABLE",
                                               "EQUIVALENT"})


class Mutant(Record):
    """One mutant PIT made and ran, with every test that killed it (PIT's full mutation matrix)."""

    class_name: str = Field(description="binary name as PIT gives it: com.acme.Foo$Inner")
    method: str
    descriptor: str = Field(default="", description="the method's JVM descriptor, e.g. (II)I")
    line: int
    mutator: str = Field(description="the mutator's simple class name, e.g. MathMutator")
    indexes: tuple[int, ...] = Field(default=(), description="where in the method's bytecode PIT mutated")
    description: str = ""
    status: MutantStatus
    killing_tests: tuple[str, ...] = Field(default=(), description="`pkg.FooTest#method` ids (nested: Foo$Inner)")

    @property
    def key(self) -> str:
        """The mutant's identity across runs over the same bytecode: class, method, line, mutator, position."""
        where = ",".join(map(str, self.indexes)) or self.description
        return f"{self.class_name}.{self.method}{self.descriptor}@{self.line}:{self.mutator}:{where}"

    @property
    def detected(self) -> bool:
        """Whether the tests noticed it, as PIT counts: killed, timed out, a memory or run error, not viable."""
        return self.status in DETECTED

    @property
    def top_class(self) -> str:
        """The top-level class it belongs to (com.acme.Foo for com.acme.Foo$Inner)."""
        return self.class_name.partition("$")[0]


class ClassMutation(Record):
    """The mutation figures of one top-level class, its nested classes' mutants included."""

    class_name: str
    killed: int = 0
    detected: int = Field(default=0, description="killed, timed out, memory or run errors: PIT's detected")
    survived: int = 0
    no_coverage: int = 0
    total: int = 0

    @property
    def score(self) -> float | None:
        """PIT's mutation score: detected / total, None when the class has no mutants."""
        return None if self.total == 0 else self.detected / self.total


class MutationReport(Record):
    """What one mutation analysis found: every mutant with its killers, or why nothing could be measured."""

    mutants: tuple[Mutant, ...] = ()
    seconds: float = 0.0
    timed_out: bool = False
    error: str | None = None
    analysed: tuple[str, ...] = Field(default=(), description="the target classes PIT ran on this time")
    from_history: tuple[str, ...] = Field(default=(), description="the target classes whose results were reused")

    @property
    def score(self) -> float | None:
        """Detected / total over every mutant, None when there are none."""
        return None if not self.mutants else sum(m.detected for m in self.mutants) / len(self.mutants)

    def by_class(self) -> dict[str, ClassMutation]:
        """Figures per top-level class (nested classes' mutants counted with their outer class)."""
        counts: dict[str, dict[str, int]] = {}
        for mutant in self.mutants:
            count = counts.setdefault(mutant.top_class, dict.fromkeys(
                ("killed", "detected", "survived", "no_coverage", "total"), 0))
            count["total"] += 1
            count["detected"] += mutant.detected
            count["killed"] += mutant.status == "KILLED"
            count["survived"] += mutant.status == "SURVIVED"
            count["no_coverage"] += mutant.status == "NO_COVERAGE"
        return {name: ClassMutation(class_name=name, **count) for name, count in sorted(counts.items())}

    def detected_keys(self) -> frozenset[str]:
        """The keys of every mutant the tests detected."""
        return frozenset(m.key for m in self.mutants if m.detected)

    def killed_by(self, test_ids: Collection[str]) -> frozenset[str]:
        """The keys of the mutants that any of `test_ids` kills; an id without `#` names a whole test class
        (its nested classes too)."""
        return frozenset(m.key for m in self.mutants if any(_names(wanted, test) for test in m.killing_tests
                                                            for wanted in test_ids))

    def kills_by_test(self) -> dict[str, frozenset[str]]:
        """Each killing test's id, with the keys of the mutants it kills."""
        kills: dict[str, set[str]] = {}
        for mutant in self.mutants:
            for test in mutant.killing_tests:
                kills.setdefault(test, set()).add(mutant.key)
        return {test: frozenset(keys) for test, keys in sorted(kills.items())}


def _names(wanted: str, test_id: str) -> bool:
    """Whether `wanted` (`pkg.FooTest#method` or a class `pkg.FooTest`) names the test `test_id`."""
    if "#" in wanted:
        return wanted == test_id
    test_class = test_id.partition("#")[0]
    return test_class == wanted or test_class.startswith(wanted + "$")
class ClassProbes(Record):
    """The JaCoCo probes of one class that ran: `name` is the binary name (com/acme/Foo$1), `class_id` JaCoCo's
    id of that build of it (a CRC64 of the class file), `probes` the indexes of the probes executed."""

    name: str
    class_id: int
    probes: frozenset[int]


class ProbeHits(Record):
    """Which JaCoCo probes ran, per class. A probe marks one edge of a method's control flow, so sets of probes
    unite and subtract exactly, as line and branch counts do not: what a test adds is `hits.minus(covered)`.

    Classes are kept sorted by (name, id), none without probes, so equal hits are equal records.
    """

    classes: tuple[ClassProbes, ...] = ()

    @field_validator("classes")
    @classmethod
    def _canonical(cls, classes: tuple[ClassProbes, ...]) -> tuple[ClassProbes, ...]:
        return tuple(sorted((c for c in classes if c.probes), key=lambda c: (c.name, c.class_id)))

    @classmethod
    def of(cls, probes: Mapping[tuple[str, int], Iterable[int]]) -> ProbeHits:
        """Hits from {(binary class name, class id): probe indexes}, as `execdata.read_exec` returns them."""
        return cls(classes=tuple(ClassProbes(name=name, class_id=class_id, probes=frozenset(hits))
                                 for (name, class_id), hits in probes.items()))

    def by_class(self) -> dict[tuple[str, int], frozenset[int]]:
        return {(c.name, c.class_id): c.probes for c in self.classes}

    @property
    def is_empty(self) -> bool:
        return not self.classes

    @property
    def probe_count(self) -> int:
        return sum(len(c.probes) for c in self.classes)

    def union(self, other: ProbeHits) -> ProbeHits:
        merged = self.by_class()
        for key, probes in other.by_class().items():
            merged[key] = merged.get(key, frozenset()) | probes
        return ProbeHits.of(merged)

    def minus(self, other: ProbeHits) -> ProbeHits:
        covered = other.by_class()
        return ProbeHits.of({key: probes - covered.get(key, frozenset()) for key, probes in self.by_class().items()})

    def restricted_to(self, classes: Iterable[str]) -> ProbeHits:
        """Only the probes of `classes` (fully qualified com.acme.Foo, or binary com/acme/Foo) and of the classes
        nested in them (com/acme/Foo$Inner, com/acme/Foo$1: lambdas and anonymous classes are their outer's)."""
        names = {name.replace(".", "/") for name in classes}
        return ProbeHits(classes=tuple(c for c in self.classes if _nested_in(c.name, names)))


def _nested_in(name: str, outer: set[str]) -> bool:
    """Whether binary class `name` is one of `outer` or nested in one: a$b$1 is in a and in a$b."""
    end = len(name)
    while end != -1:
        if name[:end] in outer:
            return True
        end = name.rfind("$", 0, end)
    return False


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


class DependencyAdvice(Record):
    """A test dependency the module lacks for the generated tests, and the pom entry that adds it."""

    group_id: str
    artifact_id: str
    version: str
    reason: str

    @property
    def coordinates(self) -> str:
        return f"{self.group_id}:{self.artifact_id}:{self.version}"

    @property
    def pom_snippet(self) -> str:
        """The `<dependency>` element to add to the module's pom, in test scope."""
        return (f"<dependency>\n    <groupId>{self.group_id}</groupId>\n"
                f"    <artifactId>{self.artifact_id}</artifactId>\n    <version>{self.version}</version>\n"
                "    <scope>test</scope>\n</dependency>")

    @property
    def gradle_line(self) -> str:
        return f'testImplementation("{self.coordinates}")'


class Tool(Record):
    """A pinned Java tool in the tools cache, its files verified against the manifest's SHA-256 sums."""

    name: str
    version: str
    home: Path = Field(description="the tool's folder in the cache")
    path: Path = Field(description="its main file: the jar to run, or Maven's bin/mvn")
    classpath: tuple[Path, ...] = Field(default=(), description="every jar of the tool (PIT: with its dependencies)")
    fetched: bool = Field(default=False, description="this call fetched it (ran Maven) rather than found it cached")
    adopted: bool = Field(default=False, description="found in the cache without a record and adopted as it was")
    size_bytes: int = 0


class ToolChoice(Record):
    """Which Java tool plays a role in a run (the launcher, JaCoCo's agent or analyzer), and why a fallback."""

    tool: str = Field(description="what it is, e.g. 'junit-platform-console-standalone'")
    version: str | None = None
    source: Literal["pinned", "configured", "classpath", "debian"]
    path: Path = Field(description="the jar to run or attach")
    classpath: tuple[Path, ...] = Field(default=(), description="the jars to run it with, when not `path` alone")
    fallback: str | None = Field(default=None, description="why the pinned tool was not used, when it was not")

    @property
    def summary(self) -> str:
        """`junit-platform-console-standalone 1.14.4 (pinned)`, or a fallback and why, for reports."""
        text = " ".join(part for part in (self.tool, self.version) if part)
        where = {"pinned": "pinned", "configured": "configured", "classpath": "from the classpath",
                 "debian": "Debian's"}[self.source]
        return f"{text} ({where}; fallback: {self.fallback})" if self.fallback else f"{text} ({where})"


class MavenChoice(Record):
    """Which Maven runs a repository's build, and why (for the report)."""

    command: tuple[str, ...]
    source: Literal["wrapper", "system", "fetched"]
    version: str | None = Field(default=None, description="None: a wrapper whose version is not declared")
    reason: str

    @property
    def label(self) -> str:
        """`Maven 3.9.16`, or `mvnw` for a wrapper that does not say which Maven it brings."""
        return f"Maven {self.version}" if self.version else "mvnw"


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


ReviewRule = Literal[
    "npe-from-mock-default", "null-from-unstubbed-mock", "asserts-mock-return", "weak-oracle", "duplicate-body",
    "unused-variable", "unread-thrown", "unused-mock", "unused-import",
]
"""The reviewer's lint rules; `validation/review.py`'s docstring says what each one flags and why."""
REVIEW_RULES: tuple[ReviewRule, ...] = get_args(ReviewRule)


class ReviewFinding(Record):
    """What a maintainer would reject in review of one generated test class, at a line."""

    rule: ReviewRule
    method: str | None = Field(description="the method it concerns; None for the class (a field, an import)")
    line: int
    message: str
    drops_method: bool = Field(default=False, description="the method pins an accident or repeats another: "
                                                          "drop it rather than fix it")


class ReviewSummary(Record):
    """Findings counted per rule over one or more test classes (every rule listed, zeros included)."""

    counts: dict[ReviewRule, int]
    classes: int = Field(default=1, description="how many test classes were reviewed")

    @property
    def total(self) -> int:
        """All findings, every rule together."""
        return sum(self.counts.values())

    @property
    def line(self) -> str:
        """One line for logs and job summaries: `lint: 0 npe-from-mock-default, 2 duplicate-body, ...`."""
        return "lint: " + ", ".join(f"{self.counts.get(rule, 0)} {rule}" for rule in REVIEW_RULES)

    def markdown_rows(self) -> list[str]:
        """A markdown table of the counts, one row per rule, with its header."""
        return ["| rule | findings |", "|---|---:|",
                *(f"| `{rule}` | {self.counts.get(rule, 0)} |" for rule in REVIEW_RULES)]

    @classmethod
    def merged(cls, summaries: Iterable[ReviewSummary]) -> ReviewSummary:
        """The counts of several classes added up (a run's kept files)."""
        counts = dict.fromkeys(REVIEW_RULES, 0)
        classes = 0
        for summary in summaries:
            classes += summary.classes
            for rule, count in summary.counts.items():
                counts[rule] += count
        return cls(counts=counts, classes=classes)

ProjectClasspath.model_rebuild()
ValidationReport.model_rebuild()


RerunStatus = Literal["passed", "failed", "error", "skipped", "timeout", "refused", "not-compiled", "flaky"]
"""How a written test ended when run as written (rerun.py): a JUnit status, "not-compiled" (javac rejects its lines
now), or "flaky" (it failed, then passed when run again alone: not a behaviour change)."""


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


class RerunReport(Record):
    """Written tests run as written against one build (the head, or a base commit's worktree)."""

    commit: str | None
    classes: tuple[RerunClass, ...]
    seconds: float
    notes: tuple[str, ...] = ()

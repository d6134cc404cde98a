"""Records of generation shared by both strategies: the job, targets, outcomes and results; built values,
test class shells, skipped classes and corrected expectations."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from junitbot.analysis import CodeGraph
from junitbot.config import JunitbotConfig
from junitbot.generation.imports import ImportSet
from junitbot.generation.wrapping import wrapped
from junitbot.records import Record
from junitbot.state import StateDir
from junitbot.validation import (
    Frameworks,
    GateResult,
    ProjectClasspath,
    TestCandidate,
    ValidationReport,
    Verdict,
    merge_reports,
)

ValueStrategy = Literal[
    "literal", "jdk", "enum", "record", "builder", "constructor", "factory", "collection", "optional", "array",
    "lambda",
]
MockSetup = Literal["extension", "openMocks", "initMocks", "none"]


class ValueExpr(Record):
    """A Java expression that builds a value, how it was built, and the imports it needs.

    `type_text` is the type as the file writes it (`List<OrderLine>`), for declaring a local of it.
    """

    text: str
    type_text: str
    strategy: ValueStrategy
    imports: tuple[str, ...] = ()


class MockField(Record):
    """A `@Mock` field of a test shell: a collaborator of the class under test."""

    name: str
    type_text: str
    fqn: str | None = None


class Skip(Record):
    """A class the generator cannot test, and why (shown in the run report)."""

    target: str
    reason: str


class Correction(Record):
    """An `assertEquals` whose expected literal was replaced by the value the code returned in every run."""

    method: str
    line: int
    expected: str
    actual: str


class TestShell(Record):
    """The class shell of one generated test: imports, mocks, the instance under test and its set-up.

    `render(methods)` inserts test methods and returns the whole Java source. Code added to the methods
    should name types through `import_set()`, then pass that set to `render` so its imports land too.
    """

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    target: str
    package: str
    class_name: str
    header_comment: str
    imports: tuple[str, ...]
    static_imports: tuple[str, ...]
    claims: tuple[tuple[str, str], ...]
    class_annotations: tuple[str, ...] = ()
    mocks: tuple[MockField, ...] = ()
    fields: tuple[str, ...] = ()
    subject_field: str | None = None
    subject_type: str | None = None
    subject_class: str | None = Field(default=None, description="the implementation the subject field holds, "
                                                                 "for an interface or abstract class")
    subject_annotations: tuple[str, ...] = ()
    set_up: tuple[str, ...] = ()
    tear_down: tuple[str, ...] = ()
    tear_down_throws: bool = False
    set_up_throws: bool = Field(default=False, description="setUp declares `throws Exception`: it builds objects "
                                                            "whose factories may throw checked exceptions")
    mock_setup: MockSetup = "none"
    test_annotation: str = "@Test"
    mock_annotation: str = "@Mock"
    before_each_annotation: str = "@BeforeEach"
    after_each_annotation: str = "@AfterEach"
    notes: tuple[str, ...] = ()

    def import_set(self, *, local: Callable[[str], bool] | None = None) -> ImportSet:
        """The shell's imports as a set that more code can add to without clashes."""
        return ImportSet.restore(self.package, imports=self.imports, static_imports=self.static_imports,
                                 claims=self.claims, local=local)

    def render(self, methods: Sequence[str], *, imports: ImportSet | None = None) -> str:
        """The full Java source with `methods` (complete method declarations) inside the class."""
        chosen = imports or self.import_set()
        out: list[str] = [*_comment(self.header_comment)]
        if self.package:
            out += [f"package {self.package};", ""]
        import_lines = chosen.lines()
        out += [*import_lines, *([""] if import_lines else [])]
        out += [*self.class_annotations, f"class {self.class_name} {{"]
        members = [_block(self._field_lines()), _block(self._lifecycle()), *(_block(_method(m)) for m in methods)]
        for member in members:
            if member:
                out += ["", member]
        out.append("}")
        return "\n".join(out) + "\n"

    def _field_lines(self) -> list[str]:
        lines: list[str] = []
        for mock in self.mocks:
            lines += [self.mock_annotation, f"private {mock.type_text} {mock.name};", ""]
        lines += [*self.fields, *([""] if self.fields else [])]
        if self.subject_field is not None and self.subject_type is not None:
            lines += [*self.subject_annotations, f"private {self.subject_type} {self.subject_field};"]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    def _lifecycle(self) -> list[str]:
        lines: list[str] = []
        if self.set_up:
            throws = " throws Exception" if self.set_up_throws else ""
            lines += [self.before_each_annotation, f"void setUp(){throws} {{",
                      *(f"    {piece}" for s in self.set_up for piece in wrapped(s)), "}"]
        if self.tear_down:
            throws = " throws Exception" if self.tear_down_throws else ""
            lines += [*([""] if lines else []), self.after_each_annotation, f"void tearDown(){throws} {{",
                      *(f"    {s}" for s in self.tear_down), "}"]
        return lines


ProgressCallback = Callable[[str, int, int], None]
"""progress(stage, done, total): long stages report how far they are."""
AttemptStatus = Literal["kept", "failed", "no-code", "refused", "backend-error", "filtered"]
FinalStatus = Literal["kept", "failed", "skipped"]
Origin = Literal["llm", "merged", "template", "corrected"]


def _no_progress(stage: str, done: int, total: int) -> None:
    """The default progress callback: says nothing."""


class GenerationJob(BaseModel):
    """Where and for what one generation works: the repository, its open graph, settings, state and commit.

    Every strategy (the no-model generator, the model loop) takes one job instead of the same keyword list.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    root: Path
    graph: CodeGraph
    config: JunitbotConfig
    state: StateDir
    commit: str | None = None
    progress: ProgressCallback = _no_progress
    # The licence header of the repository's files (output.licence_header), atop every generated test;
    # `generate` detects it once per run.
    licence_header: str | None = None
    # The run's directory (its report goes there): the model loop keeps every prompt and answer under it.
    run_directory: Path | None = None
    # Class FQN → what a person asked of its tests (`/junitbot regenerate Foo -- text`, issue 17): untrusted text,
    # bounded and cleaned by the bot, for a prompt to quote as data; the no-model generator does not read it.
    instructions: dict[str, str] = Field(default_factory=dict)


# What `Target.changed` holds for a changed constructor.
CHANGED_CONSTRUCTOR = "<init>"


class Target(Record):
    """A class to generate a test for, and why it was chosen."""

    fqn: str
    file: str
    reason: str
    changed: tuple[str, ...] = Field(default=(), description="the names of its methods the change being tested "
                                                             "touched, or that use what it touched: they are tried "
                                                             "with more inputs; `<init>`: a constructor")

    def touches(self, method: str, *, static: bool) -> bool:
        """Whether the change touched `method`: by name, or, for an instance method, through a changed
        constructor (the state every instance method reads)."""
        return method in self.changed or (not static and CHANGED_CONSTRUCTOR in self.changed)


class RoundRecord(Record):
    """One attempt of one target: what came back, what was wrong, and what this round fixed."""

    round: int
    status: AttemptStatus
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    problems: tuple[str, ...] = ()
    fixed: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    compiled: bool | None = Field(default=None, description="whether the candidate compiled (some methods may have "
                                                            "been removed); None: no candidate reached javac")
    methods: int = Field(default=0, description="test methods in the candidate")
    passed: int = Field(default=0, description="test methods that compiled and passed (kept or adding nothing)")
    kept: int = Field(default=0, description="test methods validation kept")
    salvaged: tuple[str, ...] = Field(default=(), description="test methods removed so that the rest compiles "
                                                             "(method-level salvage, before any repair round); "
                                                             "`passed` and `kept` count what is left")
    transcript: str | None = Field(default=None, description="the round's prompt and answer, relative to the run "
                                                             "directory (prompts/<target>/round-<N>.md)")


class TargetOutcome(Record):
    """The model's result for one target, for the run report; `source` is the kept test class."""

    target: str
    path: str
    backend: str
    model: str
    status: FinalStatus
    reason: str | None = None
    rounds: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    context_tokens: int = 0
    context_estimated: bool = False
    used_skeleton: bool = False
    history: tuple[RoundRecord, ...] = ()
    source: str | None = None
    kept_methods: tuple[str, ...] = ()
    dropped_methods: tuple[str, ...] = ()
    verdict: Verdict | None = None
    # Set after the loop by `generate`: where the target's kept class came from (None: nothing
    # kept), expected values corrected to what the code returned, no-model methods merged in, and why.
    origin: Origin | None = None
    corrections: tuple[Correction, ...] = ()
    merged_methods: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class GenerationResult(Record):
    """What a backend produced: candidates, the validation of them, and the classes it skipped.

    `llm` holds the model's outcome per target (empty for the template backend); each says where the kept
    test class came from (`origin`) and which expected values were corrected.
    """

    candidates: tuple[TestCandidate, ...]
    validation: ValidationReport | None
    skipped: tuple[Skip, ...] = ()
    scenarios: int = 0
    observed: int = 0
    seconds: dict[str, float] = Field(default_factory=dict)
    backend: str = "template"
    backend_reason: str = ""
    llm: tuple[TargetOutcome, ...] = ()
    gate: GateResult | None = Field(default=None, description="the last gate, the project's own build; None "
                                                               "until the run's build-gate step")
    # What the module's test classpath offered and the release it compiles at: the run report says which
    # test dependencies are missing.
    frameworks: Frameworks | None = None
    java_release: int | None = None
    classpath: ProjectClasspath | None = Field(default=None, description="each module's classpath, as the run "
                                                                          "found it")

    def origin(self, target: str) -> Origin | None:
        """Where the kept test class of `target` came from: llm, merged, corrected or template; None: nothing kept."""
        outcome = next((o for o in self.llm if o.target == target), None)
        if outcome is not None:
            return outcome.origin
        verdicts = self.validation.verdicts if self.validation else ()
        return "template" if any(v.target == target and v.kept for v in verdicts) else None



def combine_results(results: Sequence[GenerationResult]) -> GenerationResult:
    """One result of several generations (a run's modules, a full pass's partitions): every candidate, verdict,
    skip and model outcome, the seconds of each stage added up, the lowest release; the backend and classpath
    of the first."""
    if len(results) == 1:
        return results[0]
    if not results:
        return GenerationResult(candidates=(), validation=None)
    reports = [r.validation for r in results if r.validation is not None]
    seconds: dict[str, float] = {}
    for result in results:
        for stage, value in result.seconds.items():
            seconds[stage] = round(seconds.get(stage, 0.0) + value, 3)
    first = results[0]
    return GenerationResult(candidates=tuple(c for r in results for c in r.candidates),
                            validation=merge_reports(reports) if reports else None,
                            skipped=tuple(s for r in results for s in r.skipped),
                            scenarios=sum(r.scenarios for r in results), observed=sum(r.observed for r in results),
                            seconds=seconds, backend=first.backend, backend_reason=first.backend_reason,
                            llm=tuple(o for r in results for o in r.llm), frameworks=first.frameworks,
                            java_release=min((r.java_release for r in results if r.java_release), default=None),
                            classpath=first.classpath)

def _comment(text: str) -> list[str]:
    """The header as Java comment lines, left as it is when it already is a comment."""
    if not text.strip():
        return []
    lines = text.strip("\n").splitlines()
    if lines[0].lstrip().startswith(("//", "/*")):
        return lines
    return [f"// {line}".rstrip() for line in lines]


def _method(source: str) -> list[str]:
    return textwrap.dedent(source).strip("\n").splitlines()


def _block(lines: Sequence[str]) -> str:
    return "\n".join(f"    {line}" if line.strip() else "" for line in lines)

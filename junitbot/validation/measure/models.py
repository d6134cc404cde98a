"""Records of measuring: coverage counters, how PIT runs, mutants and PIT's report, per-test probe hits."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from junitbot.records import Record


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


class PitOptions(Record):
    """How one mutation analysis runs: PIT from the tools cache, on the module's JDK, isolated as the JUnit runs,
    with junitbot's history of earlier results, a time budget and PIT's threads, and the lines that count."""

    tools_dir: Path
    java_home: str | None = None
    isolation: str | None = Field(default=None, description="as for JUnit runs; None: the strongest that works here")
    history_file: Path | None = Field(default=None, description="junitbot's record of earlier results (read, then "
                                                                "rewritten); None runs everything")
    budget_s: float | None = Field(default=None, description="the whole run's time limit; None: "
                                                             "`validation.mutation_budget_s_per_class` per class run, "
                                                             "plus start-up")
    threads: int = 2
    full_matrix: bool = Field(default=True, description="name every test that kills each mutant (what the keep rule "
                                                        "reads); False stops at the first: a baseline needs only "
                                                        "which mutants die, and a human suite has many tests each")
    changed_lines: dict[str, frozenset[int]] | None = Field(
        default=None, description="class -> source lines (a nested class under its own or its top-level class's "
                                  "name): only mutants on them count, and classes without any are not run")
    excluded_methods: tuple[str, ...] = Field(
        default=(), description="method names not mutated (PIT's `--excludedMethods`): where the existing tests kill "
                                "every mutant, no new test can add a kill, so the keep rule need not run them")


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


class CarvedCall(Record):
    """The arguments the repository's own tests passed to one public member of a class under test, as the carver
    recorded them: each as Java source text (`new String[] { "-a", "foo" }`, `Color.RED`, `null`), or None where
    no text rebuilds it (an object, a collection, a long string)."""

    member: str = Field(description="the method's name, `<init>` for a constructor")
    parameters: tuple[str, ...] = Field(description="the parameter types as the JVM erases them (`java.lang.String[]`)")
    arguments: tuple[str | None, ...]
    threw: bool = Field(default=False, description="the call ended in an exception (a test of a rejected input)")
    receiver: str | None = Field(default=None, description="the instance method's receiver as the call that built it "
                                 "(`new demo.Tokenizer(\"a b\")`), where the carver saw it built")

    @property
    def complete(self) -> bool:
        """Every argument rebuilt."""
        return all(argument is not None for argument in self.arguments)

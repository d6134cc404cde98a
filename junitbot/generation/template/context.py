"""The contexts the no-model generator writes a test class with: one per build module, one per class under test."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from junitbot.analysis import ClassInfo, CodeGraph, DependencyAnalyzer
from junitbot.generation.imports import ImportSet
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.style import AssertionStyle, NamingStyle
from junitbot.generation.template.access import ClassLookup, Scope
from junitbot.generation.template.expected import Expect, expectation
from junitbot.generation.template.observations import ObservedValue
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.reach import members_reaching
from junitbot.generation.template.shared_state import shared_state_changers
from junitbot.validation import Frameworks
from junitbot.validation.measure.models import CarvedCall

# Scenarios per method where no setting says (GenerationSettings.max_scenarios_per_method's default).
SCENARIOS_PER_METHOD = 8


@dataclass(frozen=True)
class Style:
    """How the tests are written: assertion and naming style, and whether `@ParameterizedTest` is there."""

    assertions: AssertionStyle = "junit"
    naming: NamingStyle = "underscore"
    parameterized: bool = False
    is_enum: Callable[[str], bool] = field(default=lambda name: False)


@dataclass(frozen=True)
class ModuleContext:
    """What every test class of one build module is written with, built once per module: the repo's classes by FQN,
    the test frameworks on its classpath, its Java release, the style of its tests, the scenarios per method, the
    concrete subtypes of a repo type, and the arguments the repository's tests passed to each target (carved)."""

    lookup: ClassLookup
    frameworks: Frameworks = field(default_factory=Frameworks)
    level: JavaLevel = MODERN
    style: Style = field(default_factory=Style)
    limit: int = SCENARIOS_PER_METHOD
    implementations: Callable[[str], Sequence[str]] = field(default=lambda fqn: (), compare=False)
    # What the repository's own tests passed to each target's public members (by target FQN; the baseline's carver).
    carved: Mapping[str, Sequence[CarvedCall]] = field(default_factory=dict, compare=False)

    def scope(self, imports: ImportSet) -> Scope:
        """Where a test file with these imports writes its Java."""
        return Scope(self.lookup, imports, self.level, implementations=self.implementations)


@dataclass(frozen=True)
class ClassContext:
    """What one target's tests are written with, built once per target from its shell: its module's context, the
    class under test, the test file's imports, and the mocks the shell declares (field name → mocked type's FQN)."""

    module: ModuleContext
    subject: ClassInfo
    imports: ImportSet
    mocks: Mapping[str, str | None] = field(default_factory=dict, hash=False)

    @functools.cached_property
    def shared_state_changers(self) -> frozenset[str]:
        """The class's static methods whose test would leave a registry change behind (`shared_state`)."""
        return shared_state_changers(self.subject)

    @functools.cached_property
    def line_break_writers(self) -> frozenset[str]:
        """The class's members that write `System.lineSeparator()`, themselves or through other members."""
        writing = {member.name for member in (*self.subject.methods, *self.subject.constructors) if any(
            call.method == "lineSeparator" and call.receiver == "System" for call in member.calls)}
        return members_reaching(self.subject, writing)

    @property
    def lookup(self) -> ClassLookup:
        """The repo's classes by FQN."""
        return self.module.lookup

    @property
    def level(self) -> JavaLevel:
        """The Java release the test compiles at."""
        return self.module.level

    @property
    def carved(self) -> Sequence[CarvedCall]:
        """What the repository's own tests passed to the class's public members, as the carver recorded it."""
        return self.module.carved.get(self.subject.fqn, ())

    @property
    def scope(self) -> Scope:
        """Where the test's Java is written: the module's classes and release, the test file's imports."""
        return self.module.scope(self.imports)

    def nameable(self, fqn: str) -> bool:
        """Whether the test may name the repo class `fqn`."""
        info = self.lookup(fqn)
        return info is not None and self.scope.visible(info)

    def expect(self, scenario: Scenario) -> Expect:
        """Expected values for this scenario, never built by the very call under test (that would be circular)."""
        base = expectation(self.scope)
        own = f"new {scenario.method[3:]}(" if scenario.constructor else f".{scenario.method}("

        def expect(value: ObservedValue) -> str | None:
            found = base(value)
            return None if found is None or own in found else found
        return expect


def graph_implementations(graph: CodeGraph) -> Callable[[str], Sequence[str]]:
    """The concrete production subtypes of a repo type as the graph knows them, each type asked once."""
    return functools.cache(lambda fqn: tuple(DependencyAnalyzer(graph).implementations_of(fqn)))

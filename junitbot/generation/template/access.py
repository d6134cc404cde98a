"""What a test in a given package may name, construct and call; the static factories it may use (pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from junitbot.analysis import ClassInfo, MethodInfo, TypeKind
from junitbot.generation.imports import ImportSet
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.template.jdk_values import NONDETERMINISTIC_FACTORIES, PREFERRED_FACTORIES

ClassLookup = Callable[[str], ClassInfo | None]
# Members of interfaces and annotations are public without saying so.
_OPEN_TYPES = (TypeKind.INTERFACE, TypeKind.ANNOTATION)


@dataclass(frozen=True)
class Scope:
    """Where a test's Java is written, one per test class: the repo's classes by FQN, the test file's imports (and so
    its package), the Java release it compiles at, how many repo types a value built there may nest, and the concrete
    subtypes of a repo type."""

    lookup: ClassLookup
    imports: ImportSet
    level: JavaLevel = MODERN
    depth: int = 3
    # The concrete production subtypes of a repo type, nearest first (analysis `implementations_of`).
    implementations: Callable[[str], Sequence[str]] = field(default=lambda fqn: (), compare=False)

    @property
    def package(self) -> str:
        """The test file's package."""
        return self.imports.package

    def name(self, fqn: str, in_repo: bool = True) -> str:
        """How the file writes the type `fqn` (a repo type's own package tells where its name splits)."""
        info = self.lookup(fqn) if in_repo else None
        return self.imports.name(fqn, package=info.package if info is not None else None)

    def visible(self, info: ClassInfo) -> bool:
        """Whether the test may name the repo type `info`."""
        return visible(info, package=self.imports.package, lookup=self.lookup)

    def forked(self) -> Scope:
        """The same scope on a fork of the imports, to try something on (`imports.adopt` the fork when it works)."""
        return replace(self, imports=self.imports.fork())


def visible(info: ClassInfo, *, package: str, lookup: ClassLookup) -> bool:
    """Whether code in `package` may name the type (and every type enclosing it)."""
    current: ClassInfo | None = info
    while current is not None:
        outer = lookup(current.outer) if current.outer else None
        if "private" in current.modifiers:
            return False
        implicit = outer is not None and outer.kind in _OPEN_TYPES
        if "public" not in current.modifiers and not implicit and current.package != package:
            return False
        current = outer
    return True


def accessible(member: MethodInfo, owner: ClassInfo, *, package: str) -> bool:
    """Whether code in `package` may call the constructor or method."""
    if "private" in member.modifiers:
        return False
    return "public" in member.modifiers or owner.kind in _OPEN_TYPES or owner.package == package


def is_inner(info: ClassInfo, lookup: ClassLookup) -> bool:
    """Whether constructing the class needs an instance of its enclosing class (types in interfaces are static)."""
    if not info.is_inner or info.outer is None:
        return False
    outer = lookup(info.outer)
    return outer is None or outer.kind not in _OPEN_TYPES


def factories(info: ClassInfo, *, package: str) -> list[MethodInfo]:
    """Static methods returning the type that give the same value every run, the best-named first."""
    found = [m for m in info.methods if "static" in m.modifiers and m.return_type is not None
             and resolved_fqn(m.return_type) == info.fqn and accessible(m, info, package=package)
             and m.name.lower() not in NONDETERMINISTIC_FACTORIES]
    return sorted(found, key=lambda m: (m.name not in PREFERRED_FACTORIES, -len(m.parameters)))

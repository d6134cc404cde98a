"""DependencyAnalyzer: what a test of a class needs, and who is affected when classes change."""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Literal

from junitbot.analysis.graph import CodeGraph, TypeRow
from junitbot.analysis.models import (
    ClassInfo,
    Collaborator,
    ConstructStrategy,
    EdgeKind,
    ImpactedClass,
    ImpactReport,
    MethodInfo,
    PathStep,
    TestContext,
    TypeKind,
    TypeRef,
    ValueType,
)
from junitbot.analysis.naming import class_named_by_test, class_tested_by
from junitbot.errors import UnknownClassError

# Types a test builds from literals or empty instances rather than mocks.
_JDK_VALUES = frozenset({
    "boolean", "byte", "char", "short", "int", "long", "float", "double", "String", "Integer", "Long", "Short",
    "Byte", "Character", "Boolean", "Float", "Double", "Number", "BigDecimal", "BigInteger", "UUID", "Instant",
    "Duration", "LocalDate", "LocalDateTime", "LocalTime", "ZonedDateTime", "OffsetDateTime", "ZoneId",
    "ZoneOffset", "Period", "YearMonth", "Year", "DayOfWeek", "Month", "Currency", "Locale", "URI", "URL", "Path",
    "List", "ArrayList", "LinkedList", "Set", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "Map", "HashMap",
    "LinkedHashMap", "TreeMap", "SortedMap", "Collection", "Iterable", "Optional", "OptionalInt", "OptionalLong",
    "OptionalDouble", "Object", "CharSequence", "Class", "Enum", "Record", "Void",
})
# Simple-name suffixes of classes that do work rather than hold data: mock them.
_SERVICE_SUFFIXES = ("Service", "UseCase", "Handler", "Repository", "Gateway", "Client", "Publisher", "Adapter",
                     "Dao", "Manager", "Provider", "Factory", "Facade", "Controller", "Listener", "Source",
                     "Processor", "Executor", "Validator", "Mapper", "Port")
_INJECTION_ANNOTATIONS = frozenset({"Autowired", "Inject", "Resource", "Value", "Mock"})
# When two edges explain the same dependency, the path shows the more telling one.
_KIND_RANK = {kind: rank for rank, kind in enumerate(EdgeKind)}


class DependencyAnalyzer:
    """Queries over a CodeGraph; all answers are pydantic models, ready for JSON."""

    def __init__(self, graph: CodeGraph) -> None:
        self.graph = graph
        self._infos: dict[str, ClassInfo | None] = {}
        self._type_rows: dict[str, TypeRow] | None = None

    def lookup(self, name: str) -> str:
        """An FQN, or the FQN of an unambiguous simple (or `Outer.Inner`) name; else UnknownClassError."""
        if name in self._rows():
            return name
        matches = self.graph.fqns_named(name)
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise UnknownClassError(name, candidates=matches, ambiguous=True)
        rows = self._rows().values()
        choices = {row.fqn: row.fqn for row in rows} | {row.name: row.fqn for row in rows}
        close = difflib.get_close_matches(name, list(choices), n=5, cutoff=0.6)
        raise UnknownClassError(name, candidates=sorted(dict.fromkeys(choices[c] for c in close)))

    def _info(self, fqn: str | None) -> ClassInfo | None:
        if fqn is None:
            return None
        if fqn not in self._infos:
            self._infos[fqn] = self.graph.class_info(fqn)
        return self._infos[fqn]

    # -- test context ----------------------------------------------------------------------------

    def test_context_for(self, name: str) -> TestContext:
        """Collaborators to mock, value types to build, the layer and the existing tests of a class."""
        fqn = self.lookup(name)
        info = self._info(fqn)
        assert info is not None  # lookup() only returns known FQNs
        constructor = _injection_constructor(info)
        collaborators: dict[str, Collaborator] = {}
        if constructor is not None:
            for param in constructor.parameters:
                if not self.is_value(param.type):
                    collaborators[param.name] = self._collaborator(param.name, param.type, "constructor")
        field_types = {f.name: f for f in info.fields if "static" not in f.modifiers}
        for field in field_types.values():
            injected = {a.name.rsplit(".", 1)[-1] for a in field.annotations} & _INJECTION_ANNOTATIONS
            if field.name not in collaborators and injected and not self.is_value(field.type):
                collaborators[field.name] = self._collaborator(field.name, field.type, "field")
        for method in info.methods:
            target = _setter_target(method)
            if target in field_types and target not in collaborators and not self.is_value(method.parameters[0].type):
                collaborators[target] = self._collaborator(target, method.parameters[0].type, "setter")
        values = self._value_types(info, constructor)
        unresolved = sorted({
            ref.name for ref in _signature_refs(info) if ref.fqn is None and ref.name not in _JDK_VALUES
            and ref.name not in info.type_parameters and not ref.name[:1].islower() and ref.name != "?"
        })
        return TestContext(
            target=fqn,
            kind=info.kind,
            layer=info.layer,
            file=info.file,
            constructor=constructor,
            collaborators=tuple(collaborators.values()),
            value_types=tuple(values),
            existing_tests=tuple(self.tests_of(fqn)),
            unresolved=tuple(unresolved),
            implementations=tuple(self.implementations_of(fqn)) if info.is_abstract else (),
        )

    def implementations_of(self, fqn: str) -> list[str]:
        """Production types extending or implementing `fqn`, directly or through other subtypes, that a test
        can instantiate: classes that are not abstract, records and enums. Nearest first; a sealed type's
        permitted subtypes in the order its `permits` clause lists them, the others by name."""
        found: list[str] = []
        seen = {fqn}
        level = [fqn]
        while level:
            listed = [ref.fqn for info in map(self._info, level) if info is not None for ref in info.permits]
            below = sorted({source for current in level for source, kind in self.graph.dependents(current)
                            if kind in (EdgeKind.EXTENDS, EdgeKind.IMPLEMENTS) and source not in seen},
                           key=lambda source: (listed.index(source) if source in listed else len(listed), source))
            seen.update(below)
            subtypes = [info for info in map(self._info, below) if info is not None and not info.is_test]
            found += [info.fqn for info in subtypes if not info.is_abstract and info.kind is not TypeKind.ANNOTATION
                      and "private" not in info.modifiers]
            level = [info.fqn for info in subtypes]
        return found

    def _collaborator(self, name: str, ref: TypeRef, via: Literal["constructor", "field", "setter"]) -> Collaborator:
        info = self._info(ref.fqn) if ref.in_repo else None
        return Collaborator(name=name, type=ref, via=via, kind=info.kind if info else None)

    def is_value(self, ref: TypeRef) -> bool:
        """Whether a test should build this type rather than mock it."""
        if ref.array or ref.name in _JDK_VALUES or ref.name.rsplit(".", 1)[-1] in _JDK_VALUES:
            return True
        info = self._info(ref.fqn) if ref.in_repo else None
        if info is None:
            return bool(ref.fqn and ref.fqn.startswith(("java.time.", "java.math.")))
        return self._strategy(info) != "mock"

    def _strategy(self, info: ClassInfo) -> ConstructStrategy:
        if info.kind is TypeKind.RECORD:
            return "record"
        if info.kind is TypeKind.ENUM:
            return "enum"
        if info.kind in (TypeKind.INTERFACE, TypeKind.ANNOTATION) or "abstract" in info.modifiers:
            return "mock"
        if info.builder is not None:
            return "builder"
        if _is_exception(info) or (not info.name.endswith(_SERVICE_SUFFIXES) and not self._has_collaborators(info)):
            public = [c for c in info.constructors if "private" not in c.modifiers]
            if public:
                return "constructor"
            factories = [m for m in info.methods if "static" in m.modifiers and m.return_type is not None
                         and m.return_type.fqn == info.fqn]
            return "factory" if factories else "mock"
        return "mock"

    def _has_collaborators(self, info: ClassInfo) -> bool:
        """A class that holds interfaces or services is itself a service."""
        for field in info.fields:
            if "static" in field.modifiers or not field.type.in_repo or field.type.fqn == info.fqn:
                continue
            other = self._info(field.type.fqn)
            if other is not None and (other.kind is TypeKind.INTERFACE or other.name.endswith(_SERVICE_SUFFIXES)):
                return True
        return False

    def _value_types(self, info: ClassInfo, constructor: MethodInfo | None, depth: int = 3) -> list[ValueType]:
        """Repo value types used by the constructor and public methods, and what they need in turn."""
        seen: dict[str, ValueType] = {}
        queue: deque[tuple[TypeRef, int]] = deque()
        methods = [m for m in info.methods if "private" not in m.modifiers]
        for method in ([constructor] if constructor else []) + methods:
            for param in method.parameters:
                queue.append((param.type, 1))
        for component in info.record_components:
            queue.append((component.type, 1))
        while queue:
            ref, level = queue.popleft()
            for nested in ref.arguments:
                queue.append((nested, level))
            if not ref.in_repo or ref.fqn is None or ref.fqn in seen or ref.fqn == info.fqn:
                continue
            other = self._info(ref.fqn)
            if other is None:
                continue
            strategy = self._strategy(other)
            if strategy == "mock":
                continue
            seen[ref.fqn] = ValueType(fqn=ref.fqn, kind=other.kind, strategy=strategy,
                                      details=_construction_details(other, strategy))
            if level < depth:
                for part in _construction_inputs(other, strategy):
                    queue.append((part, level + 1))
        return sorted(seen.values(), key=lambda v: v.fqn)

    def tests_of(self, fqn: str) -> list[str]:
        """Test classes named after the class (`FooTest`, whose package and imports say this `Foo`), then other
        tests that use it."""
        simple = fqn.rsplit(".", 1)[-1]
        by_name = [row.fqn for row in self._rows().values()
                   if row.is_test and row.outer is None and class_named_by_test(row.name) == simple
                   and self._tested_by(row) in (fqn, None)]
        users = [src for src, _ in self.graph.dependents(fqn) if self._is_test(src)]
        return list(dict.fromkeys([*sorted(by_name), *sorted(users)]))

    def _tested_by(self, row: TypeRow) -> str | None:
        """The class a test named after one tests, as javac resolves the name in its file; None when unknown."""
        facts = self.graph.facts(row.path)
        if facts is None:
            return None
        return class_tested_by(row.name, package=facts.package, imports=facts.imports,
                               fqns_named=self.graph.fqns_named)

    def _is_test(self, fqn: str) -> bool:
        row = self._rows().get(fqn)
        return bool(row and row.is_test)

    def _rows(self) -> dict[str, TypeRow]:
        """The graph's nodes by FQN, read once: impact walks many of them and needs no member detail."""
        if self._type_rows is None:
            self._type_rows = {row.fqn: row for row in self.graph.types()}
        return self._type_rows

    # -- impact ------------------------------------------------------------------------------------

    def impact_of(self, names: Iterable[str], *, depth: int = 3) -> ImpactReport:
        """Direct and transitive dependents of the changed classes, each with the path that explains it."""
        changed = [self.lookup(name) for name in names]
        return self.impact_of_fqns(changed, depth=depth)

    def impact_of_fqns(self, changed: Sequence[str], *, depth: int = 3) -> ImpactReport:
        """Like impact_of, for FQNs that may no longer exist (deleted classes still have dependents)."""
        paths: dict[str, tuple[PathStep, ...]] = {fqn: () for fqn in changed}
        frontier = deque(changed)
        while frontier:
            current = frontier.popleft()
            if len(paths[current]) >= depth:
                continue
            for source, kind in _strongest(self.graph.dependents(current)):
                if source in paths:
                    continue
                paths[source] = (PathStep(source=source, target=current, kind=kind), *paths[current])
                frontier.append(source)
        dependents: list[ImpactedClass] = []
        tests: list[ImpactedClass] = []
        for fqn, path in paths.items():
            if not path:
                continue
            impacted = ImpactedClass(fqn=fqn, depth=len(path), path=path, is_test=self._is_test(fqn))
            (tests if impacted.is_test else dependents).append(impacted)
        for fqn in changed:
            for test in self.tests_of(fqn):
                if test not in paths:
                    tests.append(ImpactedClass(fqn=test, depth=1, path=(), is_test=True))
        order = lambda c: (c.depth, c.fqn)  # noqa: E731  # a sort key, named for reading
        return ImpactReport(changed=tuple(changed), depth=depth, dependents=tuple(sorted(dependents, key=order)),
                            tests=tuple(sorted(tests, key=order)))


def _strongest(edges: Sequence[tuple[str, EdgeKind]]) -> list[tuple[str, EdgeKind]]:
    best: dict[str, EdgeKind] = {}
    for source, kind in edges:
        if source not in best or _KIND_RANK[kind] < _KIND_RANK[best[source]]:
            best[source] = kind
    return sorted(best.items())


def _injection_constructor(info: ClassInfo) -> MethodInfo | None:
    """The constructor a DI container would use: annotated for injection, else the widest non-private."""
    if not info.constructors:
        return None
    annotated = [c for c in info.constructors
                 if {a.name.rsplit(".", 1)[-1] for a in c.annotations} & _INJECTION_ANNOTATIONS]
    if annotated:
        return annotated[0]
    visible = [c for c in info.constructors if "private" not in c.modifiers] or list(info.constructors)
    return max(visible, key=lambda c: len(c.parameters))


def _setter_target(method: MethodInfo) -> str | None:
    if len(method.parameters) != 1 or not method.name.startswith("set") or len(method.name) < 4:
        return None
    return method.name[3].lower() + method.name[4:]


def _is_exception(info: ClassInfo) -> bool:
    return info.name.endswith(("Exception", "Error")) or any(
        t.name.endswith(("Exception", "Error", "Throwable")) for t in info.extends)


def _construction_details(info: ClassInfo, strategy: ConstructStrategy) -> tuple[str, ...]:
    if strategy == "record":
        return tuple(f"{c.type.text} {c.name}" for c in info.record_components)
    if strategy == "enum":
        return info.enum_constants
    if strategy == "builder" and info.builder is not None:
        return (f"{info.builder.factory}()", *info.builder.setters, f"{info.builder.build_method}()")
    if strategy == "constructor":
        constructor = _injection_constructor(info)
        return tuple(f"{p.type.text} {p.name}" for p in constructor.parameters) if constructor else ()
    if strategy == "factory":
        return tuple(f"{m.name}({', '.join(p.type.text for p in m.parameters)})" for m in info.methods
                     if "static" in m.modifiers and m.return_type is not None and m.return_type.fqn == info.fqn)
    return ()


def _construction_inputs(info: ClassInfo, strategy: ConstructStrategy) -> list[TypeRef]:
    if strategy == "record":
        return [c.type for c in info.record_components]
    if strategy == "constructor":
        constructor = _injection_constructor(info)
        return [p.type for p in constructor.parameters] if constructor else []
    if strategy == "builder":
        return [f.type for f in info.fields if "static" not in f.modifiers]
    return []


def _signature_refs(info: ClassInfo) -> list[TypeRef]:
    refs: list[TypeRef] = [f.type for f in info.fields]
    for method in (*info.constructors, *info.methods):
        refs.extend(p.type for p in method.parameters)
        if method.return_type is not None:
            refs.append(method.return_type)
    return refs

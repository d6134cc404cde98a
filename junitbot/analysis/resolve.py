"""Resolve the type names of one file against the repo's types: ClassInfo with FQNs, and edges (pure).

The result depends only on the file's facts and on which FQNs exist, and a name can only resolve to
an FQN whose last segment is one of the name's segments. So when types appear or disappear, only
files using one of their simple names need resolving again (see `names_used`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence

from junitbot.analysis.jdk import external_fqn
from junitbot.analysis.layers import layer_of
from junitbot.analysis.models import (
    AnnotationInfo,
    CallSite,
    ClassInfo,
    Edge,
    EdgeKind,
    FileFacts,
    MethodInfo,
    ParameterInfo,
    TypeRef,
)
from junitbot.config import LayerRule

_PRIMITIVES = {"int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var", "?"}


def names_used(facts: FileFacts) -> set[str]:
    """Every name segment this file's resolution could depend on."""
    names: set[str] = set()
    for ref in facts.refs:
        names.update(ref.name.split("."))
    for item in facts.imports:
        names.update(item.name.split("."))
    return names


def resolve_file(
    facts: FileFacts, symbols: Collection[str], *, layers: Sequence[LayerRule]
) -> tuple[list[ClassInfo], list[Edge]]:
    """ClassInfo with resolved TypeRefs and layers, and the edges between repo types this file adds."""
    resolver = _Resolver(facts, symbols)
    edges: set[tuple[str, str, EdgeKind]] = set()
    for ref in facts.refs:
        fqn, in_repo = resolver.resolve(ref.name, ref.owner)
        if in_repo and fqn is not None and fqn != ref.owner:
            edges.add((ref.owner, fqn, ref.kind))
    classes = []
    for info in facts.classes:
        resolved = _resolve_class(info, resolver.ref_resolver(info.fqn))
        resolved = resolved.model_copy(update={"layer": layer_of(info.package, info.name, layers)})
        classes.append(resolved)
        edges.update(resolver.static_import_edges(resolved))
    return classes, [Edge(source=s, target=t, kind=k) for s, t, k in sorted(edges)]


class _Resolver:
    """Java's scoping rules for simple and qualified type names, cached per (owner, name)."""

    def __init__(self, facts: FileFacts, symbols: Collection[str]) -> None:
        self.symbols = symbols
        self.package = facts.package
        self.single: dict[str, str] = {}
        self.wildcards: list[str] = []
        self.static_members: dict[str, str] = {}
        self.static_wildcards: list[str] = []
        for item in facts.imports:
            if item.static:
                owner, _, member = item.name.rpartition(".")
                if item.wildcard:
                    self.static_wildcards.append(item.name)
                else:
                    self.static_members[member] = owner
            elif item.wildcard:
                self.wildcards.append(item.name)
            else:
                self.single.setdefault(item.name.rsplit(".", 1)[-1], item.name)
        self.outer = {c.fqn: c.outer for c in facts.classes}
        self.type_params = facts.type_parameters
        self.top_level = [c.fqn for c in facts.classes if c.outer is None]
        self._cache: dict[tuple[str, str], tuple[str | None, bool]] = {}

    def _scopes(self, owner: str) -> Iterable[str]:
        scope: str | None = owner
        while scope is not None:
            yield scope
            scope = self.outer.get(scope)

    def resolve(self, name: str, owner: str) -> tuple[str | None, bool]:
        key = (owner, name)
        if key not in self._cache:
            self._cache[key] = self._resolve(name, owner)
        return self._cache[key]

    def _resolve(self, name: str, owner: str) -> tuple[str | None, bool]:
        if name in _PRIMITIVES:
            return None, False
        segments = name.split(".")
        head = segments[0]
        if any(head in self.type_params.get(scope, ()) for scope in self._scopes(owner)):
            return None, False
        fqn = self._head(head, owner)
        rest = segments[1:]
        if fqn is None and len(segments) > 1:
            for end in range(len(segments), 0, -1):
                candidate = ".".join(segments[:end])
                if candidate in self.symbols:
                    fqn, rest = candidate, segments[end:]
                    break
            else:
                return (name if head[:1].islower() else None), False
        if fqn is None:
            return None, False
        for segment in rest:
            candidate = f"{fqn}.{segment}"
            if fqn in self.symbols and candidate not in self.symbols:
                break  # a static member of a repo type, not a nested type
            if fqn not in self.symbols and not segment[:1].isupper():
                break
            fqn = candidate
        return fqn, fqn in self.symbols

    def _head(self, head: str, owner: str) -> str | None:
        for scope in self._scopes(owner):
            candidate = f"{scope}.{head}"
            if candidate in self.symbols:
                return candidate
            if scope.rsplit(".", 1)[-1] == head:
                return scope
        if head in self.single:
            return self.single[head]
        same_package = f"{self.package}.{head}" if self.package else head
        if same_package in self.symbols:
            return same_package
        for prefix in self.wildcards:
            candidate = f"{prefix}.{head}"
            if candidate in self.symbols:
                return candidate
        return external_fqn(head, self.wildcards)

    def ref_resolver(self, owner: str) -> Callable[[TypeRef], TypeRef]:
        def resolve_ref(ref: TypeRef) -> TypeRef:
            fqn, in_repo = self.resolve(ref.name, owner)
            arguments = tuple(resolve_ref(a) for a in ref.arguments)
            if fqn == ref.fqn and in_repo == ref.in_repo and arguments == ref.arguments:
                return ref
            return ref.model_copy(update={"fqn": fqn, "in_repo": in_repo, "arguments": arguments})

        return resolve_ref

    def static_import_edges(self, info: ClassInfo) -> set[tuple[str, str, EdgeKind]]:
        """Calls to statically imported methods depend on the type that declares them."""
        edges: set[tuple[str, str, EdgeKind]] = set()
        if info.outer is not None:
            return edges
        targets = {self.static_members[c.method] for m in (*info.methods, *info.constructors) for c in m.calls
                   if c.receiver_kind == "none" and c.method in self.static_members}
        targets.update(prefix.rpartition(".")[0] for prefix in self.static_wildcards)
        targets.update(self.static_wildcards)
        for target in targets:
            fqn, in_repo = self.resolve(target, info.fqn)
            if in_repo and fqn is not None and fqn != info.fqn:
                edges.add((info.fqn, fqn, EdgeKind.STATIC_CALL))
        return edges


def _resolve_class(info: ClassInfo, resolve_ref: Callable[[TypeRef], TypeRef]) -> ClassInfo:
    def annotations(items: tuple[AnnotationInfo, ...]) -> tuple[AnnotationInfo, ...]:
        return tuple(a.model_copy(update={"fqn": resolve_ref(TypeRef(text=a.name, name=a.name)).fqn}) for a in items)

    def params(items: tuple[ParameterInfo, ...]) -> tuple[ParameterInfo, ...]:
        return tuple(p.model_copy(update={"type": resolve_ref(p.type), "annotations": annotations(p.annotations)})
                     for p in items)

    def call(site: CallSite) -> CallSite:
        if site.receiver_type is None:
            return site
        return site.model_copy(update={"receiver_type": resolve_ref(site.receiver_type)})

    def method(m: MethodInfo) -> MethodInfo:
        return m.model_copy(update={
            "parameters": params(m.parameters),
            "return_type": resolve_ref(m.return_type) if m.return_type is not None else None,
            "throws": tuple(resolve_ref(t) for t in m.throws),
            "annotations": annotations(m.annotations),
            "calls": tuple(call(c) for c in m.calls),
            "creates": tuple(resolve_ref(t) for t in m.creates),
        })

    return info.model_copy(update={
        "annotations": annotations(info.annotations),
        "extends": tuple(resolve_ref(t) for t in info.extends),
        "implements": tuple(resolve_ref(t) for t in info.implements),
        "fields": tuple(f.model_copy(update={"type": resolve_ref(f.type), "annotations": annotations(f.annotations)})
                        for f in info.fields),
        "constructors": tuple(method(m) for m in info.constructors),
        "methods": tuple(method(m) for m in info.methods),
        "record_components": params(info.record_components),
    })

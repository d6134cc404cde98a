"""Resolve the type names of one file against the repo's types: edges, and ClassInfo with FQNs (pure).

Two phases. Phase one finds each type's repo supertypes; it depends only on the file's facts and on
which FQNs exist. Phase two (edges, ClassInfo) also looks up member types inherited from supertypes.
A name can only resolve to an FQN whose last segment is one of the name's segments, so when types
appear or disappear only files using one of their simple names need resolving again (`names_used`);
and a file that found a name through a type's supertypes records that type (`consulted`), so it is
resolved again when those supertypes change. Phase two also resolves the file's call samples (literal-only
arguments of calls on repo types, `samples.py`) into text that names types by simple name, with their FQNs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from junitbot.analysis.jdk import external_fqn
from junitbot.analysis.models import (
    AnnotationInfo,
    CallSample,
    ClassInfo,
    Edge,
    EdgeKind,
    FileFacts,
    MethodInfo,
    ParameterInfo,
    RawArgument,
    SampleArgument,
    TypeRef,
)
from junitbot.analysis.samples import CONSTRUCTOR

_PRIMITIVES = {"int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var", "?"}
_WIDTH = {"byte": 0, "short": 1, "char": 1, "int": 2, "long": 3, "float": 4, "double": 5}
_CAST = re.compile(r"\((\w+)\) ")
# Number literals in an argument's text (char literals are not: they promote to int).
_NUMBER_TOKEN = re.compile(r"(?<![\w.'])(?:0[xX][0-9a-fA-F_.]+(?:[pP][-+]?\d+)?|\d[\d_]*\.?[\d_]*(?:[eE][-+]?\d+)?|"
                           r"\.\d[\d_]*(?:[eE][-+]?\d+)?)[lLfFdD]?")
_STRING = "java.lang.String"
_Resolve = Callable[[str, str], tuple[str | None, bool]]  # (name as written, owner) -> (FQN, in the repo)


def names_used(facts: FileFacts) -> set[str]:
    """Every name segment this file's resolution could depend on."""
    names: set[str] = set()
    for ref in facts.refs:
        names.update(ref.name.split("."))
    for item in facts.imports:
        names.update(item.name.split("."))
    return names


def resolve_supertypes(facts: FileFacts, symbols: Collection[str]) -> dict[str, tuple[str, ...]]:
    """Phase one: the repo supertypes of each type in the file (inherited member types are not used here)."""
    resolver = _Resolver(facts, symbols, supertypes={})
    result: dict[str, tuple[str, ...]] = {}
    for info in facts.classes:
        supers = (resolver.resolve(ref.name, info.fqn) for ref in (*info.extends, *info.implements))
        result[info.fqn] = tuple(fqn for fqn, in_repo in supers if in_repo and fqn is not None and fqn != info.fqn)
    return result


def resolve_edges(
    facts: FileFacts, symbols: Collection[str], *, supertypes: Mapping[str, Sequence[str]]
) -> tuple[list[Edge], set[str]]:
    """Phase two: the edges between repo types this file adds, and the types whose supertypes were read.

    `supertypes` (phase one over the whole repo) lets names resolve to member types inherited from
    supertypes declared in other files.
    """
    resolver = _Resolver(facts, symbols, supertypes=supertypes)
    edges: set[tuple[str, str, EdgeKind]] = set()
    for ref in facts.refs:
        fqn, in_repo = resolver.resolve(ref.name, ref.owner)
        if in_repo and fqn is not None and fqn != ref.owner:
            edges.add((ref.owner, fqn, ref.kind))
    return [Edge(source=s, target=t, kind=k) for s, t, k in sorted(edges)], resolver.consulted


def resolve_samples(
    facts: FileFacts, symbols: Collection[str], *, supertypes: Mapping[str, Sequence[str]]
) -> tuple[list[CallSample], set[str]]:
    """Phase two for the file's call samples: those calling a repo type, with FQNs; and the types whose
    supertypes were read (as `resolve_edges` reports them)."""
    resolver = _Resolver(facts, symbols, supertypes=supertypes)
    return _resolved_samples(facts, resolver.resolve), resolver.consulted


def resolve_classes(
    facts: FileFacts, symbols: Collection[str], *, supertypes: Mapping[str, Sequence[str]]
) -> list[ClassInfo]:
    """The file's ClassInfo with every TypeRef resolved; done on demand, for the few classes asked about."""
    resolver = _Resolver(facts, symbols, supertypes=supertypes)
    return [_resolve_class(info, resolver) for info in facts.classes]


class _Resolver:
    """Java's scoping rules for simple and qualified type names, cached per (owner, name)."""

    def __init__(
        self, facts: FileFacts, symbols: Collection[str], *, supertypes: Mapping[str, Sequence[str]]
    ) -> None:
        self.symbols = symbols
        self.supertypes = supertypes
        self.consulted: set[str] = set()
        self.package = facts.package
        self.single: dict[str, str] = {}
        self.wildcards: list[str] = []
        for item in facts.imports:
            if item.static and not item.wildcard:
                # `import static a.Outer.Inner;` imports a member type too.
                self.single.setdefault(item.name.rsplit(".", 1)[-1], item.name)
            elif item.wildcard and not item.static:
                self.wildcards.append(item.name)
            elif not item.static:
                self.single[item.name.rsplit(".", 1)[-1]] = item.name
        self.outer = {c.fqn: c.outer for c in facts.classes}
        self.type_params = facts.type_parameters
        self._cache: dict[tuple[str, str, tuple[str, ...]], tuple[str | None, bool]] = {}

    def _scopes(self, owner: str) -> Iterable[str]:
        scope: str | None = owner
        while scope is not None:
            yield scope
            scope = self.outer.get(scope)

    def resolve(self, name: str, owner: str, hidden: tuple[str, ...] = ()) -> tuple[str | None, bool]:
        """`name` as seen from inside `owner`; `hidden` are extra type variables in scope (a method's)."""
        key = (owner, name, hidden)
        if key not in self._cache:
            self._cache[key] = self._resolve(name, owner, hidden)
        return self._cache[key]

    def _resolve(self, name: str, owner: str, hidden: tuple[str, ...]) -> tuple[str | None, bool]:
        if name in _PRIMITIVES:
            return None, False
        segments = name.split(".")
        head = segments[0]
        if head in hidden or any(head in self.type_params.get(scope, ()) for scope in self._scopes(owner)):
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
            if fqn in self.symbols:
                member = f"{fqn}.{segment}"
                found = member if member in self.symbols else self._inherited(fqn, segment)
                if found is None:
                    break  # a static member of a repo type, not a nested type
                fqn = found
            elif segment[:1].isupper():
                fqn = f"{fqn}.{segment}"
            else:
                break
        return fqn, fqn in self.symbols

    def _head(self, head: str, owner: str) -> str | None:
        for scope in self._scopes(owner):
            candidate = f"{scope}.{head}"
            if candidate in self.symbols:
                return candidate
            inherited = self._inherited(scope, head)
            if inherited is not None:
                return inherited
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

    def _inherited(self, scope: str, name: str) -> str | None:
        """A member type `name` that `scope` inherits from its supertypes, nearest first."""
        seen = {scope}
        frontier = [scope]
        while frontier:
            following: list[str] = []
            for current in frontier:
                self.consulted.add(current)
                for parent in self.supertypes.get(current, ()):
                    if parent in seen:
                        continue
                    seen.add(parent)
                    candidate = f"{parent}.{name}"
                    if candidate in self.symbols:
                        return candidate
                    following.append(parent)
            frontier = following
        return None


def _resolve_class(info: ClassInfo, resolver: _Resolver) -> ClassInfo:
    def ref_resolver(hidden: tuple[str, ...]) -> Callable[[TypeRef], TypeRef]:
        def resolve_ref(ref: TypeRef) -> TypeRef:
            fqn, in_repo = resolver.resolve(ref.name, info.fqn, hidden)
            arguments = tuple(resolve_ref(a) for a in ref.arguments)
            if fqn == ref.fqn and in_repo == ref.in_repo and arguments == ref.arguments:
                return ref
            return ref.model_copy(update={"fqn": fqn, "in_repo": in_repo, "arguments": arguments})

        return resolve_ref

    resolve_ref = ref_resolver(())

    def annotations(items: tuple[AnnotationInfo, ...]) -> tuple[AnnotationInfo, ...]:
        return tuple(a.model_copy(update={"fqn": resolve_ref(TypeRef(text=a.name, name=a.name)).fqn}) for a in items)

    def params(items: tuple[ParameterInfo, ...], resolve: Callable[[TypeRef], TypeRef]) -> tuple[ParameterInfo, ...]:
        return tuple(p.model_copy(update={"type": resolve(p.type), "annotations": annotations(p.annotations)})
                     for p in items)

    def method(m: MethodInfo) -> MethodInfo:
        # A generic method's own type variables hide repo types of the same name inside it.
        resolve = ref_resolver(m.type_parameters) if m.type_parameters else resolve_ref
        calls = tuple(c if c.receiver_type is None else c.model_copy(update={"receiver_type": resolve(c.receiver_type)})
                      for c in m.calls)
        return m.model_copy(update={
            "parameters": params(m.parameters, resolve),
            "return_type": resolve(m.return_type) if m.return_type is not None else None,
            "throws": tuple(resolve(t) for t in m.throws),
            "annotations": annotations(m.annotations),
            "calls": calls,
            "creates": tuple(resolve(t) for t in m.creates),
            "type_bounds": tuple(b.model_copy(update={"bound": resolve(b.bound)}) for b in m.type_bounds),
        })

    return info.model_copy(update={
        "annotations": annotations(info.annotations),
        "extends": tuple(resolve_ref(t) for t in info.extends),
        "implements": tuple(resolve_ref(t) for t in info.implements),
        "permits": tuple(resolve_ref(t) for t in info.permits),
        "fields": tuple(f.model_copy(update={"type": resolve_ref(f.type), "annotations": annotations(f.annotations)})
                        for f in info.fields),
        "constructors": tuple(method(m) for m in info.constructors),
        "methods": tuple(method(m) for m in info.methods),
        "record_components": params(info.record_components, resolve_ref),
        "type_bounds": tuple(b.model_copy(update={"bound": resolve_ref(b.bound)}) for b in info.type_bounds),
    })


def _resolved_samples(facts: FileFacts, resolve: _Resolve) -> list[CallSample]:
    found: list[CallSample] = []
    for raw in facts.call_samples:
        callee, in_repo = resolve(raw.type_name, raw.type_owner or raw.owner)
        if callee is None or not in_repo:
            continue
        names: dict[str, str] = {}
        arguments = [_resolved(a, raw.owner, resolve, names) for a in raw.arguments]
        if any(a is None for a in arguments):
            continue
        found.append(CallSample(callee=callee, member=raw.member, arity=len(arguments),
                                arguments=tuple(a for a in arguments if a is not None), file=facts.path,
                                line=raw.line, in_test=facts.is_test, throws=raw.throws))
    return found


def _resolved(argument: RawArgument, owner: str, resolve: _Resolve, names: dict[str, str]) -> SampleArgument | None:
    """One argument as text naming types by simple name; None when a name does not resolve or two clash."""
    if argument.type_name is None:
        return SampleArgument(kind=argument.kind, text=argument.text, java_type=_literal_type(argument))
    scope = argument.owner or owner
    fqn, _ = resolve(argument.type_name, scope)
    if fqn is None:
        return None
    simple = fqn.rsplit(".", 1)[-1]
    if names.setdefault(simple, fqn) != fqn:
        return None  # `a.Money` and `b.Money` in one sample: the text could not say which is which
    if argument.kind == "constant":
        return SampleArgument(kind="constant", text=f"{simple}.{argument.text}", java_type=fqn, imports=(fqn,),
                              uses=(f"{fqn}.{argument.text}",))
    imports, uses = {fqn}, {f"{fqn}.{argument.member}/{len(argument.arguments)}"}
    texts = []
    for inner in argument.arguments:
        resolved = _resolved(inner, scope, resolve, names)
        if resolved is None:
            return None
        texts.append(resolved.text)
        imports.update(resolved.imports)
        uses.update(resolved.uses)
    joined = ", ".join(texts)
    text = f"new {simple}({joined})" if argument.member == CONSTRUCTOR else f"{simple}.{argument.member}({joined})"
    return SampleArgument(kind="call", text=text, java_type=fqn, imports=tuple(sorted(imports)),
                          uses=tuple(sorted(uses)))



def _literal_type(argument: RawArgument) -> str | None:
    """The static type of a literal argument: `java.lang.String`, `char`, `boolean`, None for null, and for a
    number the cast's type or the widest of its literals' (`60 * 1000L` long; `'a' + 1` int)."""
    if argument.kind in ("string", "boolean", "null"):
        return {"string": _STRING, "boolean": "boolean", "null": None}[argument.kind]
    cast = _CAST.match(argument.text)
    if cast is not None:
        return cast.group(1)
    if argument.kind == "char":
        return "char"
    widest = max((_number_type(n) for n in _NUMBER_TOKEN.findall(argument.text)), key=_WIDTH.__getitem__,
                 default="int")
    return widest if _WIDTH[widest] >= _WIDTH["int"] else "int"


def _number_type(text: str) -> str:
    """The static type of a Java number literal: `1` int, `1L` long, `1.5f` float, `1.5`/`1e3`/`1d` double."""
    lowered = text.lower().replace("_", "")
    if lowered.startswith("0x"):
        return "long" if lowered.endswith("l") else ("double" if "p" in lowered else "int")
    if lowered.endswith("l"):
        return "long"
    if lowered.endswith("f"):
        return "float"
    if lowered.endswith("d") or "." in lowered or "e" in lowered:
        return "double"
    return "int"

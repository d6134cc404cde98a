"""Mined arguments: what the repository itself passes to a constructor, factory or method, fitted to it (pure).

The code graph fills `MethodInfo.samples` with the literal-only argument lists the repository's main code and
tests pass to that member, most frequent first (`Sku.of("TOOL-000123")`, `new RestockPolicy(20, 100, 25)`).
Those are values the member accepts, where made-up ones ("text", 1) often fail its validation (issue 14). A
sample is used only where it compiles in the test: each argument fits its parameter by Java's invocation
rules (a literal widens or boxes to it; a constant or nested call names the parameter's type or a repo subtype
of it), every repo type and member it names is accessible from the test's package, and no check of the member
with a known outcome rejects it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from junitbot.analysis import CallSample, ClassInfo, MethodInfo, ParameterInfo, SampleArgument, TypeRef
from junitbot.generation.javatypes import PRIMITIVES, bind, is_type_variable, resolved_fqn
from junitbot.generation.template.access import ClassLookup, accessible, visible
from junitbot.generation.template.constraints import rejects
from junitbot.generation.template.jdk_values import BOXES

Namer = Callable[[str], str]
"""How the test writes a type named by FQN (through its ImportSet)."""

_WIDENING = {
    "byte": ("byte", "short", "int", "long", "float", "double"),
    "short": ("short", "int", "long", "float", "double"),
    "char": ("char", "int", "long", "float", "double"),
    "int": ("int", "long", "float", "double"),
    "long": ("long", "float", "double"),
    "float": ("float", "double"),
    "double": ("double",),
    "boolean": ("boolean",),
}
_BOXED = {primitive: box for box, primitive in BOXES.items()}
_ANY_REFERENCE = frozenset({"java.lang.Object", "java.io.Serializable"})
_STRING_TARGETS = frozenset({"java.lang.String", "java.lang.CharSequence", "java.lang.Comparable"}) | _ANY_REFERENCE
_NUMBER = "java.lang.Number"
# String and char literals first (so names inside them stay as written), then identifiers not after a dot.
_TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|(?<![\w.$])[A-Za-z_$][\w$]*')


def usable_samples(
    member: MethodInfo, owner: ClassInfo, *, lookup: ClassLookup, package: str,
    bindings: Mapping[str, TypeRef] | None = None, throws: bool = False,
) -> list[CallSample]:
    """The samples of `member` (of `owner`) a test in `package` can pass, most frequent first. `throws` asks for
    those expected-exception assertions pass instead: arguments the member rejects (no check filters them)."""
    if not member.samples or not accessible(member, owner, package=package):
        return []
    return [sample for sample in member.samples
            if sample.throws == throws
            and usable(sample, member.parameters, lookup=lookup, package=package, bindings=bindings or {})
            and (throws or not _rejected(sample, member))]


def ranked_samples(
    owner: ClassInfo, members: Sequence[MethodInfo], *, lookup: ClassLookup, package: str,
    bindings: Mapping[str, TypeRef] | None = None,
) -> list[tuple[CallSample, MethodInfo]]:
    """The usable samples of several members of `owner` (its constructors and factories), most frequent first;
    ties keep the members' order."""
    found = [(sample, member) for member in members
             for sample in usable_samples(member, owner, lookup=lookup, package=package, bindings=bindings)]
    return sorted(found, key=lambda pair: -pair[0].count)


def render_arguments(sample: CallSample, name: Namer) -> list[str]:
    """One Java text per argument, names written through `name`."""
    return [render(argument, name) for argument in sample.arguments]


def usable(sample: CallSample, params: Sequence[ParameterInfo], *, lookup: ClassLookup, package: str,
           bindings: Mapping[str, TypeRef]) -> bool:
    """Whether the sample's arguments fit `params` and name only what code in `package` may use."""
    if len(params) != len(sample.arguments) and not (params and params[-1].varargs
                                                   and len(sample.arguments) > len(params)):
        return False
    return all(fits(argument, param.type, lookup=lookup, bindings=bindings)
               and _accessible_uses(argument, lookup=lookup, package=package)
               for argument, param in zip(sample.arguments, parameter_of_each(params, sample), strict=True))


def parameter_of_each(params: Sequence[ParameterInfo], sample: CallSample) -> list[ParameterInfo]:
    """The parameter each argument of the sample fills: the values past the fixed ones fill the varargs (its type
    is the element's)."""
    return [params[min(index, len(params) - 1)] for index in range(len(sample.arguments))]


def fits(argument: SampleArgument, ref: TypeRef, *, lookup: ClassLookup, bindings: Mapping[str, TypeRef]) -> bool:
    """Whether Java passes the argument to a parameter of type `ref` (type variables read as their bindings)."""
    if is_type_variable(ref, bindings):
        ref = bind(ref, bindings)[0]
    if ref.array:
        return argument.kind == "null"
    primitive = ref.name if ref.name in PRIMITIVES and ref.fqn is None else None
    if argument.kind == "null":
        return primitive is None
    target = primitive or resolved_fqn(ref)
    if target is None:
        return False
    given = argument.java_type
    if given is None:
        return False
    if given in _WIDENING:
        return _primitive_fits(given, target)
    if given == "java.lang.String":
        return target in _STRING_TARGETS
    if primitive is not None:
        unboxed = BOXES.get(given)
        return unboxed is not None and primitive in _WIDENING[unboxed]
    return given == target or target in _ANY_REFERENCE or target in supertypes(given, lookup)


def render(argument: SampleArgument, name: Namer) -> str:
    """The argument's text with each type it names written as the test file names it."""
    if not argument.imports:
        return argument.text
    simple = {fqn.rsplit(".", 1)[-1]: fqn for fqn in argument.imports}

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        fqn = simple.get(token)
        return name(fqn) if fqn is not None else token

    return _TOKENS.sub(replace, argument.text)


def _primitive_fits(given: str, target: str) -> bool:
    """A literal of primitive type `given` to a parameter `target` (a primitive name or an FQN)."""
    if target in _WIDENING:
        return target in _WIDENING[given]
    box = _BOXED.get(given)
    return target == box or target in _ANY_REFERENCE or (target == _NUMBER and given not in ("char", "boolean")) or (
        target == "java.lang.Comparable" and box is not None)


def supertypes(fqn: str, lookup: ClassLookup) -> set[str]:
    """The repo type's supertypes the graph resolved, transitively (none for a type outside the repo)."""
    found: set[str] = set()
    pending = [fqn]
    while pending:
        info = lookup(pending.pop())
        if info is None:
            continue
        for ref in (*info.extends, *info.implements):
            parent = resolved_fqn(ref)
            if parent is not None and parent not in found:
                found.add(parent)
                pending.append(parent)
    return found


def _accessible_uses(argument: SampleArgument, *, lookup: ClassLookup, package: str) -> bool:
    """Whether code in `package` may name the repo types and use the members the argument's text does."""
    for fqn in argument.imports:
        info = lookup(fqn)
        if info is not None and not visible(info, package=package, lookup=lookup):
            return False
    for use in argument.uses:
        owner, _, member = use.partition("/")[0].rpartition(".")
        info = lookup(owner)
        if info is None:
            continue  # a JDK or library type: its public API is what compiled there
        if "/" in use:
            arity = int(use.rpartition("/")[2])
            members = info.constructors if member == "<init>" else [m for m in info.methods if m.name == member]
            if not any(len(m.parameters) == arity and accessible(m, info, package=package) for m in members):
                return False
        elif member not in info.enum_constants and not any(
                f.name == member and "private" not in f.modifiers
                and ("public" in f.modifiers or info.package == package or info.kind.value == "interface")
                for f in info.fields):
            return False
    return True


def _rejected(sample: CallSample, member: MethodInfo) -> bool:
    """Whether a check of the member with a known outcome throws for one of the sample's literals."""
    checks = member.compared_literals
    return bool(checks) and any(
        rejects(param.type, param.name, checks, argument.text)
        for argument, param in zip(sample.arguments, parameter_of_each(member.parameters, sample), strict=True)
        if argument.kind in ("string", "char", "number", "null"))

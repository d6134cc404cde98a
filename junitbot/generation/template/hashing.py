"""Whether a class's own `hashCode` gives the same number in every JVM, so that a test may assert it (pure).

A `hashCode` that returns 0 passes every test that only compares the hash codes of equal objects: commons-text's
AlphabetConverter hashes its two maps and a length with `Objects.hash`, and its suite never asserts the number, so
`return 0` survives it. A hash built only from texts, numbers and collections of them is specified by the JDK
(`String.hashCode`, `List.hashCode`, ...) and is the same in every run; one that reaches an enum, an array, a
`Currency` or any object without its own `hashCode` mixes in an identity hash, which differs from run to run, and
is never asserted.
"""

from __future__ import annotations

from junitbot.analysis import ClassInfo, MethodInfo, TypeRef
from junitbot.analysis.models import TypeKind
from junitbot.generation.javatypes import PRIMITIVES, resolved_fqn
from junitbot.generation.template.access import ClassLookup

# JDK types whose hashCode the JDK specifies from their value.
_VALUE_TYPES = frozenset({
    "java.lang.String", "java.lang.Integer", "java.lang.Long", "java.lang.Short", "java.lang.Byte",
    "java.lang.Character", "java.lang.Boolean", "java.lang.Double", "java.lang.Float",
    "java.math.BigDecimal", "java.math.BigInteger",
    "java.time.LocalDate", "java.time.LocalTime", "java.time.LocalDateTime", "java.time.Instant",
    "java.time.Duration", "java.time.Period", "java.time.YearMonth", "java.time.Year", "java.time.MonthDay",
})
# Collections whose hashCode the JDK specifies from their elements (List, Set, Map, Optional, Map.Entry).
_CONTAINERS = frozenset({
    "java.util.List", "java.util.ArrayList", "java.util.LinkedList", "java.util.Set", "java.util.HashSet",
    "java.util.LinkedHashSet", "java.util.SortedSet", "java.util.TreeSet", "java.util.NavigableSet",
    "java.util.Map", "java.util.HashMap", "java.util.LinkedHashMap", "java.util.SortedMap", "java.util.TreeMap",
    "java.util.NavigableMap", "java.util.Optional", "java.util.Map.Entry",
})
# How deep the repository's own field types are followed (a Money holds a BigMoney holds a CurrencyUnit).
_DEPTH = 3


def stable_hash(subject: ClassInfo, lookup: ClassLookup) -> bool:
    """Whether `subject` declares a `hashCode` whose number is the same in every JVM: a class of its own (no
    superclass's hash mixed in), whose instance fields are all of such types, and whose `hashCode` asks for no
    identity hash."""
    declared = _declared_hash_code(subject)
    if declared is None or any(c.method == "identityHashCode" or (c.method == "hashCode" and c.receiver == "super")
                               for c in declared.calls):
        return False
    return _stable_fields(subject, lookup, _DEPTH)


def _declared_hash_code(info: ClassInfo) -> MethodInfo | None:
    """The `hashCode()` the class's own source declares (not a record's or Lombok's generated one)."""
    return next((m for m in info.methods if m.name == "hashCode" and not m.parameters and m.has_body
                 and m.synthetic is None), None)


def _stable_fields(info: ClassInfo, lookup: ClassLookup, depth: int) -> bool:
    if info.kind not in (TypeKind.CLASS, TypeKind.RECORD) or info.extends or info.type_parameters:
        return False
    if info.kind is TypeKind.RECORD:
        return all(_stable(c.type, lookup, depth) for c in info.record_components)
    fields = [f for f in info.fields if "static" not in f.modifiers and "transient" not in f.modifiers]
    return bool(fields) and all(_stable(f.type, lookup, depth) for f in fields)


def _stable(ref: TypeRef, lookup: ClassLookup, depth: int) -> bool:
    if ref.array:
        return False  # `Objects.hash(array)` hashes the array's identity
    if ref.name in PRIMITIVES and ref.fqn is None:
        return True
    fqn = resolved_fqn(ref)
    if fqn is None:
        return False
    if fqn in _VALUE_TYPES:
        return True
    if fqn in _CONTAINERS:
        return bool(ref.arguments) and all(_stable(a, lookup, depth) for a in ref.arguments)
    if not ref.in_repo or depth <= 0:
        return False
    info = lookup(fqn)
    if info is None:
        return False
    # A record's own hash combines its components as the JDK at hand chooses: only a declared one is asserted.
    return _declared_hash_code(info) is not None and _stable_fields(info, lookup, depth - 1)

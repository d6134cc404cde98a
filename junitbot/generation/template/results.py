"""Sequences that go on through what a call returned: the object a builder's `get()` made, used (pure).

Randoop extends a sequence with any object its calls produced. A call that returned an object of another repository
class (`builder.get()` → a `Base32`) is asserted only as "not null" on its own; what the object does tells whether
the calls before it configured it right (issue 29 item 6: a builder setter that set the wrong table changes what
the codec it builds encodes, not whether it builds one). So the object is kept in a local and the methods a user
of it calls (its own and those it inherits, one per name, those that return something first; a few per object, so
that each differently configured object gets its share) are called on it with the arguments their scenarios would
start with: `Base32 base32 = builder.get(); base32.encode(data)`, named after the calls before it
(`encode_afterGet`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from junitbot.analysis import ClassInfo, MethodInfo, TypeKind
from junitbot.generation.template.bodies import accidental
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.observations import Observation
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.scenarios import scenarios_for, testable_methods
from junitbot.generation.template.sequences import DECLARED, joined_names
from junitbot.generation.template.subtypes import Receiver

MAX_PER_CLASS = 16  # calls on returned objects, per class under test
MAX_STARTS = 4  # returned objects used, per class under test
PER_START = 4  # calls on one returned object: each object configured otherwise gets its share


def result_calls(context: ClassContext, scenarios: Sequence[Scenario], observations: Mapping[str, Observation], *,
                 prefix: str) -> list[Scenario]:
    """Calls of the public instance methods of each object of another repository class a scenario returned, made on
    that object kept in a local; one scenario per method (its first arguments), at most MAX_PER_CLASS."""
    found: list[Scenario] = []
    starts = 0
    used: set[tuple[tuple[str, ...], str]] = set()
    for start in scenarios:
        made = _made(context, start, observations.get(start.id))
        after = (*start.after, start.method)
        if made is None or (after, made.fqn) in used or starts >= MAX_STARTS:
            continue
        used.add((after, made.fqn))
        starts += 1
        local = _local_name(made.name, start)
        declared = f"{context.imports.name(made.fqn, package=made.package)} {local} = {start.call};"
        other = ClassContext(context.module, made, context.imports, {})
        receiver = Receiver(local, arrange=(*start.arrange, declared))
        mine = 0
        for number, method in enumerate(_used_api(context, made)):
            if mine >= PER_START or len(found) >= MAX_PER_CLASS:
                break
            first = scenarios_for(other, method, receiver, prefix=f"{prefix}_{starts}m{number}")[:1]
            mine += len(first)
            found += [s.model_copy(update={"id": f"{prefix}_{len(found) + i}", "hint": "after" + joined_names(after),
                                           "after": after}) for i, s in enumerate(first)]
    return found[:MAX_PER_CLASS]


def _used_api(context: ClassContext, made: ClassInfo) -> list[MethodInfo]:
    """The instance methods a user of `made` calls, one per name (its overload of fewest parameters): its own, then
    the public ones it inherits from repository superclasses that are not generic (a `Base32` encodes through
    `BaseNCodec.encode(byte[])`); those that return something first, then those of fewer parameters."""
    found: dict[str, MethodInfo] = {}
    info: ClassInfo | None = made
    seen: set[str] = set()
    while info is not None and info.fqn not in seen:
        seen.add(info.fqn)
        for method in testable_methods(info):
            if "static" in method.modifiers or (info is not made and "public" not in method.modifiers):
                continue
            known = found.get(method.name)
            if known is None or len(method.parameters) < len(known.parameters):
                found[method.name] = method
        parent = next((p for p in info.extends if p.in_repo and p.fqn), None)
        info = context.lookup(parent.fqn) if parent is not None and parent.fqn else None
        if info is not None and info.type_parameters:
            break
    return sorted(found.values(), key=lambda m: (m.return_type is None or m.return_type.text == "void",
                                                 len(m.parameters)))


def _made(context: ClassContext, start: Scenario, observed: Observation | None) -> ClassInfo | None:
    """The repository class (its ClassInfo) of the object `start` returned, where it is another concrete class a
    test may name and build on; None otherwise."""
    if (observed is None or observed.outcome != "returned" or observed.value is None or start.constructor
            or accidental(start, observed) or observed.itself or start.returns_void):
        return None
    value = observed.value
    fqn = (value.cls or "").replace("$", ".")
    info = context.lookup(fqn) if fqn else None
    if (info is None or fqn == context.subject.fqn or info.kind not in (TypeKind.CLASS, TypeKind.RECORD)
            or not context.nameable(fqn) or value.t == "null"):
        return None
    return info


def _local_name(simple: str, start: Scenario) -> str:
    """The object's local: its class's name in lower camel case, unless the scenario already declares one so."""
    taken = {m[1] for line in start.arrange if (m := DECLARED.match(line)) is not None}
    name = simple[:1].lower() + simple[1:]
    return name if name not in taken and name != start.subject else f"{name}Built"

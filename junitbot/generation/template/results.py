"""Sequences that go on through what a call returned: the object a builder's `get()` made, used (pure).

Randoop extends a sequence with any object its calls produced. A call that returned an object of another repository
class (`builder.get()` → a `Base32`) is asserted only as "not null" on its own; what the object does tells whether
the calls before it configured it right (issue 29 item 6: a builder setter that set the wrong table changes what
the codec it builds encodes, not whether it builds one). So the object is kept in a local and each of its public
instance methods is called on it with the arguments its scenarios would start with:
`Base32 base32 = builder.get(); base32.encode(data)`, named after the calls before it (`encode_afterGet`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from junitbot.analysis import ClassInfo, TypeKind
from junitbot.generation.template.bodies import accidental
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.observations import Observation
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.scenarios import scenarios_for, testable_methods
from junitbot.generation.template.sequences import DECLARED, joined_names
from junitbot.generation.template.subtypes import Receiver

MAX_PER_CLASS = 12  # calls on returned objects, per class under test
MAX_STARTS = 4  # returned objects used, per class under test


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
        for number, method in enumerate(testable_methods(made)):
            if "static" in method.modifiers or len(found) >= MAX_PER_CLASS:
                continue
            first = scenarios_for(other, method, receiver, prefix=f"{prefix}_{starts}m{number}")[:1]
            found += [s.model_copy(update={"id": f"{prefix}_{len(found) + i}", "hint": "after" + joined_names(after),
                                           "after": after}) for i, s in enumerate(first)]
    return found[:MAX_PER_CLASS]


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

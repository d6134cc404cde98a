"""Which members of a class reach a behaviour through the class's own calls (`registerCurrency(4 args)` → its
5-argument overload, `wrap(str, 1)` → `wrap(str, 1, null, false)`)."""

from __future__ import annotations

from collections.abc import Iterable

from junitbot.analysis import ClassInfo


def members_reaching(subject: ClassInfo, names: Iterable[str]) -> frozenset[str]:
    """`names` and the names of the class's members (methods and constructors) that call, directly or through other
    members of the class, one named so. Overloads share a name, so they reach what one of them does."""
    members = (*subject.methods, *subject.constructors)
    reaching = set(names)
    while more := {member.name for member in members if member.name not in reaching and any(
            call.method in reaching and call.receiver_kind in ("none", "this", "type") for call in member.calls)}:
        reaching |= more
    return frozenset(reaching)

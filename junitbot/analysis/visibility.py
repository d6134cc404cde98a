"""Which types other files can see: a type is hidden when it or any type around it is private (pure)."""

from __future__ import annotations

from collections.abc import Callable

from junitbot.analysis.models import ClassInfo


def type_visible(info: ClassInfo, lookup: Callable[[str], ClassInfo | None]) -> bool:
    """A type other files can see: neither it nor any type around it (found with `lookup`) is private."""
    current: ClassInfo | None = info
    while current is not None:
        if "private" in current.modifiers:
            return False
        current = lookup(current.outer) if current.outer else None
    return True

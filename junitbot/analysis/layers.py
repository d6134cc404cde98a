"""DDD layer of a type from configurable rules on package segments and name suffixes (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.config import LayerRule


def layer_of(package: str, name: str, rules: Sequence[LayerRule]) -> str | None:
    """The first rule naming one of the package's segments wins; then the first matching suffix."""
    segments = set(package.split("."))
    for rule in rules:
        if segments.intersection(rule.packages):
            return rule.name
    for rule in rules:
        if any(name.endswith(suffix) for suffix in rule.suffixes):
            return rule.name
    return None

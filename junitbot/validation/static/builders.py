"""The builders pass: builder chains use setters the builder has; records get all their components (pure)."""

from __future__ import annotations

import re

from junitbot.analysis import Node
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import (
    ERROR,
    CheckInput,
    closest_first,
    compact,
    issue_at,
    name_of,
)
from junitbot.validation.static.symbols import constructor_issues


def check_builders(inp: CheckInput) -> list[ValidationIssue]:
    """Builder chains use setters the builder has; `new Record(..)` matches the record's components."""
    issues = []
    for call in inp.test.nodes("call"):
        issues += _builder_chain_issues(inp, call)
    for node in inp.test.nodes("new"):
        issues += constructor_issues(inp, node, records=True)
    return sorted(issues, key=lambda i: i.line or 0)


def _builder_chain_issues(inp: CheckInput, factory: Node) -> list[ValidationIssue]:
    receiver = factory.child_by_field_name("object")
    if receiver is None or not re.fullmatch(r"[\w.]+", compact(receiver)) or not compact(receiver)[:1].isupper():
        return []
    info = inp.resolve(compact(receiver))
    builder = info.builder if info is not None else None
    if builder is None or name_of(factory) != builder.factory:
        return []
    builder_info = inp.known.info(builder.builder_type)
    setters = set(builder.setters)
    if builder_info is not None:
        setters |= {m.name for m in builder_info.methods if m.name != builder.build_method}
    issues = []
    node = factory
    while (parent := node.parent) is not None and parent.type == "method_invocation" \
            and parent.child_by_field_name("object") == node:
        name = name_of(parent)
        if name == builder.build_method:
            break
        if name not in setters:
            issues.append(issue_at("builders", ERROR, "unknown-builder-setter",
                                   f"{compact(receiver)}.{builder.factory}() has no setter {name}", parent,
                                   f"setters: {', '.join(closest_first(name, setters))}"))
        node = parent
    return issues


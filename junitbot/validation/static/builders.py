"""The builders pass: builder chains use setters the builder has; records get all their components (pure).

javac judges both anyway: findings are WARNINGs that name the real setters and components for the repair prompt.
"""

from __future__ import annotations

import re

from junitbot.analysis import BuilderInfo, Node
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import CheckInput
from junitbot.validation.static.nodes import WARNING, closest_first, compact, issue_at, name_of
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
    """The calls on a builder, from its factory until the chain leaves the builder: at `build()`, at any method
    that returns something else (`Option.builder().get().hashCode()`), or at a name the builder does not have."""
    receiver = factory.child_by_field_name("object")
    if receiver is None or not re.fullmatch(r"[\w.]+", compact(receiver)) or not compact(receiver)[:1].isupper():
        return []
    info = inp.resolve(compact(receiver))
    builder = info.builder if info is not None else None
    if builder is None or name_of(factory) != builder.factory:
        return []
    returns = _builder_methods(inp, builder)
    if returns is None:
        return []  # the builder inherits from a type this repo does not declare: its methods are unknown
    node = factory
    while (parent := node.parent) is not None and parent.type == "method_invocation" \
            and parent.child_by_field_name("object") == node:
        name = name_of(parent)
        if name not in returns:
            return [issue_at("builders", WARNING, "unknown-builder-setter",
                             f"{compact(receiver)}.{builder.factory}() has no setter {name}", parent,
                             f"setters: {', '.join(closest_first(name, builder.setters or returns))}")]
        if name == builder.build_method or not returns[name]:
            return []  # the chain has left the builder
        node = parent
    return []


def _builder_methods(inp: CheckInput, builder: BuilderInfo) -> dict[str, bool] | None:
    """Each method a builder has, and whether it returns the builder (a setter); None when the builder extends a
    type outside the repo. A builder only Lombok knows has its setters and build method."""
    methods = dict.fromkeys(builder.setters, True)
    methods[builder.build_method] = False
    info = inp.known.info(builder.builder_type)
    seen: set[str] = set()
    while info is not None and info.fqn not in seen:
        seen.add(info.fqn)
        for method in info.methods:
            chained = method.return_type is not None and method.return_type.name.rsplit(".", 1)[-1] in (
                info.name, *info.type_parameters)
            methods[method.name] = methods.get(method.name, False) or chained
        parent = next(iter(info.extends), None)
        if parent is None:
            break
        if not (parent.in_repo and parent.fqn):
            return None
        info = inp.known.info(parent.fqn)
    methods.update(dict.fromkeys(("equals", "hashCode", "toString", "getClass"), False))
    return methods

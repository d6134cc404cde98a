"""The implementations an interface or abstract class is tested through (pure).

A test of an abstract type instantiates one implementation as the instance under test (the shell's
subject field) and builds each other implementation it can as a local of the abstract type, so its
default and concrete methods run once per implementation: once per permitted subtype of a sealed type.
The abstract type's type variables are read as each implementation binds them (`IntBox implements
Box<Integer>`: T is Integer), so arguments and the declared type agree with the instance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from junitbot.analysis import ClassInfo, TypeRef
from junitbot.generation.javatypes import class_bindings, class_ref, java_type
from junitbot.generation.template.access import ClassLookup, Scope, is_inner
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.values import own_constants, value_expression

# Implementations tried per abstract type: each multiplies the scenarios of every instance method.
MAX_RECEIVERS = 4
_KEYWORDS = frozenset({"default", "record", "enum", "class", "interface", "new", "this", "super", "null", "true",
                       "false", "var", "yield", "package", "import", "static", "final", "switch", "case", "do"})


@dataclass(frozen=True)
class Receiver:
    """What a scenario calls a method on: the subject field, a local its arrange step builds, or (`instance` False)
    the class itself. `title` (`onErr`) leads the scenario's hint when there is more than one receiver; `bindings`
    say what the abstract type's type variables are for this instance (None: the subject's own defaults);
    `construction` is the expression the instance was built with, where the test wrote one.
    """

    name: str
    title: str = ""
    arrange: tuple[str, ...] = ()
    bindings: Mapping[str, TypeRef] | None = field(default=None, hash=False)
    instance: bool = True
    construction: str | None = None


def instantiable(info: ClassInfo, lookup: ClassLookup) -> bool:
    """A concrete type a test can create: not abstract, not an inner class, no private type around it."""
    current: ClassInfo | None = info
    while current is not None:
        if "private" in current.modifiers:
            return False
        current = lookup(current.outer) if current.outer else None
    return not info.is_abstract and not is_inner(info, lookup)


def subject_bindings(subject: ClassInfo, concrete: ClassInfo, lookup: ClassLookup) -> dict[str, TypeRef]:
    """The subject's type variables as `concrete` binds them through its supertypes (String where unsaid)."""
    found = _bindings_through(concrete, subject.fqn, class_bindings(concrete, None, {}), lookup, set())
    return found if found is not None else class_bindings(subject, None, {})


def _bindings_through(current: ClassInfo, target: str, bindings: Mapping[str, TypeRef], lookup: ClassLookup,
                      seen: set[str]) -> dict[str, TypeRef] | None:
    if current.fqn in seen:
        return None
    seen.add(current.fqn)
    for parent in (*current.extends, *current.implements):
        info = lookup(parent.fqn) if parent.in_repo and parent.fqn else None
        if info is None:
            continue
        local = class_bindings(info, parent, bindings)
        if info.fqn == target:
            return local
        found = _bindings_through(info, target, local, lookup, seen)
        if found is not None:
            return found
    return None


def subject_type(scope: Scope, subject: ClassInfo, bindings: Mapping[str, TypeRef]) -> str:
    """How the test declares a variable of the subject's type (`Result<String>`)."""
    return java_type(class_ref(subject), name=scope.name, bindings=bindings)


def receivers(context: ClassContext, *, field_name: str, built: str | None, implementations: Sequence[str],
              taken: set[str], construction: str | None = None) -> list[Receiver]:
    """The subject field, then for an abstract subject each other implementation a value can be built of.

    `built` is the implementation the subject field holds, `construction` the expression the set-up assigns it;
    `taken` the names the test already uses.
    """
    subject, scope, lookup = context.subject, context.scope, context.lookup
    if built is None or not subject.is_abstract:
        return [Receiver(field_name, construction=construction)]
    first = lookup(built)
    primary = Receiver(field_name, bindings=subject_bindings(subject, first, lookup) if first else None,
                       construction=construction)
    others: list[Receiver] = []
    for fqn in implementations:
        info = lookup(fqn)
        if fqn == built or info is None or not instantiable(info, lookup) or len(others) + 1 >= MAX_RECEIVERS:
            continue
        bindings = subject_bindings(subject, info, lookup)
        value = value_expression(class_ref(info), scope, bindings=class_bindings(info, None, {}))
        if value is None:
            continue
        local = _local_name(info.name, taken)
        taken.add(local)
        declared = subject_type(scope, subject, bindings)
        others.append(Receiver(local, title=f"on{info.name}", arrange=(f"{declared} {local} = {value.text};",),
                               bindings=bindings, construction=value.text))
    if not others:
        return [primary]
    return [Receiver(field_name, title=f"on{first.name}" if first else "", bindings=primary.bindings,
                     construction=construction), *others]


def constant_receivers(context: ClassContext) -> list[Receiver]:
    """The subject's own constants as receivers (`Converter.NUMBER.apply("1")`), when no implementation can be
    instantiated: what the library ships is what a test calls (issue 29: converters skipped as "interface without
    a concrete subtype")."""
    subject = context.subject
    owner = context.imports.name(subject.fqn, package=subject.package)
    found = []
    for constant in own_constants(subject)[:MAX_RECEIVERS]:
        words = [w for w in constant.name.split("_") if w]
        title = "on" + "".join(w[:1].upper() + w[1:].lower() for w in words)
        found.append(Receiver(f"{owner}.{constant.name}", title=title,
                              bindings=class_bindings(subject, constant.type, {})))
    return found


def _local_name(simple: str, taken: set[str]) -> str:
    candidate = simple[:1].lower() + simple[1:]
    if candidate in taken or candidate in _KEYWORDS:
        candidate = f"{candidate}Instance"
    number = 2
    base = candidate
    while candidate in taken:
        candidate, number = f"{base}{number}", number + 1
    return candidate

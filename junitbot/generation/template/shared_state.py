"""Static methods that change state every test in the JVM shares: a registry's `register..`, a static `set..`.

A test that calls one and returns normally leaves the change behind for the tests after it, in its class and in
every class Surefire runs in the same JVM (joda-money's `registerCurrency("EUR", 1, 1, codes, true)` replaced the
euro of every later test). Its refusals change nothing and stay tested.
"""

from __future__ import annotations

import re

from junitbot.analysis.models import ClassInfo, MethodInfo
from junitbot.generation.template.reach import members_reaching

# What a static collection or holder is asked to change (`currencies.put(..)`, `listeners.add(..)`).
_MUTATORS = frozenset({"put", "putIfAbsent", "putAll", "remove", "add", "addAll", "clear", "set", "compute",
                       "computeIfAbsent", "computeIfPresent", "merge", "replace", "replaceAll", "offer", "push",
                       "removeIf", "retainAll", "removeAll", "lazySet", "getAndSet", "compareAndSet"})
# Names that say a change is what the method is for: a cache filled by `of(..)` or `getInstance(..)` is not.
_CHANGING_NAME = re.compile(r"(?:register|unregister|deregister|set|add|remove|clear|reset|put|install|uninstall)"
                            r"(?:[A-Z]\w*)?")


def shared_state_changers(subject: ClassInfo) -> frozenset[str]:
    """The names of the class's static methods that change its static state and are named for it: those calling a
    mutator on one of its static fields, or another such method of the class (`registerCurrency(4 args)` → its
    5-argument overload), and static `void set..` methods."""
    static_fields = {field.name for field in subject.fields if "static" in field.modifiers}
    statics = {method.name for method in subject.methods if "static" in method.modifiers and method.kind == "method"}
    changing = {method.name for method in subject.methods if method.name in statics and (
        _writes_static_field(method, static_fields) or (
            re.fullmatch(r"set[A-Z]\w*", method.name) and method.return_type is not None
            and method.return_type.name == "void"))}
    return frozenset(name for name in members_reaching(subject, changing)
                     if name in statics and _CHANGING_NAME.fullmatch(name))


def _writes_static_field(method: MethodInfo, static_fields: set[str]) -> bool:
    return any(call.receiver_kind == "field" and call.receiver in static_fields and call.method in _MUTATORS
               for call in method.calls)

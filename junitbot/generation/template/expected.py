"""Expected values: a Java expression equal (by `equals`) to what a probe observed, where one can be built (pure).

A test compares a returned value object with one built the way the code's own API builds it
(`assertEquals(Money.of(new BigDecimal("20.00"), Currency.EUR), result)`) only where equality means the value:
a record, or a class that overrides `equals` and keeps only final fields (an entity's `equals` compares its id,
so an entity's accessors are asserted instead). Every part must have been observed the same in both probe runs.
"""

from __future__ import annotations

from collections.abc import Callable

from junitbot.analysis import ClassInfo, MethodInfo, TypeKind
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.literals import java_char, java_string
from junitbot.generation.template.access import Scope, accessible, factories
from junitbot.generation.template.observations import ObservedValue

_MAX_DEPTH = 3
# JDK value types a probe describes by their text, rebuilt by the factory that parses that text.
_PARSED = {
    "java.time.Instant": "parse", "java.time.LocalDate": "parse", "java.time.LocalDateTime": "parse",
    "java.time.LocalTime": "parse", "java.time.Duration": "parse", "java.time.Period": "parse",
    "java.time.OffsetDateTime": "parse", "java.time.ZonedDateTime": "parse", "java.util.UUID": "fromString",
    "java.time.Year": "parse", "java.time.YearMonth": "parse", "java.time.MonthDay": "parse",
    # One instance per code, name or id, equal to what its text names (a `toCurrency()` asserted not null
    # said nothing: joda-money's CurrencyUnit).
    "java.util.Currency": "getInstance", "java.nio.charset.Charset": "forName", "java.net.URI": "create",
}
# What a constructor or factory parameter of a JDK type accepts from an observed shape.
_SHAPES = {
    "String": ("java.lang.String",), "Integer": ("int", "java.lang.Integer"), "Long": ("long", "java.lang.Long"),
    "Short": ("short", "java.lang.Short"), "Byte": ("byte", "java.lang.Byte"),
    "Character": ("char", "java.lang.Character"), "Boolean": ("boolean", "java.lang.Boolean"),
    "Double": ("double", "java.lang.Double"), "Float": ("float", "java.lang.Float"),
    "BigDecimal": ("java.math.BigDecimal",), "BigInteger": ("java.math.BigInteger",),
}

Expect = Callable[[ObservedValue], str | None]
"""An observed value → the expression a test compares it with, or None."""


def expectation(scope: Scope) -> Expect:
    """`expected_value` bound to one test class's scope (its lookup, imports and Java release)."""
    return lambda value: expected_value(value, scope)


def expected_value(value: ObservedValue, scope: Scope, *, depth: int = 0) -> str | None:
    """A Java expression equal to the observed value (names written in `scope`), or None when equality would not say
    what it holds."""
    fork = scope.forked()
    built = _Expected(fork).value(value, depth)
    if built is not None:
        scope.imports.adopt(fork.imports)
    return built


def value_class(info: ClassInfo) -> bool:
    """Whether `equals` compares the whole value: a record, or a class overriding equals with only final fields."""
    if info.kind is TypeKind.RECORD:
        return True
    if info.kind is not TypeKind.CLASS:
        return False
    overrides = any(m.name == "equals" and len(m.parameters) == 1 for m in info.methods)
    fields = [f for f in info.fields if "static" not in f.modifiers]
    return overrides and bool(fields) and all("final" in f.modifiers for f in fields)


class _Expected:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.lookup, self.imports, self.level = scope.lookup, scope.imports, scope.level

    def value(self, value: ObservedValue, depth: int) -> str | None:
        kind, text = value.t, value.v
        if kind == "null":
            return "null"
        if kind in _SHAPES and kind not in ("BigDecimal", "BigInteger"):
            return None if text is None else _literal(kind, text)
        if kind in ("BigDecimal", "BigInteger") and text is not None:
            return f"new {self.imports.name(f'java.math.{kind}')}({java_string(text)})"
        if kind == "enum" and value.cls and text:
            return f"{self._type(value.cls)}.{text}"
        if depth >= _MAX_DEPTH:
            return None
        if kind == "Optional" and value.present is not None:
            return self._optional(value, depth)
        if kind == "Collection" and value.cls and "List" in value.cls:
            return self._list(value, depth)
        if kind == "object" and value.cls in _PARSED and value.text is not None:
            return f"{self.imports.name(value.cls)}.{_PARSED[value.cls]}({java_string(value.text)})"
        if kind in ("record", "object") and value.cls:
            return self._repo(value, depth)
        return None

    def _type(self, cls: str) -> str:
        return self.scope.name(cls.replace("$", "."))

    def _optional(self, value: ObservedValue, depth: int) -> str | None:
        optional = self.imports.name("java.util.Optional")
        if not value.present:
            return f"{optional}.empty()"
        inner = self.value(value.value, depth + 1) if value.value is not None else None
        return None if inner is None or inner == "null" else f"{optional}.of({inner})"

    def _list(self, value: ObservedValue, depth: int) -> str | None:
        items = value.items or ()
        if value.size is None or value.size != len(items) or not self.level.allows("collection_factories"):
            return None
        parts = [self.value(item, depth + 1) for item in items]
        if any(p is None or p == "null" for p in parts):
            return None
        return f"{self.imports.name('java.util.List')}.of({', '.join(p for p in parts if p)})"

    def _repo(self, value: ObservedValue, depth: int) -> str | None:
        info = self.lookup((value.cls or "").replace("$", "."))
        components = value.components or {}
        if info is None or not value_class(info) or not components or not self._visible(info):
            return None
        if info.kind is TypeKind.RECORD:
            order = [c.name for c in info.record_components]
            canonical = next((c for c in info.constructors if [p.name for p in c.parameters] == order), None)
            if set(order) != set(components) or (canonical is not None and not self._accessible(canonical, info)):
                return None
            arguments = self._arguments(order, components, depth)
            return None if arguments is None else f"new {self._type(info.fqn)}({arguments})"
        for member in (*factories(info, package=self.imports.package), *info.constructors):
            names = _component_names(member, components)
            if names is None or not self._accessible(member, info) or not _shapes_fit(member, components, names):
                continue
            arguments = self._arguments(names, components, depth)
            if arguments is None:
                continue
            owner = self._type(info.fqn)
            made = f"new {owner}" if member.kind == "constructor" else f"{owner}.{member.name}"
            return f"{made}({arguments})"
        return None

    def _arguments(self, names: list[str], components: dict[str, ObservedValue], depth: int) -> str | None:
        parts = [self.value(components[name], depth + 1) for name in names]
        return None if any(p is None for p in parts) else ", ".join(p for p in parts if p is not None)

    def _visible(self, info: ClassInfo) -> bool:
        return self.scope.visible(info)

    def _accessible(self, member: MethodInfo, owner: ClassInfo) -> bool:
        return accessible(member, owner, package=self.imports.package)


def _component_names(member: MethodInfo, components: dict[str, ObservedValue]) -> list[str] | None:
    """The observed accessor each parameter fills (`amount` → `amount()` or `getAmount()`), when every
    parameter fills one and every accessor is filled."""
    names = []
    for param in member.parameters:
        if param.varargs:
            return None
        capitalised = param.name[:1].upper() + param.name[1:]
        found = next((n for n in (param.name, f"get{capitalised}", f"is{capitalised}") if n in components), None)
        if found is None:
            return None
        names.append(found)
    return names if names and set(names) == set(components) else None


def _shapes_fit(member: MethodInfo, components: dict[str, ObservedValue], names: list[str]) -> bool:
    """Whether each parameter's type takes the observed value as it is (`of(BigDecimal, ..)`, not `of(String, ..)`)."""
    for param, name in zip(member.parameters, names, strict=True):
        observed = components[name]
        fqn = resolved_fqn(param.type) or param.type.text
        if observed.t in _SHAPES:
            if fqn not in _SHAPES[observed.t] and param.type.text not in _SHAPES[observed.t]:
                return False
        elif observed.cls is not None and observed.cls.replace("$", ".") != fqn:
            return False
    return True


def _literal(kind: str, text: str) -> str:
    if kind == "String":
        return java_string(text)
    if kind == "Character":
        return java_char(text)
    if kind in ("Float", "Double") and text in ("NaN", "Infinity", "-Infinity"):
        constant = {"NaN": "NaN", "Infinity": "POSITIVE_INFINITY", "-Infinity": "NEGATIVE_INFINITY"}[text]
        return f"{kind}.{constant}"
    return {"Long": f"{text}L", "Short": f"(short) {text}", "Byte": f"(byte) {text}", "Float": f"{text}f"}.get(
        kind, text)

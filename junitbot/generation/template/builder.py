"""ValueBuilder: one value under construction (its imports forked per attempt) and the JDK types it builds (pure).

Primitives, boxed types, String and JDK value types are literals and fixed factory calls (jdk_values);
collections, Optionals and arrays get one element (variant 0) or none (variant 1); the functional interfaces of
java.util.function get lambdas. Repo types are values.py's, in a subclass.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple, Self

from junitbot.analysis import ComparedLiteral, TypeRef
from junitbot.generation.javatypes import (
    PRIMITIVES,
    STRING,
    Bindings,
    array_dims,
    bind,
    element_of,
    is_type_variable,
    java_type,
    resolved_fqn,
    wildcard,
)
from junitbot.generation.literals import java_string
from junitbot.generation.models import ValueStrategy
from junitbot.generation.template.access import Scope
from junitbot.generation.template.constraints import accepted_value
from junitbot.generation.template.jdk_values import (
    BOXES,
    CHAR_HINTS,
    COLLECTIONS,
    FUNCTIONS,
    JDK_LITERALS,
    LEGACY_COLLECTIONS,
    LEGACY_LITERALS,
    PRIMITIVE_LITERALS,
    STRING_HINTS,
    STRING_LIKE,
    STRINGS,
    Template,
)

_MAP = "java.util.Map"


def string_value(variant: int, hint: str | None) -> str:
    """The string a test passes: one shaped by the parameter's name when it says what it holds."""
    if variant == 0 and hint:
        parts = [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", hint)]
        words = {*parts, *(a + b for a, b in itertools.pairwise(parts))}
        for keys, value in STRING_HINTS:
            if words & keys:
                return value
    return STRINGS[variant % len(STRINGS)]


def char_value(hint: str | None) -> str | None:
    """The char a parameter's name asks for (`delim` a comma, `quote` a double quote), so one call's delimiter,
    quote and escape differ: StrTokenizer's `(input, 'a', 'a')` made its one character both."""
    if not hint:
        return None
    words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", hint)}
    return next((value for keys, value in CHAR_HINTS if words & keys), None)


# A span of time in milliseconds with every unit set, days past a year (400 days 1 h 1 min 1 s 1 ms), and what an
# int holds (1 day 1 h 1 min 1 s 1 ms): a duration formatter or calculator then has years, months, days and the rest
# to render, where 1 ms renders nothing but zeros.
_MILLIS = {"long": "34563661001L", "int": "90061001"}
# A span's start late in its day (23:59:59.999 of day one): every unit of the end is then below the start's, so what
# a period calculation borrows (a second from the minutes, a day from the month) is computed, where a start at 0
# never borrows.
LATE_START = {"long": "86399999L", "int": "86399999"}
# A start at the last millisecond of its year (1970-12-31T23:59:59.999Z), with the end a span's usual one
# (1971-02-05T01:01:01.001Z): the days and the months borrow too. A long's only; an int's millis do not reach it.
LATE_IN_YEAR = ("31535999999L", _MILLIS["long"])
_SPAN_WORDS = frozenset({"duration", "elapsed", "period", "end", "span"})
_START_WORDS = frozenset({"start", "begin", "from"})


def is_span_start(hint: str, primitive: str) -> bool:
    """Whether a parameter so named and typed is the start of a span in milliseconds (`startMillis`)."""
    return millis_value(hint, primitive) is not None and bool(
        {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", hint)} & _START_WORDS)


def millis_value(hint: str | None, primitive: str) -> str | None:
    """The milliseconds a parameter named as a duration or the end of a span asks for (`durationMillis`,
    `endMillis`: `34563661001L`; `startMillis`: `0L`); none for a timeout or a delay, which a test would wait for."""
    if not hint or primitive not in _MILLIS:
        return None
    words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", hint)}
    if not words & {"millis", "milliseconds"}:
        return None
    if words & _START_WORDS:
        return "0L" if primitive == "long" else "0"
    return _MILLIS[primitive] if words & _SPAN_WORDS else None


class Built(NamedTuple):
    """A value built: its Java text, the type a test declares it as, and how it was built."""

    text: str
    type_text: str
    strategy: ValueStrategy


class ValueBuilder:
    """One value under construction: its scope (imports forked per attempt) and the repo types being built; the JDK
    types it builds itself, repo types in `repo` (values.py)."""

    def __init__(self, scope: Scope, stack: tuple[str, ...] = ()) -> None:
        self.scope = scope
        self.lookup, self.imports, self.level = scope.lookup, scope.imports, scope.level
        self.stack = stack
        self.used: set[str] = set()

    # -- plumbing ------------------------------------------------------------------------------------

    def attempt(self, build: Callable[[Self], Built | None]) -> Built | None:
        """Run `build` on a fork of the imports; keep what it named only when it succeeds."""
        trial = type(self)(self.scope.forked(), self.stack)
        built = build(trial)
        if built is not None:
            self.imports.adopt(trial.imports)
            self.used |= trial.used
        return built

    def value(self, ref: TypeRef, *, variant: int, depth: int, hint: str | None, bindings: Bindings,
              checks: Sequence[ComparedLiteral] = ()) -> Built | None:
        built = self.attempt(lambda b: b._dispatch(ref, variant, depth, hint, bindings))
        if built is None or not checks or hint is None:
            return built
        bound = bind(ref, bindings)[0] if is_type_variable(ref, bindings) else ref
        accepted = accepted_value(bound, hint, checks, first=built.text)
        return built if accepted is None else Built(accepted, built.type_text, "literal")

    def name(self, fqn: str, in_repo: bool = False) -> str:
        info = self.lookup(fqn) if in_repo else None
        package = info.package if info is not None else None
        written = self.imports.name(fqn, package=package)
        top = self.imports.import_for(fqn, package=package)
        if top is not None:
            self.used.add(top)
        return written

    def type_text(self, ref: TypeRef, bindings: Bindings, *, erased: bool = False) -> str:
        return java_type(ref, name=self.name, bindings=bindings, erased=erased)

    def template(self, template: Template) -> str:
        code = template.code
        for fqn in template.names:
            pattern = re.compile(rf"(?<![\w.]){fqn.rsplit('.', 1)[-1]}\b")
            if pattern.search(code):  # name only the types the chosen literal mentions
                code = pattern.sub(self.name(fqn), code)
        return code

    # -- dispatch ------------------------------------------------------------------------------------

    def _dispatch(self, ref: TypeRef, variant: int, depth: int, hint: str | None, bindings: Bindings) -> Built | None:
        if ref.array:
            return self._array(ref, variant, depth, bindings)
        found = wildcard(ref)
        if found is not None:
            bound = found[1] if found[0] == "extends" and found[1] is not None else None
            return self._dispatch(bound or STRING, variant, depth, hint, bindings)
        if is_type_variable(ref, bindings):
            bound, rest = bind(ref, bindings)
            return self._dispatch(bound, variant, depth, hint, rest)
        if ref.name in PRIMITIVES and ref.fqn is None:
            shaped = None
            if variant == 0:
                shaped = char_value(hint) if ref.name == "char" else millis_value(hint, ref.name)
            return Built(shaped or self._pick(PRIMITIVE_LITERALS[ref.name], variant), ref.name, "literal")
        fqn = resolved_fqn(ref)
        if fqn is None:
            return None
        jdk = self._jdk(fqn, ref, variant, depth, hint, bindings)
        return jdk if jdk is not None else self.repo(fqn, ref, variant, depth, hint, bindings)

    def repo(self, fqn: str, ref: TypeRef, variant: int, depth: int, hint: str | None,
             bindings: Bindings) -> Built | None:
        """A value of a repo type; this base builds none (values.py's builder does)."""
        return None

    def _pick(self, templates: Sequence[Template], variant: int) -> str:
        return self.template(templates[variant % len(templates)])

    # -- JDK types -----------------------------------------------------------------------------------

    def _jdk(self, fqn: str, ref: TypeRef, variant: int, depth: int, hint: str | None,
             bindings: Bindings) -> Built | None:
        if fqn in STRING_LIKE:
            return Built(java_string(string_value(variant, hint)), self.type_text(ref, bindings), "literal")
        if fqn in BOXES:
            return Built(self._pick(PRIMITIVE_LITERALS[BOXES[fqn]], variant), self.name(fqn), "literal")
        if fqn in JDK_LITERALS:
            legacy = LEGACY_LITERALS.get(fqn)
            templates = legacy[1] if legacy is not None and not self.level.allows(legacy[0]) else JDK_LITERALS[fqn]
            return Built(self._pick(templates, variant), self.type_text(ref, bindings), "jdk")
        if fqn in COLLECTIONS:
            return self._collection(fqn, ref, variant, depth, bindings)
        if fqn == "java.util.Optional":
            return self._optional(ref, variant, depth, bindings)
        if fqn == "java.lang.Class":
            return self._class_literal(ref, bindings)
        if fqn in FUNCTIONS:
            return self._lambda(fqn, ref, depth, bindings)
        return None

    def _parts(self, refs: Sequence[TypeRef], variant: int, depth: int, bindings: Bindings) -> list[str] | None:
        """Values for the elements of a container (which does not count towards depth); an ordinary number is 2,
        not 1: of one element 1 is also the count, and multiplying or dividing by it changes nothing
        (`cosineSimilarity({"text": 1}, {"text": 1})` is 1.0 with `*` and `/` swapped)."""
        texts = []
        for ref in refs:
            built = self.value(ref, variant=variant, depth=depth, hint=None, bindings=bindings)
            if built is None:
                return None
            texts.append(_NOT_ONE.get(built.text, built.text) if variant == 0 else built.text)
        return texts

    def _collection(self, fqn: str, ref: TypeRef, variant: int, depth: int, bindings: Bindings) -> Built:
        shape = COLLECTIONS[fqn]
        arity = 2 if shape.factory == _MAP else 1
        element_refs = [ref.arguments[i] if i < len(ref.arguments) else STRING for i in range(arity)]
        parts = None if variant == 1 else self._parts(element_refs, _element_variant(variant), depth, bindings)
        inner = self._factory_call(shape.factory, parts or [])
        if shape.wrapper is not None:
            wrapper = self.name(shape.wrapper)
            inner = f"new {wrapper}<>({inner})" if parts else f"new {wrapper}<>()"
        return Built(inner, self.type_text(ref, bindings), "collection")

    def _factory_call(self, factory: str, parts: Sequence[str]) -> str:
        """`List.of(e)`, or before Java 9 what Java 8 has for it (`Collections.singletonList(e)`)."""
        legacy = LEGACY_COLLECTIONS.get(factory)
        if legacy is None or self.level.allows("collection_factories"):
            return f"{self.name(factory)}.of({', '.join(parts)})"
        empty, single = legacy
        owner, method = (single if parts else empty).rsplit(".", 1)
        return f"{self.name(owner)}.{method}({', '.join(parts)})"

    def _optional(self, ref: TypeRef, variant: int, depth: int, bindings: Bindings) -> Built:
        optional = self.name("java.util.Optional")
        element = ref.arguments[0] if ref.arguments else STRING
        parts = None if variant == 1 else self._parts([element], _element_variant(variant), depth, bindings)
        text = f"{optional}.of({parts[0]})" if parts else f"{optional}.empty()"
        return Built(text, self.type_text(ref, bindings), "optional")

    def _array(self, ref: TypeRef, variant: int, depth: int, bindings: Bindings) -> Built | None:
        dims = array_dims(ref)
        innermost = ref
        while innermost.array:
            innermost = element_of(innermost)
        base = self.type_text(innermost, bindings, erased=True)
        if dims == 1 and base == "byte" and variant != 1:  # a text's bytes, as a codec's callers pass them
            charsets = self.name("java.nio.charset.StandardCharsets")
            return Built(f"{java_string(string_value(variant, None))}.getBytes({charsets}.UTF_8)",
                         self.type_text(ref, bindings), "array")
        parts = None if variant == 1 else self._parts([element_of(ref)], _element_variant(variant), depth, bindings)
        empty = f"new {base}[0]{'[]' * (dims - 1)}"
        text = f"new {base}{'[]' * dims} {{ {parts[0]} }}" if parts else empty
        return Built(text, self.type_text(ref, bindings), "array")

    def _class_literal(self, ref: TypeRef, bindings: Bindings) -> Built:
        argument = ref.arguments[0] if ref.arguments else STRING
        found = wildcard(argument)
        if found is not None:
            argument = found[1] or STRING
        erased = self.type_text(argument, bindings, erased=True)
        return Built(f"{erased}.class", self.type_text(ref, bindings), "literal")

    def _lambda(self, fqn: str, ref: TypeRef, depth: int, bindings: Bindings) -> Built | None:
        shape = FUNCTIONS[fqn]
        names = [f"arg{depth}", f"other{depth}"][:shape.arity]
        params = names[0] if shape.arity == 1 else f"({', '.join(names)})"
        if isinstance(shape.result, int):
            result_ref = ref.arguments[shape.result] if shape.result < len(ref.arguments) else STRING
            built = self.value(result_ref, variant=0, depth=depth - 1, hint=None, bindings=bindings)
            if built is None:
                return None
            body = built.text
        else:
            body = {"void": "{ }", "same": names[0] if names else "null"}.get(shape.result, shape.result)
        return Built(f"{params} -> {body}", self.type_text(ref, bindings), "lambda")


# A container's ordinary number (variant 0 of each numeric type) and what it holds instead.
_NOT_ONE = {"1": "2", "1L": "2L", "1.0": "2.0", "1.0f": "2.0f", "(short) 1": "(short) 2", "(byte) 1": "(byte) 2"}


def _element_variant(variant: int) -> int:
    return variant - 1 if variant >= 2 else variant

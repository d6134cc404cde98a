"""Assertions from observations: what a probe saw becomes `assertEquals`, `assertThrows` and `verify` (pure)."""

from __future__ import annotations

import decimal
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from junitbot.analysis import ClassInfo, MethodInfo, TypeRef
from junitbot.analysis.brackets import split_arguments
from junitbot.generation.imports import ImportSet
from junitbot.generation.javatypes import Bindings, class_bindings, is_type_variable, resolved_fqn
from junitbot.generation.literals import java_char, java_string, platform_text
from junitbot.generation.style import fresh_name
from junitbot.generation.template.expected import Expect
from junitbot.generation.template.observations import ObservedCall, ObservedValue

_MAX_DEPTH = 2
# Assertions on one captured argument: enough to say what was passed, few enough to read.
_MAX_CAPTURED_LINES = 6
_MAX_CAPTURED_VALUES = 3
_PRIMITIVE_MATCHERS = {
    "int": "anyInt()", "long": "anyLong()", "short": "anyShort()", "byte": "anyByte()", "char": "anyChar()",
    "boolean": "anyBoolean()", "float": "anyFloat()", "double": "anyDouble()",
}


@dataclass(frozen=True)
class Asserting:
    """What a test's assertions are written with: the file's imports; `expect`, an equal value where the class has
    value equality (one `assertEquals(expected, expr)` then says it all; None: none is compared whole); and
    `nameable(fqn)`, whether the test may name a class (an object of another class than declared, with nothing else
    to read, is checked to be one; None: it is not)."""

    imports: ImportSet
    expect: Expect | None = None
    nameable: Callable[[str], bool] | None = None
    platform_breaks: bool = False  # a text's line breaks are the platform's (`platform_breaks` in bodies.py)


def value_assertions(value: ObservedValue, expr: str, asserting: Asserting, *, depth: int = 0,
                     declared: str | None = None, opaque: bool = False) -> list[str]:
    """Statements asserting that `expr` is the observed value, as precisely as the observation allows. `declared` is
    the FQN of the expression's static type: when the value's class is another (an implementation, a record of a
    sealed type), the test checks and casts to it. `opaque` says the static type may be erased (a raw cast's
    components): then only checks that compile against Object are written."""
    imports, expect, nameable = asserting.imports, asserting.expect, asserting.nameable
    kind = value.t
    if kind in ("unstable", "unreadable"):
        return []
    runtime = value.cls.replace("$", ".") if value.cls else None
    if kind in ("record", "object", "Optional", "Collection") and expect is not None:
        expected = expect(value)
        if expected is not None and expected != "null":
            return [f"assertEquals({expected}, {expr});"]
    if kind in ("record", "object") and value.components and runtime and declared and runtime != declared:
        name = imports.name(runtime)
        check = [f"assertTrue({expr} instanceof {name});"]
        parts = [line for component, observed in value.components.items() if depth < _MAX_DEPTH
                 for line in value_assertions(observed, f"(({name}) {expr}).{component}()", asserting,
                                              depth=depth + 1, opaque=True)]
        return check + parts
    if opaque and kind not in ("null", "String", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
                               "BigDecimal", "BigInteger", "enum"):
        return [f"assertNotNull({expr});"]
    if opaque and kind in ("Long", "Short", "Byte", "Character", "Boolean", "Integer"):
        return [f"assertEquals({_boxed(kind, value.v)}, {expr});"] if value.v is not None else []
    if kind == "null":
        return [f"assertNull({expr});"]
    if kind == "String" and asserting.platform_breaks and value.v and "\n" in value.v and "\r" not in value.v:
        return [f"assertEquals({platform_text(value.v)}, {expr});"]
    if kind in ("String", "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double"):
        return _scalar(kind, value.v, expr)
    if kind in ("BigDecimal", "BigInteger") and value.v is not None:
        if len(value.v) > _MAX_NUMBER_TEXT:
            return _long_number(kind, value.v, expr)
        name = imports.name(f"java.math.{kind}")
        return [f"assertEquals(new {name}({java_string(value.v)}), {expr});"]
    if kind == "enum" and value.cls and value.v:
        return [f"assertEquals({imports.name(value.cls.replace('$', '.'))}.{value.v}, {expr});"]
    if kind == "Optional":
        return _optional(value, expr, asserting, depth)
    if kind in ("Collection", "Map") and value.size is not None:
        return _sized(value, expr, asserting, depth)
    if kind == "Array" and value.size is not None:
        return _array(value, expr, imports)
    if kind in ("record", "object") and value.components and depth < _MAX_DEPTH:
        lines = [f"assertNotNull({expr});"]
        for name, component in value.components.items():
            lines += value_assertions(component, f"{expr}.{name}()", asserting, depth=depth + 1)
        return lines
    if kind == "object" and runtime and declared and runtime != declared and nameable and nameable(runtime):
        return [f"assertTrue({expr} instanceof {imports.name(runtime)});"]
    if kind == "object" and _rendered(value):
        # A repo object without accessors that renders itself: its text is what a mutant changes (issue 29: an
        # `assertNotNull` of a built object cannot fail).
        return [f"assertEquals({java_string(value.text or '')}, {expr}.toString());"]
    return [f"assertNotNull({expr});"] if kind != "unreadable" else []


# Longer numbers are asserted by their shape: a reader does not check 300 digits (`Double.MAX_VALUE` written out).
_MAX_NUMBER_TEXT = 40


def _long_number(kind: str, text: str, expr: str) -> list[str]:
    """A big number's sign and size (precision and scale, or bit length): what a mutant that changes its magnitude
    or its rounding changes; nothing where the text is no number."""
    try:
        number = decimal.Decimal(text)
    except decimal.InvalidOperation:
        return []
    if not number.is_finite():
        return []
    sign = (number > 0) - (number < 0)
    if kind == "BigInteger":
        whole = int(number)
        return [f"assertEquals({sign}, {expr}.signum());",
                f"assertEquals({(whole if whole >= 0 else -whole - 1).bit_length()}, {expr}.bitLength());"]
    digits = number.as_tuple()
    exponent = digits.exponent if isinstance(digits.exponent, int) else 0
    precision = max(1, len(digits.digits))  # Java's precision of zero is 1
    return [f"assertEquals({sign}, {expr}.signum());", f"assertEquals({precision}, {expr}.precision());",
            f"assertEquals({-exponent}, {expr}.scale());"]


# The JVM's names of the arrays whose elements a test writes as literals, and each element's literal.
_ARRAY_ELEMENTS: dict[str, tuple[str, Callable[[str], str]]] = {
    "[B": ("byte", lambda v: f"(byte) {v}"), "[S": ("short", lambda v: f"(short) {v}"), "[I": ("int", str),
    "[J": ("long", lambda v: f"{v}L"), "[Z": ("boolean", str),
    "[C": ("char", java_char),
    "[Ljava.lang.String;": ("String", java_string),
}
_MAX_LITERAL_ELEMENTS = 16  # more, and the test says the length (a text's bytes excepted)


def _array(value: ObservedValue, expr: str, imports: ImportSet) -> list[str]:
    """An array compared whole where the recorder read every element: a text's bytes as that text
    (`assertEquals("ORSXG5A=", new String(result, US_ASCII))`), up to 16 others as literals; else its length."""
    element = _ARRAY_ELEMENTS.get(value.cls or "")
    items = value.items
    size = [f"assertEquals({value.size}, {expr}.length);"]
    if element is None or not items or len(items) != value.size or any(i.v is None for i in items):
        return size
    values = [i.v or "" for i in items]
    text = value.bytes_text
    if text is not None:
        charsets = imports.name("java.nio.charset.StandardCharsets")
        return [f"assertEquals({java_string(text)}, new String({expr}, {charsets}.US_ASCII));"]
    if len(values) > _MAX_LITERAL_ELEMENTS:
        return size
    name, literal = element
    return [f"assertArrayEquals(new {name}[] {{ {', '.join(literal(v) for v in values)} }}, {expr});"]


def _rendered(value: ObservedValue) -> bool:
    """Whether the value's text is its class's own rendering, the same in every run: not Object's `Type@1b6d3586`
    (nor one with such a part), not a JDK type's, not cut at the recorder's limit."""
    text, cls = value.text, value.cls or ""
    return (text is not None and 0 < len(text) < _RECORDER_TEXT_LIMIT
            and not cls.startswith(("java.", "javax.", "jdk.")) and _IDENTITY.search(text) is None)


_RECORDER_TEXT_LIMIT = 200  # Recorder.MAX_TEXT: a text this long may have been cut
# Object.toString's identity hash, or a lambda's class name: different in each JVM.
_IDENTITY = re.compile(r"@[0-9a-f]{4,}\b|\$\$Lambda")


def _scalar(kind: str, text: str | None, expr: str) -> list[str]:
    if text is None:
        return [f"assertNotNull({expr});"]
    if kind == "String":
        return [f"assertEquals({java_string(text)}, {expr});"]
    if kind == "Boolean":
        return [f"assertTrue({expr});" if text == "true" else f"assertFalse({expr});"]
    if kind == "Character":
        return [f"assertEquals({java_char(text)}, {expr});"]
    if kind in ("Float", "Double"):
        if text in ("NaN", "Infinity", "-Infinity"):
            constant = {"NaN": "NaN", "Infinity": "POSITIVE_INFINITY", "-Infinity": "NEGATIVE_INFINITY"}[text]
            return [f"assertEquals({kind}.{constant}, {expr});"]
        suffix, delta = ("f", "1e-6f") if kind == "Float" else ("", "1e-9")
        return [f"assertEquals({text}{suffix}, {expr}, {delta});"]
    literal = {"Long": f"{text}L", "Short": f"(short) {text}", "Byte": f"(byte) {text}"}.get(kind, text)
    return [f"assertEquals({literal}, {expr});"]


def _boxed(kind: str, text: str | None) -> str:
    """A literal of the exact boxed type, so `assertEquals(Object, Object)` compares like with like."""
    if kind == "Character":
        return f"Character.valueOf({java_char(text or '')})"
    if kind == "Boolean":
        return f"Boolean.valueOf({text})"
    return f"{kind}.valueOf(({ {'Long': 'long', 'Short': 'short', 'Byte': 'byte'}.get(kind, 'int') }) {text})"


def _optional(value: ObservedValue, expr: str, asserting: Asserting, depth: int) -> list[str]:
    if value.present is None:
        return [f"assertNotNull({expr});"]
    if not value.present:
        return [f"assertFalse({expr}.isPresent());"]
    lines = [f"assertTrue({expr}.isPresent());"]
    if value.value is not None and depth < _MAX_DEPTH:
        lines += value_assertions(value.value, f"{expr}.get()", asserting, depth=depth + 1)
    return lines


def _sized(value: ObservedValue, expr: str, asserting: Asserting, depth: int) -> list[str]:
    if value.size == 0:
        return [f"assertTrue({expr}.isEmpty());"]
    lines = [f"assertEquals({value.size}, {expr}.size());"]
    is_list = value.cls is not None and "List" in value.cls
    if is_list and value.items and depth < _MAX_DEPTH:
        for index, item in enumerate(value.items[:3]):
            lines += value_assertions(item, f"{expr}.get({index})", asserting, depth=depth + 1)
    return lines


def verify_lines(calls: tuple[ObservedCall, ...], asserting: Asserting, *, mock_types: Mapping[str, str | None],
                 class_info: Callable[[str], ClassInfo | None], taken: set[str] | None = None) -> list[str]:
    """`verify(mock, times(n)).method(...)` per call made without a stub (a stub says it was made), where the
    signature is known: an argument matched by its value where `asserting.expect` builds an equal one, captured
    where it is an object the code built or changed (`ArgumentCaptor`, then assertions on what it holds), else by
    type. `taken` are the names the test already uses (captors get fresh ones)."""
    taken = taken if taken is not None else set()
    groups: dict[tuple[str, str, int], list[ObservedCall]] = {}
    for call in calls:
        groups.setdefault(call.key, []).append(call)
    lines = []
    for (mock, method, arity), group in groups.items():  # in the order the code made them
        fqn = mock_types.get(mock)
        found = find_method(fqn, method, arity, class_info) if fqn else None
        if found is None:
            continue
        if all(c.stubbed for c in group):
            continue
        signature, bindings = found
        arguments = [_argument(p.type, [c.args[i] if len(c.args) == arity else None for c in group],
                               [c.was[i] if len(c.was) == arity else None for c in group],
                               bindings=bindings, asserting=asserting, class_info=class_info)
                     for i, p in enumerate(signature.parameters)]
        lines += _verification(mock, method, arguments, len(group), asserting=asserting, taken=taken)
    return lines


@dataclass(frozen=True)
class _Argument:
    """How a verification matches one parameter: a matcher, the bare value where every argument has one, or a
    captor of a class (with the values seen, and what those a stub handed out were before the call)."""

    matcher: str
    raw: str | None = None
    captured: tuple[str, list[ObservedValue], list[ObservedValue | None]] | None = None


def _argument(ref: TypeRef, seen: list[ObservedValue | None], was: list[ObservedValue | None], *,
              bindings: Bindings, asserting: Asserting, class_info: Callable[[str], ClassInfo | None]) -> _Argument:
    values = [v for v in seen if v is not None]
    complete = len(values) == len(seen) and values
    matcher = matcher_for(ref, bindings, asserting.imports)
    expect = asserting.expect
    if complete and expect is not None and not any(was):
        expressions = {expect(v) for v in values}
        if len(expressions) == 1 and None not in expressions:
            (expression,) = expressions
            if expression == "null":
                return _Argument("isNull()")
            return _Argument(f"eq({expression})", raw=expression)
    if complete and all(v.t in ("record", "object") and v.components for v in values):
        captured = _captor_type(ref, bindings, class_info)
        if captured is not None:
            return _Argument(matcher, captured=(captured, values, was))
    return _Argument(matcher)


def _captor_type(ref: TypeRef, bindings: Bindings, class_info: Callable[[str], ClassInfo | None]) -> str | None:
    """The class an `ArgumentCaptor` of the parameter is made for: a repo class, written without type arguments."""
    if is_type_variable(ref, bindings):
        ref = bindings.get(ref.name, ref)
    fqn = resolved_fqn(ref)
    if ref.array or ref.arguments or fqn is None or is_type_variable(ref, bindings):
        return None
    info = class_info(fqn)
    return fqn if info is not None and not info.type_parameters else None


def _verification(mock: str, method: str, arguments: list[_Argument], count: int, *, asserting: Asserting,
                  taken: set[str]) -> list[str]:
    """The captor declarations, the `verify` line and the assertions on what was captured (a captor only where
    there is something to assert: else the argument is matched by type)."""
    declarations: list[str] = []
    checks: list[str] = []
    texts: list[str] = []
    imports = asserting.imports
    raw = all(a.raw is not None for a in arguments)
    for argument in arguments:
        if argument.captured is None:
            texts.append(argument.raw if raw and argument.raw is not None else argument.matcher)
            continue
        fqn, values, was = argument.captured
        type_name = imports.name(fqn)
        name = fresh_name(type_name[:1].lower() + type_name[1:].replace(".", "") + "Captor", set(taken))
        found = _captured(values, was, name, count, fqn, asserting)
        if not found:
            texts.append(argument.matcher)
            continue
        taken.add(name)
        checks += found
        captor = imports.name("org.mockito.ArgumentCaptor")
        declarations.append(f"{captor}<{type_name}> {name} = {captor}.forClass({type_name}.class);")
        texts.append(f"{name}.capture()")
    times = "" if count == 1 else f", times({count})"
    return [*declarations, f"verify({mock}{times}).{method}({', '.join(texts)});", *checks]


def _captured(values: list[ObservedValue], was: list[ObservedValue | None], name: str, count: int, declared: str,
              asserting: Asserting) -> list[str]:
    """Assertions on the captured values (`name` standing for the captor): each, or once when one object was
    passed each time (a captor holds references, so each shows that object's last state)."""
    if all(v == values[-1] for v in values):
        return captured_assertions(values[-1], f"{name}.getValue()", asserting, declared=declared,
                                   was=was[-1] if was else None)
    lines = []
    for index, value in enumerate(values[:_MAX_CAPTURED_VALUES]):
        expr = f"{name}.getValue()" if count == 1 else f"{name}.getAllValues().get({index})"
        lines += captured_assertions(value, expr, asserting, declared=declared,
                                     was=was[index] if index < len(was) else None)
    return lines


def captured_assertions(value: ObservedValue, expr: str, asserting: Asserting, *, declared: str,
                        was: ObservedValue | None = None) -> list[str]:
    """What a captured argument held: its value where it can be built, else its accessors (a few). An object a
    stub handed out (`was`: as it was then) is asserted only for what the code changed in it."""
    if was is not None and value.components:
        before = was.components or {}
        changed = {k: v for k, v in value.components.items() if before.get(k) != v}
        if not changed:
            return []
        value = value.model_copy(update={"components": changed})
        asserting = replace(asserting, expect=None)  # part of an object is no value to compare whole
    lines = value_assertions(value, expr, replace(asserting, nameable=None), declared=declared)
    lines = [line for line in lines if not line.startswith("assertNotNull(")]  # what was captured is never null
    return lines[:_MAX_CAPTURED_LINES]




def matcher_for(ref: TypeRef, bindings: Bindings, imports: ImportSet) -> str:
    """A Mockito matcher for any argument of that parameter type, typed so overloads stay unambiguous."""
    if ref.text in _PRIMITIVE_MATCHERS:
        return _PRIMITIVE_MATCHERS[ref.text]
    if is_type_variable(ref, bindings):
        ref = bindings.get(ref.name, ref)
    fqn = resolved_fqn(ref)
    if ref.array or ref.arguments or fqn is None or is_type_variable(ref, bindings):
        return "any()"  # generic or unknown: an untyped matcher is the one that compiles
    return f"any({imports.name(fqn)}.class)"


def find_method(
    fqn: str,
    name: str,
    arity: int,
    class_info: Callable[[str], ClassInfo | None],
    bindings: Bindings | None = None,
    seen: set[str] | None = None,
) -> tuple[MethodInfo, dict[str, TypeRef]] | None:
    """A method of the type or its repo supertypes with that name and arity, with the type variables bound.

    `OrderRepository extends Repository<Order, OrderId>` finds `Optional<T> findById(ID)` with
    {T: Order, ID: OrderId}, so stubs and matchers can name the real types.
    """
    seen = seen if seen is not None else set()
    if fqn in seen:
        return None
    seen.add(fqn)
    info = class_info(fqn)
    if info is None:
        return None
    current = dict(bindings or {})
    for method in info.methods:
        if method.name == name and len(method.parameters) == arity and not any(p.varargs for p in method.parameters):
            return method, current
    for parent in (*info.extends, *info.implements):
        parent_info = class_info(parent.fqn) if parent.in_repo and parent.fqn else None
        if parent_info is not None:
            found = find_method(parent_info.fqn, name, arity, class_info,
                                class_bindings(parent_info, parent, current), seen)
            if found is not None:
                return found
    return None


def assertj_statement(line: str) -> str:
    """One of the JUnit assertions written above, in AssertJ's fluent style; other lines unchanged."""
    instance = re.fullmatch(r"assertTrue\((.+) instanceof ([\w.]+)\);", line)
    if instance is not None:
        return f"assertThat({instance[1]}).isInstanceOf({instance[2]}.class);"
    for name, method in (("assertNull", "isNull"), ("assertNotNull", "isNotNull"), ("assertTrue", "isTrue"),
                         ("assertFalse", "isFalse")):
        if line.startswith(f"{name}(") and line.endswith(");"):
            return f"assertThat({line[len(name) + 1:-2]}).{method}();"
    if line.startswith("assertSame(") and line.endswith(");"):
        args = split_arguments(line[len("assertSame("):-2])
        if len(args) == 2:
            return f"assertThat({args[1]}).isSameAs({args[0]});"
    if line.startswith("assertEquals(") and line.endswith(");"):
        args = split_arguments(line[len("assertEquals("):-2])
        if len(args) == 3:
            return f"assertThat({args[1]}).isCloseTo({args[0]}, within({args[2]}));"
        if len(args) == 2:
            return f"assertThat({args[1]}).isEqualTo({args[0]});"
    if line.startswith("assertArrayEquals(") and line.endswith(");"):
        args = split_arguments(line[len("assertArrayEquals("):-2])
        if len(args) == 2:
            return f"assertThat({args[1]}).containsExactly({args[0]});"
    if line.startswith("assertDoesNotThrow(") and line.endswith(");"):
        return f"assertThatCode({line[len('assertDoesNotThrow('):-2]}).doesNotThrowAnyException();"
    return line



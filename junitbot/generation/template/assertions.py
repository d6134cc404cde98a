"""Assertions from observations: what a probe saw becomes `assertEquals`, `assertThrows` and `verify` (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from junitbot.analysis import ClassInfo, MethodInfo, TypeRef
from junitbot.generation.imports import ImportSet
from junitbot.generation.javatypes import Bindings, class_bindings, is_type_variable, resolved_fqn
from junitbot.generation.literals import java_string
from junitbot.generation.template.observations import ObservedCall, ObservedValue

_MAX_DEPTH = 2
_PRIMITIVE_MATCHERS = {
    "int": "anyInt()", "long": "anyLong()", "short": "anyShort()", "byte": "anyByte()", "char": "anyChar()",
    "boolean": "anyBoolean()", "float": "anyFloat()", "double": "anyDouble()",
}


def value_assertions(
    value: ObservedValue, expr: str, *, imports: ImportSet, depth: int = 0, declared: str | None = None,
    opaque: bool = False,
) -> list[str]:
    """Statements asserting that `expr` is the observed value, as precisely as the observation allows.

    `declared` is the FQN of the expression's static type: when the value's class is another (an
    implementation of an interface, a record of a sealed type), the test checks and casts to it.
    `opaque` says the expression's static type may be erased (a raw cast's components): then only
    checks that compile against Object are written.
    """
    kind = value.t
    runtime = value.cls.replace("$", ".") if value.cls else None
    if kind in ("record", "object") and value.components and runtime and declared and runtime != declared:
        name = imports.name(runtime)
        check = [f"assertTrue({expr} instanceof {name});"]
        parts = [line for component, observed in value.components.items() if depth < _MAX_DEPTH
                 for line in value_assertions(observed, f"(({name}) {expr}).{component}()", imports=imports,
                                              depth=depth + 1, opaque=True)]
        return check + parts
    if opaque and kind not in ("null", "String", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
                               "BigDecimal", "BigInteger", "enum"):
        return [f"assertNotNull({expr});"]
    if opaque and kind in ("Long", "Short", "Byte", "Character", "Boolean", "Integer"):
        return [f"assertEquals({_boxed(kind, value.v)}, {expr});"] if value.v is not None else []
    if kind == "null":
        return [f"assertNull({expr});"]
    if kind in ("String", "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double"):
        return _scalar(kind, value.v, expr)
    if kind in ("BigDecimal", "BigInteger") and value.v is not None:
        name = imports.name(f"java.math.{kind}")
        return [f"assertEquals(new {name}({java_string(value.v)}), {expr});"]
    if kind == "enum" and value.cls and value.v:
        return [f"assertEquals({imports.name(value.cls.replace('$', '.'))}.{value.v}, {expr});"]
    if kind == "Optional":
        return _optional(value, expr, imports=imports, depth=depth)
    if kind in ("Collection", "Map") and value.size is not None:
        return _sized(value, expr, imports=imports, depth=depth)
    if kind == "Array" and value.size is not None:
        return [f"assertEquals({value.size}, {expr}.length);"]
    if kind in ("record", "object") and value.components and depth < _MAX_DEPTH:
        lines = [f"assertNotNull({expr});"]
        for name, component in value.components.items():
            lines += value_assertions(component, f"{expr}.{name}()", imports=imports, depth=depth + 1)
        return lines
    return [f"assertNotNull({expr});"] if kind != "unreadable" else []


def _scalar(kind: str, text: str | None, expr: str) -> list[str]:
    if text is None:
        return [f"assertNotNull({expr});"]
    if kind == "String":
        return [f"assertEquals({java_string(text)}, {expr});"]
    if kind == "Boolean":
        return [f"assertTrue({expr});" if text == "true" else f"assertFalse({expr});"]
    if kind == "Character":
        return [f"assertEquals({java_string(text)}.charAt(0), {expr});"]
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
        return f"Character.valueOf({java_string(text or '')}.charAt(0))"
    if kind == "Boolean":
        return f"Boolean.valueOf({text})"
    return f"{kind}.valueOf(({ {'Long': 'long', 'Short': 'short', 'Byte': 'byte'}.get(kind, 'int') }) {text})"


def _optional(value: ObservedValue, expr: str, *, imports: ImportSet, depth: int) -> list[str]:
    if value.present is None:
        return [f"assertNotNull({expr});"]
    if not value.present:
        return [f"assertFalse({expr}.isPresent());"]
    lines = [f"assertTrue({expr}.isPresent());"]
    if value.value is not None and depth < _MAX_DEPTH:
        lines += value_assertions(value.value, f"{expr}.get()", imports=imports, depth=depth + 1)
    return lines


def _sized(value: ObservedValue, expr: str, *, imports: ImportSet, depth: int) -> list[str]:
    if value.size == 0:
        return [f"assertTrue({expr}.isEmpty());"]
    lines = [f"assertEquals({value.size}, {expr}.size());"]
    is_list = value.cls is not None and "List" in value.cls
    if is_list and value.items and depth < _MAX_DEPTH:
        for index, item in enumerate(value.items[:3]):
            lines += value_assertions(item, f"{expr}.get({index})", imports=imports, depth=depth + 1)
    return lines


def verify_lines(
    calls: tuple[ObservedCall, ...],
    *,
    mock_types: Mapping[str, str | None],
    class_info: Callable[[str], ClassInfo | None],
    imports: ImportSet,
) -> list[str]:
    """`verify(mock, times(n)).method(matchers...)` for each call observed, where the signature is known."""
    lines = []
    for (mock, method, arity), count in sorted(Counter((c.mock, c.method, c.arguments) for c in calls).items()):
        fqn = mock_types.get(mock)
        found = find_method(fqn, method, arity, class_info) if fqn else None
        if found is None:
            continue
        signature, bindings = found
        matchers = ", ".join(matcher_for(p.type, bindings, imports) for p in signature.parameters)
        times = "" if count == 1 else f", times({count})"
        lines.append(f"verify({mock}{times}).{method}({matchers});")
    return lines


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
    for name, method in (("assertNull", "isNull"), ("assertNotNull", "isNotNull"), ("assertTrue", "isTrue"),
                         ("assertFalse", "isFalse")):
        if line.startswith(f"{name}(") and line.endswith(");"):
            return f"assertThat({line[len(name) + 1:-2]}).{method}();"
    if line.startswith("assertEquals(") and line.endswith(");"):
        args = split_arguments(line[len("assertEquals("):-2])
        if len(args) == 3:
            return f"assertThat({args[1]}).isCloseTo({args[0]}, within({args[2]}));"
        if len(args) == 2:
            return f"assertThat({args[1]}).isEqualTo({args[0]});"
    if line.startswith("assertDoesNotThrow(") and line.endswith(");"):
        return f"assertThatCode({line[len('assertDoesNotThrow('):-2]}).doesNotThrowAnyException();"
    return line


def split_arguments(text: str) -> list[str]:
    """Top-level, comma-separated arguments of a call, respecting nesting and string and char literals."""
    args: list[str] = []
    depth = 0
    quote: str | None = None
    start = 0
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            args.append(text[start:index].strip())
            start = index + 1
        index += 1
    args.append(text[start:].strip())
    return args

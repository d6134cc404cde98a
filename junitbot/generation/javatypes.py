"""Reading TypeRefs as Java types: arrays, wildcards, type variables, and writing them into a file (pure)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from junitbot.analysis import ClassInfo, MethodInfo, TypeBound, TypeKind, TypeRef, jdk_fqn

PRIMITIVES = frozenset({"boolean", "byte", "char", "short", "int", "long", "float", "double"})
STRING = TypeRef(text="String", name="String", fqn="java.lang.String")
OBJECT = TypeRef(text="Object", name="Object", fqn="java.lang.Object")
_UNBOUNDED = TypeRef(text="?", name="?")
# `T`, `ID`, `E2`: what a type variable looks like when the analysis could not tell.
_TYPE_VARIABLE = re.compile(r"[A-Z][A-Z0-9_]{0,2}")

Bindings = Mapping[str, TypeRef]
Namer = Callable[[str, bool], str]
"""(fqn, in_repo) -> the name the file writes for that type."""


def resolved_fqn(ref: TypeRef) -> str | None:
    """The FQN the analysis found, else the JDK type its (possibly `Outer.Inner`) name most likely means."""
    if ref.fqn:
        return ref.fqn
    head, _, rest = ref.name.partition(".")
    known = jdk_fqn(head) if head[:1].isupper() else None
    if known is None:
        return None
    return f"{known}.{rest}" if rest else known


def array_dims(ref: TypeRef) -> int:
    return max(ref.text.count("[]"), 1) if ref.array else 0


def element_of(ref: TypeRef) -> TypeRef:
    """The element type of an array type (one dimension less)."""
    dims = array_dims(ref)
    text = ref.text.replace("[]", "", 1) if dims else ref.text
    return ref.model_copy(update={"text": text, "array": dims > 1})


def wildcard(ref: TypeRef) -> tuple[str, TypeRef | None] | None:
    """(`extends`/`super`/``, bound) when `ref` is a wildcard type argument (`? extends Event`), else None."""
    if not ref.text.startswith("?"):
        return None
    rest = ref.text[1:].strip()
    for keyword in ("extends", "super"):
        if rest.startswith(keyword):
            bound_text = rest[len(keyword):].strip()
            # The parser names `?superT` after its keyword; the bound's name is in its text then.
            name = bound_text.split("<")[0] if ref.name in ("extends", "super", "?") else ref.name
            bound = ref.model_copy(update={"text": bound_text, "name": name})
            return keyword, bound
    return "", None


def is_type_variable(ref: TypeRef, bindings: Bindings) -> bool:
    """A type parameter (`T`) rather than a type: bound in `bindings`, or shaped like one and unresolved."""
    if ref.fqn is not None or ref.arguments or ref.name in PRIMITIVES:
        return False
    return ref.name in bindings or (resolved_fqn(ref) is None and bool(_TYPE_VARIABLE.fullmatch(ref.name)))


def bind(ref: TypeRef, bindings: Bindings) -> tuple[TypeRef, Bindings]:
    """What a type variable stands for (String when nothing says), and the bindings left to read it with."""
    bound = bindings.get(ref.name, STRING)
    rest = {name: value for name, value in bindings.items() if name != ref.name}
    return bound, rest


def unbound(name: str, bounds: Collection[TypeBound], variables: Collection[str]) -> TypeRef:
    """What a type variable nothing binds stands for: its bound (`F extends JacksonFeature` → JacksonFeature), or
    String where it has none or its bound names the declaration's type variables (`T extends Comparable<T>`,
    within which String is)."""
    found = next((b.bound for b in bounds if b.name == name), None)
    if found is None or _names_any(found, variables):
        return STRING
    return found


def _names_any(ref: TypeRef, variables: Collection[str]) -> bool:
    pending = [ref]
    while pending:
        current = pending.pop()
        if current.name in variables:
            return True
        pending.extend(current.arguments)
    return False


def method_bindings(method: MethodInfo, bindings: Bindings) -> dict[str, TypeRef]:
    """`bindings` with a generic method's own type variables bound as `unbound` says, hiding the class's."""
    variables = method.type_parameters
    return {**bindings, **{name: unbound(name, method.type_bounds, variables) for name in variables}}


def class_bindings(info: ClassInfo, ref: TypeRef | None, outer: Bindings) -> dict[str, TypeRef]:
    """A generic class's type parameters bound to the arguments `ref` gives them, their bounds (or String)
    otherwise."""
    arguments = ref.arguments if ref is not None else ()
    result: dict[str, TypeRef] = {}
    for index, name in enumerate(info.type_parameters):
        default = unbound(name, info.type_bounds, info.type_parameters)
        argument = arguments[index] if index < len(arguments) else default
        found = wildcard(argument)
        if found is not None:
            argument = found[1] or default
        if is_type_variable(argument, outer):
            argument = bind(argument, outer)[0]
        result[name] = argument
    return result


def class_ref(info: ClassInfo) -> TypeRef:
    """A reference to a repo class with its type parameters as arguments (`Ok<T>`)."""
    arguments = tuple(TypeRef(text=name, name=name) for name in info.type_parameters)
    return TypeRef(text=info.name, name=info.name, fqn=info.fqn, in_repo=True, arguments=arguments)


def java_type(ref: TypeRef, *, name: Namer, bindings: Bindings, erased: bool = False) -> str:
    """The type as the file writes it: names from `name`, type variables replaced by their bindings."""
    dims = array_dims(ref)
    element = element_of(ref) if dims else ref
    while element.array:
        element = element_of(element)
    suffix = "[]" * dims
    found = wildcard(element)
    if found is not None:
        keyword, bound = found
        return "?" if bound is None else f"? {keyword} {java_type(bound, name=name, bindings=bindings)}"
    if element.name in PRIMITIVES and element.fqn is None:
        return element.name + suffix
    if is_type_variable(element, bindings):
        bound, rest = bind(element, bindings)
        return java_type(bound, name=name, bindings=rest, erased=erased) + suffix
    fqn = resolved_fqn(element)
    head = name(fqn, element.in_repo) if fqn else element.name
    if element.arguments and not erased:
        inner = ", ".join(java_type(a, name=name, bindings=bindings) for a in element.arguments)
        head = f"{head}<{inner}>"
    return head + suffix


def declared_type(
    ref: TypeRef, *, name: Namer, bindings: Bindings, method_variables: Collection[str] = (),
    nameable: Callable[[str, bool], bool] = lambda fqn, in_repo: True,
) -> str | None:
    """How a test declares a local of `ref` without `var`; None when some type in it cannot be named.

    The method's own type variables (`method_variables`) are erased: `T` to `Object`, `List<T>` to
    `List<?>`, since what the compiler infers for them depends on the call. `nameable(fqn, in_repo)` says
    whether the test may name a type (a private nested type may not).
    """
    erased = _erase(ref, frozenset(method_variables), top=True)
    if not _nameable(erased, bindings, nameable):
        return None
    return java_type(erased, name=name, bindings=bindings)


def _erase(ref: TypeRef, variables: frozenset[str], *, top: bool) -> TypeRef:
    if not variables or not any(re.search(rf"\b{re.escape(v)}\b", ref.text) for v in variables):
        return ref
    if not top:
        return _UNBOUNDED
    if ref.name in variables and not ref.arguments:
        dims = array_dims(ref)
        return OBJECT.model_copy(update={"text": "Object" + "[]" * dims, "array": dims > 0})
    return ref.model_copy(update={"arguments": tuple(_erase(a, variables, top=False) for a in ref.arguments)})


def _nameable(ref: TypeRef, bindings: Bindings, nameable: Callable[[str, bool], bool]) -> bool:
    element = ref
    while element.array:
        element = element_of(element)
    found = wildcard(element)
    if found is not None:
        return found[1] is None or _nameable(found[1], bindings, nameable)
    if element.name in PRIMITIVES and element.fqn is None:
        return True
    if is_type_variable(element, bindings):
        bound, rest = bind(element, bindings)
        return _nameable(bound, rest, nameable)
    fqn = resolved_fqn(element)
    if fqn is None or not nameable(fqn, element.in_repo):
        return False
    return all(_nameable(a, bindings, nameable) for a in element.arguments)


def is_generic(info: ClassInfo) -> bool:
    return bool(info.type_parameters) and info.kind in (TypeKind.CLASS, TypeKind.RECORD)

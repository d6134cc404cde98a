"""declared_type: how a test declares a local without `var` (Java < 10)."""

from __future__ import annotations

from junitbot.analysis import ClassInfo, MethodInfo, TypeBound, TypeKind, TypeRef
from junitbot.generation.javatypes import STRING, class_bindings, declared_type, method_bindings


def _ref(text: str, name: str, fqn: str | None = None, *arguments: TypeRef, array: bool = False) -> TypeRef:
    return TypeRef(text=text, name=name, fqn=fqn, arguments=arguments, array=array)


def _simple(fqn: str, in_repo: bool) -> str:
    return fqn.rsplit(".", 1)[-1]


T = _ref("T", "T")
K = _ref("K", "K")


def test_the_method_s_own_type_variables_are_erased_and_the_class_s_bound() -> None:
    assert declared_type(T, name=_simple, bindings={}, method_variables=("T",)) == "Object"
    assert declared_type(_ref("T[]", "T", array=True), name=_simple, bindings={}, method_variables=("T",)) == (
        "Object[]")
    listed = _ref("List<T>", "List", "java.util.List", T)
    assert declared_type(listed, name=_simple, bindings={}, method_variables=("T",)) == "List<?>"
    nested = _ref("Map<K, List<T>>", "Map", "java.util.Map", K, listed)
    assert declared_type(nested, name=_simple, bindings={"K": STRING}, method_variables=("T",)) == "Map<String, ?>"
    assert declared_type(listed, name=_simple, bindings={"T": STRING}) == "List<String>"  # the class's T
    assert declared_type(_ref("int[]", "int", array=True), name=_simple, bindings={}) == "int[]"


def test_a_type_the_test_cannot_name_gives_none() -> None:
    unresolved = _ref("Widget", "Widget")
    assert declared_type(unresolved, name=_simple, bindings={}) is None
    hidden = _ref("Outer.Secret", "Outer.Secret", "a.Outer.Secret")
    assert declared_type(hidden, name=_simple, bindings={}, nameable=lambda fqn, in_repo: False) is None
    inside = _ref("List<Widget>", "List", "java.util.List", unresolved)
    assert declared_type(inside, name=_simple, bindings={}) is None


def test_an_unbound_type_variable_takes_its_bound_unless_the_bound_names_it() -> None:
    feature = TypeRef(text="Feature", name="Feature", fqn="a.Feature", in_repo=True)
    comparable = TypeRef(text="Comparable<T>", name="Comparable", fqn="java.lang.Comparable",
                         arguments=(TypeRef(text="T", name="T"),))
    info = ClassInfo(fqn="a.Set", name="Set", package="a", kind=TypeKind.CLASS, file="Set.java",
                     type_parameters=("F", "T", "K"),
                     type_bounds=(TypeBound(name="F", bound=feature), TypeBound(name="T", bound=comparable)))
    assert class_bindings(info, None, {}) == {"F": feature, "T": STRING, "K": STRING}
    number = TypeRef(text="Number", name="Number", fqn="java.lang.Number")
    method = MethodInfo(name="of", type_parameters=("F", "N"), type_bounds=(TypeBound(name="N", bound=number),))
    # The method's own F hides the class's: unbounded there, it is String.
    assert method_bindings(method, {"F": feature}) == {"F": STRING, "N": number}

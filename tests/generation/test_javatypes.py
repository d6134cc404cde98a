"""declared_type: how a test declares a local without `var` (Java < 10)."""

from __future__ import annotations

from junitbot.analysis import TypeRef
from junitbot.generation.javatypes import STRING, declared_type


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

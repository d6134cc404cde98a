"""Carved arguments fitted to a member: only calls of its erased parameter types, only values a test may paste."""

from __future__ import annotations

from junitbot.analysis import ClassInfo, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.imports import ImportSet
from junitbot.generation.template.carved import carved_arguments
from junitbot.generation.template.context import ClassContext, ModuleContext
from junitbot.validation.measure.models import CarvedCall

_STRINGS = TypeRef(text="String[]", name="String", array=True)
_MODE = TypeRef(text="Mode", name="Mode", fqn="demo.Parser.Mode", in_repo=True)


def _context(calls: tuple[CarvedCall, ...], *, mode_modifiers: tuple[str, ...] = ("public",)) -> ClassContext:
    parser = ClassInfo(fqn="demo.Parser", name="Parser", package="demo", kind=TypeKind.CLASS, file="Parser.java",
                       modifiers=("public",))
    mode = ClassInfo(fqn="demo.Parser.Mode", name="Mode", package="demo", kind=TypeKind.ENUM, file="Parser.java",
                     outer="demo.Parser", modifiers=mode_modifiers, enum_constants=("STRICT", "LENIENT"))
    classes = {c.fqn: c for c in (parser, mode)}
    module = ModuleContext(lookup=classes.get, carved={"demo.Parser": calls})
    return ClassContext(module=module, subject=parser, imports=ImportSet("demo"))


def _parse(*types: TypeRef) -> MethodInfo:
    names = ("args", "mode", "other")[:len(types)]
    return MethodInfo(name="parse",
                      parameters=tuple(ParameterInfo(name=n, type=t) for n, t in zip(names, types, strict=True)))


def test_a_carved_call_becomes_declarations_and_an_unrebuilt_value_is_the_made_up_one() -> None:
    calls = (CarvedCall(member="parse", parameters=("java.lang.String[]", "demo.Parser.Mode"),
                        arguments=('new String[] { "-a", "foo" }', "demo.Parser.Mode.LENIENT")),
             CarvedCall(member="parse", parameters=("java.lang.String[]", "demo.Parser.Mode"),
                        arguments=(None, "demo.Parser.Mode.STRICT")),
             CarvedCall(member="parse", parameters=("java.util.List", "demo.Parser.Mode"),  # another overload
                        arguments=("null", "null")))
    generated = ['String[] args = new String[] { "text" };', "Parser.Mode mode = Parser.Mode.STRICT;"]
    found = carved_arguments(_context(calls), _parse(_STRINGS, _MODE), generated, bindings={})
    assert found == [['String[] args = new String[] { "-a", "foo" };', "Parser.Mode mode = Parser.Mode.LENIENT;"],
                     ['String[] args = new String[] { "text" };', "Parser.Mode mode = Parser.Mode.STRICT;"]]


def test_a_type_the_test_cannot_name_or_a_type_variable_leaves_the_call_out() -> None:
    hidden = (CarvedCall(member="parse", parameters=("java.lang.String[]", "demo.Parser.Mode"),
                         arguments=("null", "demo.Parser.Mode.LENIENT")),)
    method = _parse(_STRINGS, _MODE)
    assert carved_arguments(_context(hidden, mode_modifiers=("private",)), method, None, bindings={}) == []
    generic = (CarvedCall(member="parse", parameters=("java.lang.Object",), arguments=('"x"',)),)
    assert carved_arguments(_context(generic), _parse(TypeRef(text="T", name="T")), None,
                            bindings={"T": TypeRef(text="Integer", name="Integer")}) == []


def test_a_carved_list_or_set_is_passed_only_where_its_type_is_taken_and_named_through_the_imports() -> None:
    string = TypeRef(text="String", name="String", fqn="java.lang.String")
    names = TypeRef(text="List<String>", name="List", fqn="java.util.List", arguments=(string,))
    concrete = TypeRef(text="ArrayList<String>", name="ArrayList", fqn="java.util.ArrayList")
    calls = (CarvedCall(member="parse", parameters=("java.util.List",),
                        arguments=('java.util.Arrays.asList("a", "b")',)),
             CarvedCall(member="parse", parameters=("java.util.ArrayList",),
                        arguments=('java.util.Arrays.asList("c")',)),
             CarvedCall(member="parse", parameters=("java.util.List",),
                        arguments=("java.util.concurrent.TimeUnit.SECONDS",)))
    context = _context(calls)
    assert carved_arguments(context, _parse(names), None, bindings={}) == [
        ['List<String> args = Arrays.asList("a", "b");'], ["List<String> args = TimeUnit.SECONDS;"]]
    assert {"java.util.Arrays", "java.util.concurrent.TimeUnit"} <= set(context.imports.imports)
    # An ArrayList parameter cannot take Arrays.asList: the made-up value stands in, or the call is left out.
    assert carved_arguments(_context(calls), _parse(concrete), None, bindings={}) == []


def test_carved_bytes_of_text_are_written_as_that_text_s_bytes_through_the_imports() -> None:
    # The carver writes printable bytes as their text (a codec's tests build their input so), not `(byte) 97, ..`.
    data = TypeRef(text="byte[]", name="byte", array=True)
    calls = (CarvedCall(member="parse", parameters=("byte[]",),
                        arguments=('"a+b c".getBytes(java.nio.charset.StandardCharsets.US_ASCII)',)),)
    context = _context(calls)
    assert carved_arguments(context, _parse(data), None, bindings={}) == [
        ['byte[] args = "a+b c".getBytes(StandardCharsets.US_ASCII);']]
    assert "java.nio.charset.StandardCharsets" in context.imports.imports

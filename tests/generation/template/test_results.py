"""Sequences through returned objects: which results are used, and the calls made on them."""

from __future__ import annotations

from junitbot.analysis import ClassInfo, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.imports import ImportSet
from junitbot.generation.template import ClassContext, ModuleContext
from junitbot.generation.template.final import Written, final_tests
from junitbot.generation.template.observations import Observation, ObservedValue
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.results import result_calls

_TEXT = TypeRef(text="String", name="String", fqn="java.lang.String")
_CODEC_REF = TypeRef(text="Codec", name="Codec", fqn="a.Codec", in_repo=True)
_BUILDER_REF = TypeRef(text="Builder", name="Builder", fqn="a.Builder", in_repo=True)
_CODEC = ClassInfo(fqn="a.Codec", name="Codec", package="a", kind=TypeKind.CLASS, file="Codec.java",
                   modifiers=("public",), methods=(
                       MethodInfo(name="encode", modifiers=("public",), return_type=_TEXT,
                                  parameters=(ParameterInfo(name="text", type=_TEXT),)),
                       MethodInfo(name="of", modifiers=("public", "static"), return_type=_CODEC_REF)))
_BUILDER = ClassInfo(fqn="a.Builder", name="Builder", package="a", kind=TypeKind.CLASS, file="Builder.java",
                     modifiers=("public",), methods=(
                         MethodInfo(name="get", modifiers=("public",), return_type=_CODEC_REF),
                         MethodInfo(name="copy", modifiers=("public",), return_type=_BUILDER_REF)))
_CONTEXT = ClassContext(ModuleContext({c.fqn: c for c in (_CODEC, _BUILDER)}.get), _BUILDER, ImportSet("a"), {})


def _returned(scenario: str, cls: str, *, itself: bool = False) -> Observation:
    return Observation(scenario=scenario, outcome="returned", itself=itself,
                       value=ObservedValue.model_validate({"t": "object", "class": cls}))


def test_an_object_of_another_class_a_call_returned_is_kept_and_its_instance_methods_called() -> None:
    get = Scenario(id="g", method="get", hint="", arrange=("builder.setHex(true);",), call="builder.get()",
                   subject="builder", returns="a.Codec", after=("setHex",))
    (encode,) = result_calls(_CONTEXT, [get], {"g": _returned("g", "a.Codec")}, prefix="t")
    assert encode.arrange[:2] == ("builder.setHex(true);", "Codec codec = builder.get();")
    assert encode.call == "codec.encode(text)" and encode.subject == "codec"  # not the static `of`
    assert encode.after == ("setHex", "get") and encode.hint == "afterSetHexAndGet"


def test_the_subject_s_own_class_itself_and_nothing_are_not_used() -> None:
    copy = Scenario(id="c", method="copy", hint="", call="builder.copy()", subject="builder", returns="a.Builder")
    get = Scenario(id="g", method="get", hint="", call="builder.get()", subject="builder", returns="a.Codec")
    assert result_calls(_CONTEXT, [copy], {"c": _returned("c", "a.Builder")}, prefix="t") == []
    assert result_calls(_CONTEXT, [get], {"g": _returned("g", "a.Codec", itself=True)}, prefix="t") == []
    nothing = Observation(scenario="g", outcome="returned", value=ObservedValue(t="null"))
    assert result_calls(_CONTEXT, [get], {"g": nothing}, prefix="t") == []
    assert result_calls(_CONTEXT, [get], {"g": _returned("g", "java.lang.StringBuilder")}, prefix="t") == []


def test_an_inherited_method_is_called_and_each_configured_object_gets_its_share() -> None:
    # CODEC-343: `Base32` encodes through `BaseNCodec.encode(byte[])`, and its own methods (a dozen with a context)
    # took every call on the unconfigured `builder.get()` before the one after `setHexDecodeTable(true)`.
    base = ClassInfo(fqn="a.Base", name="Base", package="a", kind=TypeKind.CLASS, file="Base.java",
                     modifiers=("public", "abstract"), methods=(
                         MethodInfo(name="encode", modifiers=("public",), return_type=_TEXT,
                                    parameters=(ParameterInfo(name="text", type=_TEXT),)),
                         MethodInfo(name="reset", modifiers=("protected",))))
    own = tuple(MethodInfo(name=f"encode{n}", modifiers=("public",),
                           parameters=tuple(ParameterInfo(name=f"p{i}", type=_TEXT) for i in range(3)))
                for n in range(6))
    wide = ClassInfo(fqn="a.Wide", name="Wide", package="a", kind=TypeKind.CLASS, file="Wide.java",
                     modifiers=("public",), extends=(TypeRef(text="Base", name="Base", fqn="a.Base", in_repo=True),),
                     methods=own)
    context = ClassContext(ModuleContext({c.fqn: c for c in (base, wide, _BUILDER)}.get), _BUILDER,
                           ImportSet("a"), {})
    starts = [Scenario(id=f"g{n}", method="get", hint="", arrange=(f"builder.set{n}();",) if n else (),
                       call="builder.get()", subject="builder", returns="a.Wide", after=(f"set{n}",) if n else ())
              for n in range(3)]
    found = result_calls(context, starts, {s.id: _returned(s.id, "a.Wide") for s in starts}, prefix="t")
    assert [s.after for s in found].count(("set2", "get")) == 4  # the last configured object has its share
    assert [s.call for s in found[:2]] == ["wide.encode(text)", "wide.encode0(p0, p1, p2)"]  # returns first
    assert not any("reset" in s.call for s in found)  # protected, inherited: not a user's call


def test_a_setter_that_returns_its_builder_is_said_by_the_sequence_through_it_not_by_assert_same() -> None:
    # CODEC-343's maintainer read: `assertSame(builder, result)` after `setHexDecodeTable(true)` says nothing the
    # sequence `setHexDecodeTable(true)`, `get()`, `decode(..)` does not say better.
    set_hex = Scenario(id="s", method="setHex", hint="", arrange=("boolean hex = true;",), call="builder.setHex(hex)",
                       subject="builder", returns="a.Builder")
    encode = Scenario(id="e", method="encode", hint="afterSetHexAndGet",
                      arrange=("builder.setHex(true);", "Codec codec = builder.get();", 'String text = "a";'),
                      call="codec.encode(text)", subject="codec", returns="java.lang.String", after=("setHex", "get"))
    seen = {"s": _returned("s", "a.Builder", itself=True),
            "e": Observation(scenario="e", outcome="returned", value=ObservedValue(t="String", v="61"))}
    alone, names = final_tests([set_hex], seen, context=_CONTEXT, written=Written())
    assert names == ["setHex_returnsItself"] and "assertSame(builder, result);" in alone.methods[names[0]]
    _, names = final_tests([set_hex, encode], seen, context=_CONTEXT, written=Written())
    assert names == ["encode_afterSetHexAndGet_returns61"], names

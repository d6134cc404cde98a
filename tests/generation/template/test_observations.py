"""Recorder output parsing, stability across runs, and the assertions written from observations."""

from __future__ import annotations

import json

from junitbot.analysis import ClassInfo, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.imports import ImportSet
from junitbot.generation.template.assertions import Asserting, assertj_statement, value_assertions, verify_lines
from junitbot.generation.template.observations import ObservedCall, ObservedValue, parse_observations, stable


def _lines(*records: dict[str, object]) -> str:
    return "\n".join(json.dumps(r) for r in records) + "\n"


def test_parse_observations_pairs_outcomes_with_calls_and_skips_garbage() -> None:
    text = _lines(
        {"scenario": "a", "kind": "returned", "value": {"t": "Integer", "v": "5"}},
        {"scenario": "a", "kind": "calls", "calls": [{"mock": "repo", "method": "save", "arguments": 1}]},
        {"scenario": "b", "kind": "threw", "type": "java.lang.IllegalStateException", "message": "boom"},
        {"scenario": "c", "kind": "void"},
    ) + "not json\n{\"scenario\": \"d\"}\n"
    observed = parse_observations(text)
    assert set(observed) == {"a", "b", "c"}
    assert observed["a"].outcome == "returned" and observed["a"].value == ObservedValue(t="Integer", v="5")
    assert observed["a"].calls == (ObservedCall(mock="repo", method="save", arguments=1),)
    assert (observed["b"].exception, observed["b"].message) == ("java.lang.IllegalStateException", "boom")
    assert observed["c"].outcome == "void"


def test_a_text_holding_a_line_separator_other_than_a_newline_is_one_observation() -> None:
    # The recorder writes U+2028, U+2029 and NEL raw inside a JSON string (JSON allows them), where `splitlines`
    # ends a line: commons-lang's escapers returned such texts, and each such line was lost as two malformed ones.
    odd = "a\u2028b\x85c\u2029e"
    text = '{"scenario": "a", "kind": "returned", "value": {"t": "String", "v": "' + odd + '"}}\n'
    assert parse_observations(text)["a"].value == ObservedValue(t="String", v=odd)


def test_stable_keeps_what_both_runs_agree_on() -> None:
    first = parse_observations(_lines(
        {"scenario": "a", "kind": "returned", "value": {"t": "record", "class": "p.R", "components": {
            "id": {"t": "String", "v": "x"}, "at": {"t": "object", "class": "java.time.Instant", "text": "1"}}}}))
    second = parse_observations(_lines(
        {"scenario": "a", "kind": "returned", "value": {"t": "record", "class": "p.R", "components": {
            "id": {"t": "String", "v": "x"}, "at": {"t": "object", "class": "java.time.Instant", "text": "2"}}}}))
    kept = stable(first["a"], second["a"])
    assert kept.value is not None and kept.value.components is not None
    assert kept.value.components["id"].v == "x"
    assert kept.value.components["at"].text is None  # time differed between the runs
    changed = parse_observations(_lines({"scenario": "a", "kind": "threw", "type": "X", "message": None}))
    assert stable(first["a"], changed["a"]).outcome == "missing"


def test_value_assertions_for_each_shape() -> None:
    imports = ImportSet("com.acme")

    def check(value: dict[str, object]) -> list[str]:
        return value_assertions(ObservedValue.model_validate(value), "result", Asserting(imports))

    assert check({"t": "null"}) == ["assertNull(result);"]
    assert check({"t": "String", "v": 'say "hi"'}) == ['assertEquals("say \\"hi\\"", result);']
    assert check({"t": "Long", "v": "7"}) == ["assertEquals(7L, result);"]
    assert check({"t": "Double", "v": "1.5"}) == ["assertEquals(1.5, result, 1e-9);"]
    assert check({"t": "Boolean", "v": "false"}) == ["assertFalse(result);"]
    assert check({"t": "BigDecimal", "v": "3.50"}) == ['assertEquals(new BigDecimal("3.50"), result);']
    # joda-money's `plus(Double.MAX_VALUE)` wrote a 300-digit literal no reader checks: a long number by its shape.
    assert check({"t": "BigDecimal", "v": "1797693134862315" + "0" * 293 + "10.00"}) == [
        "assertEquals(1, result.signum());", "assertEquals(313, result.precision());",
        "assertEquals(2, result.scale());"]
    assert check({"t": "BigInteger", "v": "-" + "9" * 45}) == [
        "assertEquals(-1, result.signum());", f"assertEquals({(10**45 - 2).bit_length()}, result.bitLength());"]
    assert check({"t": "enum", "class": "com.acme.Status", "v": "OPEN"}) == ["assertEquals(Status.OPEN, result);"]
    assert check({"t": "Optional", "present": False}) == ["assertFalse(result.isPresent());"]
    assert check({"t": "Collection", "class": "java.util.ArrayList", "size": 1,
                  "items": [{"t": "Integer", "v": "2"}]}) == [
        "assertEquals(1, result.size());", "assertEquals(2, result.get(0));"]
    assert check({"t": "record", "class": "com.acme.Point", "components": {"x": {"t": "Integer", "v": "1"}}}) == [
        "assertNotNull(result);", "assertEquals(1, result.x());"]
    assert "java.math.BigDecimal" in imports.imports
    # A repo object that renders itself is checked by its text; Object's rendering and a JDK type's are not.
    assert check({"t": "object", "class": "com.acme.TextBuilder", "text": "ab"}) == [
        'assertEquals("ab", result.toString());']
    assert check({"t": "object", "class": "com.acme.Flags", "text": "com.acme.Flags@1b6d3586"}) == [
        "assertNotNull(result);"]
    assert check({"t": "object", "class": "java.lang.Thread", "text": "Thread[main]"}) == ["assertNotNull(result);"]
    assert check({"t": "object", "class": "com.acme.TextBuilder", "text": "x" * 200}) == ["assertNotNull(result);"]


def test_an_array_the_recorder_read_whole_is_compared_whole() -> None:
    # A codec's result said only by its length cannot tell "ORSXG5A=" from any other eight bytes.
    imports = ImportSet("com.acme")

    def check(cls: str, kind: str, *values: str) -> list[str]:
        value = {"t": "Array", "class": cls, "size": len(values), "items": [{"t": kind, "v": v} for v in values]}
        return value_assertions(ObservedValue.model_validate(value), "result", Asserting(imports))

    assert check("[B", "Byte", "79", "82", "61") == [
        'assertEquals("OR=", new String(result, StandardCharsets.US_ASCII));']
    assert "java.nio.charset.StandardCharsets" in imports.imports
    assert check("[B", "Byte", "-50", "1") == ["assertArrayEquals(new byte[] { (byte) -50, (byte) 1 }, result);"]
    # `'\u0027'` would not compile: javac reads the escape as a quote before it reads the literal.
    assert check("[C", "Character", "a", "'") == ["assertArrayEquals(new char[] { 'a', '\\'' }, result);"]
    assert check("[Ljava.lang.String;", "String", "-a", "b") == [
        'assertArrayEquals(new String[] { "-a", "b" }, result);']
    assert check("[J", "Long", *["1"] * 17) == ["assertEquals(17, result.length);"]  # a table, not a test
    assert check("[D", "Double", "1.5") == ["assertEquals(1, result.length);"]
    unread = {"t": "Array", "class": "[I", "size": 3}  # more than the recorder reads, or an older recorder
    assert value_assertions(ObservedValue.model_validate(unread), "result", Asserting(imports)) == [
        "assertEquals(3, result.length);"]
    assert assertj_statement("assertArrayEquals(new int[] { 1, 2 }, result);") == (
        "assertThat(result).containsExactly(new int[] { 1, 2 });")


def test_values_of_another_runtime_class_are_checked_and_cast() -> None:
    imports = ImportSet("com.acme")
    value = ObservedValue.model_validate({"t": "record", "class": "com.acme.Result$Ok",
                                          "components": {"value": {"t": "record", "class": "com.acme.Id"}}})
    lines = value_assertions(value, "result", Asserting(imports), declared="com.acme.Result")
    assert lines == ["assertTrue(result instanceof Result.Ok);", "assertNotNull(((Result.Ok) result).value());"]


def _method(name: str, parameter_type: str) -> MethodInfo:
    parameter = ParameterInfo(name="p", type=TypeRef(text=parameter_type, name=parameter_type))
    return MethodInfo(name=name, parameters=(parameter,))


def test_verify_lines_use_typed_matchers_and_bound_type_variables() -> None:
    order = TypeRef(text="Order", name="Order", fqn="com.acme.Order", in_repo=True)
    base = ClassInfo(fqn="com.acme.Repository", name="Repository", package="com.acme", kind=TypeKind.INTERFACE,
                     file="R.java", type_parameters=("T",),
                     methods=(_method("save", "T"), _method("count", "int")))
    repo = ClassInfo(fqn="com.acme.Orders", name="Orders", package="com.acme", kind=TypeKind.INTERFACE, file="O.java",
                     extends=(TypeRef(text="Repository<Order>", name="Repository", fqn="com.acme.Repository",
                                      in_repo=True, arguments=(order,)),))
    infos = {info.fqn: info for info in (base, repo)}
    calls = (ObservedCall(mock="orders", method="save", arguments=1),
             ObservedCall(mock="orders", method="save", arguments=1),
             ObservedCall(mock="orders", method="count", arguments=1),
             ObservedCall(mock="orders", method="unknown", arguments=0))
    lines = verify_lines(calls, Asserting(ImportSet("com.acme")), mock_types={"orders": "com.acme.Orders"},
                         class_info=infos.get)
    # In the order the code made the calls.
    assert lines == ["verify(orders, times(2)).save(any(Order.class));", "verify(orders).count(anyInt());"]


def test_state_before_and_after_a_call_gives_what_changed() -> None:
    def state(when: str, size: int) -> dict[str, object]:
        return {"scenario": "a", "kind": "state", "when": when,
                "value": {"t": "object", "class": "p.Order", "components": {
                    "lines": {"t": "Collection", "class": "java.util.ArrayList", "size": size},
                    "id": {"t": "String", "v": "o-1"}}}}

    text = _lines(state("before", 0), {"scenario": "a", "kind": "void"}, state("after", 1))
    observed = parse_observations(text)["a"]
    assert observed.outcome == "void"
    assert set(observed.changed_state()) == {"lines"}
    kept = stable(observed, parse_observations(text)["a"])
    assert kept.changed_state()["lines"].size == 1


def test_test_names_in_either_style() -> None:
    from junitbot.generation.style import test_name

    parts = ["placeOrder", "whenStockIsEmpty", "throwsOutOfStock"]
    assert test_name(parts, "underscore") == "placeOrder_whenStockIsEmpty_throwsOutOfStock"
    assert test_name(parts, "camel") == "placeOrderWhenStockIsEmptyThrowsOutOfStock"
    assert test_name(["total", "", "returnsValue"], "underscore") == "total_returnsValue"

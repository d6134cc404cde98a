"""Boundary families: tests that differ only in literals become one parameterized test."""

from __future__ import annotations

from junitbot.analysis import ClassInfo, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.imports import ImportSet
from junitbot.generation.template import ClassContext, ModuleContext
from junitbot.generation.template.context import Style
from junitbot.generation.template.families import Family, Member, families
from junitbot.generation.template.final import Written, _difference, _inputs, final_tests
from junitbot.generation.template.naming import family_name
from junitbot.generation.template.observations import Observation, ObservedValue
from junitbot.generation.template.probe import Scenario


def _rejects(value: str) -> Member:
    return Member(method="percentage", name=f"rejects{value}", outcome="threw IllegalArgumentException", body=(
        "// Arrange", f"int percent = {value};", "// Act + Assert",
        "IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, "
        "() -> money.percentage(percent));",
        f'assertEquals("percent must be between 0 and 100: {value}", thrown.getMessage());'))


def test_a_family_takes_its_arguments_and_messages_as_parameters() -> None:
    imports = ImportSet("com.acme")
    (family,) = families([_rejects("101"), _rejects("-1")], imports=imports)
    assert family.members == ("rejects101", "rejects-1")
    assert family.parameters == ("int percent", "String message")
    assert family.arguments == ("percent",)
    assert family.annotations == (
        "@ParameterizedTest",
        "@CsvSource({\"101, 'percent must be between 0 and 100: 101'\", "
        "\"-1, 'percent must be between 0 and 100: -1'\"})")
    assert family.body[0] == "// Act + Assert"  # the arranged value is the parameter now
    assert family.body[-1] == "assertEquals(message, thrown.getMessage());"
    assert "org.junit.jupiter.params.provider.CsvSource" in imports.imports


def test_one_parameter_takes_a_value_source_or_an_enum_source() -> None:
    def member(value: str) -> Member:
        return Member(method="convert", name=value, outcome="returned",
                      body=(f"Currency currency = {value};", "var result = money.convert(currency);",
                            "assertTrue(result.isZero());"))

    imports = ImportSet("com.acme")
    (family,) = families([member("Currency.EUR"), member("Currency.USD")], imports=imports,
                         is_enum=lambda name: name == "Currency")
    assert family.annotations[1] == '@EnumSource(value = Currency.class, names = {"EUR", "USD"})'
    assert not families([member("Currency.EUR"), member("Currency.USD")], imports=imports)  # not known as enum

    texts = [Member(method="trim", name=v, outcome="returned",
                    body=(f"String text = {v};", "var result = Text.trim(text);", "assertTrue(result.isEmpty());"))
             for v in ('""', '" "')]
    (strings,) = families(texts, imports=ImportSet("com.acme"))
    assert strings.annotations[1] == '@ValueSource(strings = {"", " "})'


def test_different_code_or_outcome_is_no_family() -> None:
    other = Member(method="percentage", name="other", outcome="threw IllegalStateException",
                   body=_rejects("7").body)
    assert not families([_rejects("101"), other], imports=ImportSet("com.acme"))
    assert not families([_rejects("101")], imports=ImportSet("com.acme"))


def test_unusual_text_stays_escaped_in_the_annotation() -> None:
    # A lone surrogate (commons-lang's escape tests pass "\uD800") cannot be written to a UTF-8 file as it is; a
    # tab and a non-ASCII letter survive as their escapes.
    texts = [Member(method="escape", name=str(i), outcome="returned",
                    body=(f"String text = {v};", "var result = Text.escape(text);", "assertTrue(result.isEmpty());"))
             for i, v in enumerate(('"\\ud800"', '"a\\tb"', '"caf\\u00e9"'))]
    (family,) = families(texts, imports=ImportSet("com.acme"))
    annotation = family.annotations[1]
    assert annotation == '@ValueSource(strings = {"\\ud800", "a\\tb", "caf\\u00e9"})', annotation
    annotation.encode("utf-8")


def test_a_literal_passed_to_the_method_takes_its_parameter_name() -> None:
    # commons-lang's DurationFormatUtils: the flags varied between seeds were named `resultValue`, `resultValue2`
    # after the line's local, where the method calls them suppressLeadingZeroElements and ...Trailing...
    def member(leading: str, trailing: str, words: str) -> Member:
        return Member(method="formatDurationWords", name=f"{leading}{trailing}", outcome="returned",
                      callee="formatDurationWords",
                      overloads=(("durationMillis", "suppressLeadingZeroElements", "suppressTrailingZeroElements"),),
                      body=("String result = DurationFormatUtils.formatDurationWords("
                            f"7200000L, {leading}, {trailing});",
                            f'assertEquals("{words}", result);'))

    (family,) = families([member("true", "false", "2 hours 0 minutes 0 seconds"),
                          member("false", "true", "0 days 2 hours")], imports=ImportSet("org.apache"))
    assert family.parameters == ("boolean suppressLeadingZeroElements", "boolean suppressTrailingZeroElements",
                                 "String expected")
    assert family.arguments == ("suppressLeadingZeroElements", "suppressTrailingZeroElements")
    assert family.body[0] == ("String result = DurationFormatUtils.formatDurationWords(7200000L, "
                              "suppressLeadingZeroElements, suppressTrailingZeroElements);")


def test_overloads_that_name_a_parameter_differently_leave_the_local_name() -> None:
    def member(value: str) -> Member:
        return Member(method="pad", name=value, outcome="returned", callee="pad",
                      overloads=(("text", "size"), ("text", "width")),
                      body=(f'String result = Text.pad("a", {value});', "assertNotNull(result);"))

    (family,) = families([member("1"), member("2")], imports=ImportSet("org.acme"))
    assert family.parameters == ("int resultValue",)


def test_two_families_of_one_method_are_named_by_what_each_holds_fixed_not_numbered() -> None:
    """Issue 29 item 5: `squeeze` with no set and with a set are two families; the second is named after its set
    (`whenSetIsX`), not `...2`."""
    text = TypeRef(text="String", name="String", fqn="java.lang.String")
    squeeze = MethodInfo(name="squeeze", modifiers=("public", "static"), return_type=text,
                         parameters=(ParameterInfo(name="str", type=text), ParameterInfo(name="set", type=text)))
    subject = ClassInfo(fqn="a.Squeezer", name="Squeezer", package="a", kind=TypeKind.CLASS, file="Squeezer.java",
                        modifiers=("public",), methods=(squeeze,))
    module = ModuleContext({subject.fqn: subject}.get, style=Style(parameterized=True))
    context = ClassContext(module, subject, ImportSet("a"), {})
    rows = [("n1", '"ab"', "null", "ab"), ("n2", '"cd"', "null", "cd"),
            ("x1", '"aab"', '"a"', "aab!"), ("x2", '"aad"', '"a"', "aad!")]
    scenarios = [Scenario(id=i, method="squeeze", hint=f"when{i}", call="Squeezer.squeeze(str, set)",
                          arrange=(f"String str = {s};", f"String set = {t};")) for i, s, t, _ in rows]
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="String", v=v))
            for i, _, _, v in rows}
    written, names = final_tests(scenarios, seen, context=context, written=Written())
    assert len(names) == 2 and not any(name[-1].isdigit() for name in names), names
    assert "squeeze_whenSetIsA_returnsResultForEachStr" in names, names
    assert 'String set = "a";' in written.methods["squeeze_whenSetIsA_returnsResultForEachStr"]


def _one_method(owner: str, method: str, parameter: ParameterInfo) -> ClassContext:
    """The context of `a.<owner>`, whose static `int <method>(<parameter>)` the scenarios call."""
    member = MethodInfo(name=method, modifiers=("public", "static"), return_type=TypeRef(text="int", name="int"),
                        parameters=(parameter,))
    subject = ClassInfo(fqn=f"a.{owner}", name=owner, package="a", kind=TypeKind.CLASS, file=f"{owner}.java",
                        modifiers=("public",), methods=(member,))
    return ClassContext(ModuleContext({subject.fqn: subject}.get), subject, ImportSet("a"), {})


def _letters() -> ClassContext:
    """`a.Letters`, whose static `int code(char c)` the scenarios call."""
    return _one_method("Letters", "code", ParameterInfo(name="c", type=TypeRef(text="char", name="char")))


def test_an_input_tried_for_a_change_is_written_even_where_its_outcome_repeats_another() -> None:
    # CODEC-311: `getMappingCode(' ')` and `getMappingCode('\u00e9')` both return 0 after the fix; only the second
    # takes the fix's path (and throws before it), so a run catching the change must not drop it as a repeat.
    context = _letters()
    blank = Scenario(id="s1", method="code", hint="whenCIsBlank", call="Letters.code(c)", arrange=("char c = ' ';",))
    letter = Scenario(id="s2", method="code", hint="whenCIsNonAscii", call="Letters.code(c)",
                      arrange=("char c = '\\u00e9';",))
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="Integer", v="0"))
            for i in ("s1", "s2")}
    _, names = final_tests([blank, letter], seen, context=context, written=Written())
    assert names == ["code_whenCIsBlank_returns0"], names
    for flag in ("for_change", "distinct"):  # `distinct`: equals false for one attribute, not for another class
        _, names = final_tests([blank, letter.model_copy(update={flag: True})], seen, context=context,
                               written=Written())
        assert len(names) == 2, (flag, names)


def test_two_tests_of_one_name_are_told_apart_by_the_value_that_differs_not_numbered() -> None:
    # commons-codec's MatchRatingApproachEncoder got `encodeReturnsEmptyText` and `encodeReturnsEmptyText2`.
    context = _letters()
    first = Scenario(id="s1", method="code", hint="", call="Letters.code(c)", arrange=("char c = 'a';",))
    second = Scenario(id="s2", method="code", hint="", call="Letters.code(c)", arrange=("char c = '-';",),
                      for_change=True)
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="Integer", v="0"))
            for i in ("s1", "s2")}
    _, names = final_tests([first, second], seen, context=context, written=Written())
    assert names == ["code_returns0", "code_whenCIsPunctuation_returns0"], names


def test_a_long_source_gives_each_row_a_line_of_its_own() -> None:
    # commons-codec's PhoneticEngine family was one @CsvSource line of 1,800 characters.
    (family,) = families([_rejects(str(value)) for value in (101, 150, 200, 1000, -1, -50)],
                         imports=ImportSet("com.acme"))
    head, *rows, tail = family.annotations[1].split("\n")
    assert head == "@CsvSource({" and tail == "})"
    assert rows[0] == "    \"101, 'percent must be between 0 and 100: 101'\","
    assert rows[-1] == "    \"-50, 'percent must be between 0 and 100: -50'\""
    assert len(rows) == 6 and all(len(line) <= 116 for line in rows)


def test_a_local_of_its_own_is_a_parameter_of_its_own_even_where_its_values_repeat_another() -> None:
    """joda-money's registerCurrency family wrote `int decimalPlaces = numericCurrencyCode;`: two locals that held
    the same values in every row were aliased, which reads as if they were meant to be equal."""
    def member(code: str, number: str) -> Member:
        return Member(method="registerCurrency", name=f"rejects{code}", outcome="threw IllegalArgumentException",
                      callee="registerCurrency", overloads=(("currencyCode", "numericCurrencyCode", "decimalPlaces"),),
                      body=("// Arrange", f"String currencyCode = {code};", f"int numericCurrencyCode = {number};",
                            f"int decimalPlaces = {number};", "// Act + Assert",
                            "assertThrows(IllegalArgumentException.class, () -> provider.registerCurrency("
                            "currencyCode, numericCurrencyCode, decimalPlaces));"))

    (family,) = families([member('"A"', "1"), member('"ABCD"', "2")], imports=ImportSet("org.joda"))
    assert family.parameters == ("String currencyCode", "int numericCurrencyCode", "int decimalPlaces")
    assert family.annotations[1] == "@CsvSource({\"'A', 1, 1\", \"'ABCD', 2, 2\"})"
    assert not any("= numericCurrencyCode" in line for line in family.body), family.body
    # A literal passed straight on that repeats a column is still that column's parameter (`zero(EUR)` is `EUR`).
    repeated = [Member(method="add", name=v, outcome="returned", callee="add", overloads=(("a", "b"),),
                       body=(f"int a = {v};", f"int result = Calc.add(a, {v});", "assertTrue(result > 0);"))
                for v in ("1", "2")]
    (same,) = families(repeated, imports=ImportSet("org.acme"))
    assert same.parameters == ("int a",) and same.body[0] == "int result = Calc.add(a, a);"


def test_two_tests_of_one_name_that_differ_in_a_passed_value_are_named_by_it_not_numbered() -> None:
    # joda-money's scratch run kept ten numbered siblings: their values were passed straight to the method.
    context = _letters()
    first = Scenario(id="s1", method="code", hint="", call="Letters.code('a')")
    second = Scenario(id="s2", method="code", hint="", call="Letters.code('-')", for_change=True)
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="Integer", v="0"))
            for i in ("s1", "s2")}
    _, names = final_tests([first, second], seen, context=context, written=Written())
    assert names == ["code_returns0", "code_withPunctuation_returns0"], names


def test_a_distinct_input_is_written_beside_the_same_outcome_unless_its_texts_are_made_up() -> None:
    # StrTokenizer's `tokenize(null, 1, 1)` returns what `tokenize({'a'}, 1, 1)` does and is written all the same;
    # WordUtils' `wrap("text", 1, null, true, "text")` beside `wrap("text", 1, "\n", true, "text")` says nothing.
    context = _letters()
    first = Scenario(id="s1", method="code", hint="", call="Letters.code(c, s)",
                     arrange=("char c = 'a';", 'String s = "text";'))
    chosen = Scenario(id="s2", method="code", hint="whenCIsNull", call="Letters.code(c, s)",
                      arrange=("Character c = null;", 'String s = "x-1";'), distinct=True)
    made_up = Scenario(id="s3", method="code", hint="whenSIsNull", call="Letters.code(c, s)",
                       arrange=("char c = 'b';", 'String s = "text";'), distinct=True)
    emptied = Scenario(id="s4", method="code", hint="whenCsIsEmpty", call="Letters.code(cs, s)",
                       arrange=("char[] cs = new char[0];", 'String s = "text";'), distinct=True)
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="Integer", v="0"))
            for i in ("s1", "s2", "s3", "s4")}
    _, names = final_tests([first, chosen, made_up, emptied], seen, context=context, written=Written())
    # An empty container is a chosen input: beside made-up text it is what the test is about.
    assert [n.split("_")[1] for n in names] == ["returns0", "whenCIsNull", "whenCsIsEmpty"], names


def test_a_namesake_with_a_local_the_other_has_not_is_named_by_that_local() -> None:
    # commons-lang's `wrap` overloads: the five-argument family got `withText` (a value both families pass) where
    # what tells it apart is the argument the other overload has not (`withWrapOn`).
    context = _letters()
    first = Scenario(id="s1", method="code", hint="", call="Letters.code(c)", arrange=("char c = 'a';",))
    second = Scenario(id="s2", method="code", hint="", call="Letters.code(wrapOn)",
                      arrange=("char c = 'a';", "char wrapOn = 'a';"), for_change=True)
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="Integer", v="0"))
            for i in ("s1", "s2")}
    _, names = final_tests([first, second], seen, context=context, written=Written())
    assert names == ["code_returns0", "code_withWrapOn_returns0"], names


def test_telling_namesakes_apart_reads_a_huge_line_at_once() -> None:
    # The declaration pattern is possessive: a line of 60,000 characters that declares nothing takes no time
    # (the first pattern took 0.16 s at 6,000 characters, quadratically more beyond).
    huge = "a" * 30_000 + " " * 30_000
    assert _difference([huge, "char wrapOn = 'a';"], "void code_returns0() {}") == "withWrapOn"


def test_the_families_of_two_overloads_are_named_by_the_parameter_type_that_differs_not_numbered() -> None:
    # joda-money's scratch run: `ofNumericCode(String)` and `ofNumericCode(int)` rejecting codes gave
    # `ofNumericCode_throwsIllegalCurrency` and `ofNumericCode_throwsIllegalCurrency2`.
    text, number = TypeRef(text="String", name="String", fqn="java.lang.String"), TypeRef(text="int", name="int")
    overloads = tuple(MethodInfo(name="ofCode", modifiers=("public", "static"), return_type=text,
                                 parameters=(ParameterInfo(name="code", type=kind),)) for kind in (text, number))
    subject = ClassInfo(fqn="a.Unit", name="Unit", package="a", kind=TypeKind.CLASS, file="Unit.java",
                        modifiers=("public",), methods=overloads)
    context = ClassContext(ModuleContext({subject.fqn: subject}.get, style=Style(parameterized=True)), subject,
                           ImportSet("a"), {})
    rows = [("s1", 'String code = "x";'), ("s2", 'String code = "y";'), ("i1", "int code = 1;"),
            ("i2", "int code = 2;")]
    scenarios = [Scenario(id=i, method="ofCode", hint="", call="Unit.ofCode(code)", arrange=(line,))
                 for i, line in rows]
    seen = {i: Observation(scenario=i, outcome="threw", exception="java.lang.IllegalArgumentException",
                           message=f"Unknown {i}") for i, _ in rows}
    _, names = final_tests(scenarios, seen, context=context, written=Written())
    assert len(names) == 2 and not any(name[-1].isdigit() for name in names), names
    assert "ofCode_whenCodeIsInt_throwsIllegalArgument" in names, names
    # Overloads whose parameters are named apart (`minus(BigMoneyProvider moneyToSubtract)`, `minus(double
    # amountToSubtract)`): the second is named after its own.
    renamed = [s.model_copy(update={"call": "Unit.ofCode(number)",
                                    "arrange": (s.arrange[0].replace("code", "number"),)})
               if s.id.startswith("i") else s for s in scenarios]
    _, names = final_tests(renamed, seen, context=context, written=Written())
    assert sorted(names) == ["ofCode_throwsIllegalArgument", "ofCode_withNumber_throwsIllegalArgument"], names


def test_a_receiver_rebuilt_negative_is_written_only_where_the_result_differs() -> None:
    # joda-money: `getCurrencyUnit()` on USD -10.00 and on USD 0.00 said what it said on USD 10.00.
    text = TypeRef(text="String", name="String", fqn="java.lang.String")
    methods = tuple(MethodInfo(name=name, modifiers=("public",), return_type=text) for name in ("currency", "sign"))
    subject = ClassInfo(fqn="a.Amount", name="Amount", package="a", kind=TypeKind.CLASS, file="Amount.java",
                        modifiers=("public",), methods=methods)
    context = ClassContext(ModuleContext({subject.fqn: subject}.get), subject, ImportSet("a"), {})

    def scenario(method: str, hint: str, arrange: tuple[str, ...]) -> Scenario:
        return Scenario(id=f"{method}{hint}", method=method, hint=hint, call=f"amount.{method}()", arrange=arrange,
                        subject="amount")

    def seen(value: str, amount: str) -> tuple[ObservedValue, ObservedValue]:
        return ObservedValue(t="String", v=value), ObservedValue(t="object", components={
            "amount": ObservedValue(t="String", v=amount)})

    rows = [("currency", "", (), "USD", "10.00"),
            ("currency", "whenAmountIsNegative", ('amount = Amount.of("-10.00");',), "USD", "-10.00"),
            ("sign", "", (), "+", "10.00"),
            ("sign", "whenAmountIsNegative", ('amount = Amount.of("-10.00");',), "-", "-10.00")]
    scenarios, observations = [], {}
    for method, hint, arrange, value, amount in rows:
        made = scenario(method, hint, arrange)
        result, state = seen(value, amount)
        scenarios.append(made)
        observations[made.id] = Observation(scenario=made.id, outcome="returned", value=result, before=state,
                                            after=state)
    _, names = final_tests(scenarios, observations, context=context, written=Written())
    assert sorted(names) == ["currency_returnsUsd", "sign_returnsText", "sign_whenAmountIsNegative_returnsText"], names


def test_two_tests_of_overloads_taking_one_parameter_name_are_named_by_its_type() -> None:
    # joda-money: `total(BigMoneyProvider... monies)` and `total(Iterable<..> monies)` both rejecting null gave
    # `total_rejectsNullMonies2`.
    other = "void total_rejectsNullMonies() {\n    BigMoneyProvider monies = null;\n    assertThrows(..);\n}\n"
    body = ["// Arrange", "Iterable<? extends BigMoneyProvider> monies = null;", "// Act + Assert", "assertThrows(..);"]
    assert _difference(body, other) == "whenMoniesIsIterable"
    assert _difference(["BigMoneyProvider monies = null;", "assertThrows(..);"], other) is None


def _static_text_method(owner: str, method: str, parameter: str, *, parameterized: bool = False) -> ClassContext:
    """The context of `a.<owner>`, whose one method is `static String <method>(String <parameter>)`."""
    text = TypeRef(text="String", name="String", fqn="java.lang.String")
    member = MethodInfo(name=method, modifiers=("public", "static"), return_type=text,
                        parameters=(ParameterInfo(name=parameter, type=text),))
    subject = ClassInfo(fqn=f"a.{owner}", name=owner, package="a", kind=TypeKind.CLASS, file=f"{owner}.java",
                        modifiers=("public",), methods=(member,))
    module = ModuleContext({subject.fqn: subject}.get, style=Style(parameterized=parameterized))
    return ClassContext(module, subject, ImportSet("a"), {})


def test_a_family_found_again_in_a_later_round_gets_its_rows_not_a_numbered_sibling() -> None:
    # joda-money: `parse_rejectsInvalidMoneyStr` and `parse_rejectsInvalidMoneyStr2`, one body, rows from two rounds.
    context = _static_text_method("Unit", "parse", "code", parameterized=True)

    def round_of(values: tuple[str, ...]) -> tuple[list[Scenario], dict[str, Observation]]:
        scenarios = [Scenario(id=v, method="parse", hint="", call="Unit.parse(code)",
                              arrange=(f'String code = "{v}";',)) for v in values]
        return scenarios, {v: Observation(scenario=v, outcome="threw", exception="java.lang.IllegalArgumentException",
                                          message=f"bad {v}") for v in values}

    written, first = final_tests(*round_of(("x", "y")), context=context, written=Written())
    written, second = final_tests(*round_of(("z", "w")), context=context, written=written)
    assert first == ["parse_throwsIllegalArgument"] and second == [], (first, second)
    (method,) = written.methods.values()
    assert "\"'x', 'bad x'\", \"'y', 'bad y'\", \"'z', 'bad z'\", \"'w', 'bad w'\"" in method, method


def test_a_call_that_handed_its_text_back_goes_where_another_test_of_the_method_computed_one() -> None:
    # commons-lang's DurationFormatUtils: `formatDuration(d, "text")` is "text" for any implementation; beside
    # `formatDuration(d, ISO_EXTENDED_FORMAT_PATTERN)`, which renders the duration, it says nothing.
    context = _static_text_method("Texts", "trim", "str")
    rows = [("same", '"text"', "text"), ("padded", '"  Text  "', "Text")]
    scenarios = [Scenario(id=i, method="trim", hint=f"when{i.title()}", call="Texts.trim(str)",
                          arrange=(f"String str = {value};",)) for i, value, _ in rows]
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="String", v=v)) for i, _, v in rows}
    _, names = final_tests(scenarios, seen, context=context, written=Written())
    assert names == ["trim_whenPadded_returnsText"], names
    _, alone = final_tests(scenarios[:1], seen, context=context, written=Written())
    assert alone == ["trim_whenSame_returnsText"], alone  # the only test of the method stays


def test_a_test_on_made_up_texts_goes_where_another_test_of_the_method_returned_on_chosen_ones() -> None:
    # commons-lang's DurationFormatUtils: `lexx("text")` beside `lexx(ISO_EXTENDED_FORMAT_PATTERN)`; a reader learns
    # nothing from the first, and the lint counts it as placeholder-only.
    context = _static_text_method("Formats", "lexx", "format")
    rows = [("made", '"text"', "4"), ("shipped", "Formats.ISO", "9"), ("missing", "null", "0"),
            ("chosen", '"HH:mm"', "3")]
    scenarios = {i: Scenario(id=i, method="lexx", hint=f"when{i.title()}", call="Formats.lexx(format)",
                             arrange=(f"String format = {value};",)) for i, value, _ in rows}
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="Integer", v=v)) for i, _, v in rows}

    def names(*ids: str) -> list[str]:
        return final_tests([scenarios[i] for i in ids], seen, context=context, written=Written())[1]

    assert not any(name.startswith("lexx_whenMade_") for name in names("made", "shipped"))
    assert not any(name.startswith("lexx_whenMade_") for name in names("made", "chosen"))
    assert any(name.startswith("lexx_whenMade_") for name in names("made"))  # the only test of the method stays
    # A null argument is no chosen text.
    assert any(name.startswith("lexx_whenMade_") for name in names("made", "missing"))


def test_a_test_on_the_set_up_receiver_beside_a_family_that_rebuilds_it_is_named_so_not_numbered() -> None:
    # joda-money: `withCurrencyScale_returnsItself2()` beside the family `withCurrencyScale_returnsItself(String
    # bigMoneyText)` over the receiver rebuilt zero and negative, written in an earlier round.
    method = MethodInfo(name="scaled", modifiers=("public",), return_type=TypeRef(text="Amount", name="Amount"))
    subject = ClassInfo(fqn="a.Amount", name="Amount", package="a", kind=TypeKind.CLASS, file="Amount.java",
                        modifiers=("public",), methods=(method,), fields=())
    context = ClassContext(ModuleContext({subject.fqn: subject}.get), subject, ImportSet("a"), {})
    family = ("    @ParameterizedTest\n    @ValueSource(strings = {\"0.00\", \"-10.00\"})\n"
              "    void scaled_returnsItself(String amountText) {\n"
              "        amount = Amount.of(amountText);\n        var result = amount.scaled();\n"
              "        assertSame(amount, result);\n    }\n")
    plain = Scenario(id="s1", method="scaled", hint="", call="amount.scaled()", subject="amount")
    seen = {"s1": Observation(scenario="s1", outcome="returned", itself=True,
                              value=ObservedValue(t="object", components={"amount": ObservedValue(t="String", v="1")}))}
    _, names = final_tests([plain], seen, context=context,
                           written=Written({"scaled_returnsItself": family}, frozenset(), frozenset()))
    assert names == ["scaled_whenAmountIsAsSetUp_returnsItself"], names


def test_a_column_is_named_after_what_its_assertion_reads() -> None:
    # NumericEntityUnescaper's family compared a second column with the writer and called it `expected2`.
    def member(entity: str, consumed: int, written: str) -> Member:
        return Member(method="translate", name=f"translate{consumed}", outcome="returned", body=(
            "// Arrange", f'CharSequence input = "{entity}";', "Writer writer = new StringWriter();", "// Act",
            "int result = unescaper.translate(input, 0, writer);", "// Assert",
            f"assertEquals({consumed}, result);", f'assertEquals("{written}", writer.toString());'))

    (family,) = families([member("&#x65;", 6, "e"), member("&#65;", 5, "A")], imports=ImportSet("com.acme"))
    assert family.parameters == ("String input", "int expected", "String writerText")
    assert family.body[-1] == "assertEquals(writerText, writer.toString());"


def test_a_behaviour_on_made_up_texts_gives_way_to_the_same_behaviour_on_chosen_ones_not_to_another() -> None:
    # commons-text's LevenshteinDistance: `apply("text", "text")` returned 0 and gave way to `apply("karolin",
    # "kathrin")`, which returned -1 (the threshold); `apply("kitten", "kitten")` repeated the 0 and was skipped as
    # the same behaviour. No test said what equal texts give.
    text = TypeRef(text="CharSequence", name="CharSequence", fqn="java.lang.CharSequence")
    apply = MethodInfo(name="apply", modifiers=("public", "static"), return_type=TypeRef(text="int", name="int"),
                       parameters=(ParameterInfo(name="left", type=text), ParameterInfo(name="right", type=text)))
    subject = ClassInfo(fqn="a.Distance", name="Distance", package="a", kind=TypeKind.CLASS, file="Distance.java",
                        modifiers=("public",), methods=(apply,))
    context = ClassContext(ModuleContext({subject.fqn: subject}.get), subject, ImportSet("a"), {})
    rows = [("s1", "", "text", "text", "0"), ("s2", "whenApart", "karolin", "kathrin", "-1"),
            ("s3", "whenEqual", "kitten", "kitten", "0")]
    scenarios = [Scenario(id=i, method="apply", hint=hint, call="Distance.apply(left, right)",
                          arrange=(f'CharSequence left = "{a}";', f'CharSequence right = "{b}";'))
                 for i, hint, a, b, _ in rows]
    seen = {i: Observation(scenario=i, outcome="returned", value=ObservedValue(t="Integer", v=v))
            for i, _, _, _, v in rows}
    written, names = final_tests(scenarios, seen, context=context, written=Written())
    bodies = "\n".join(written.methods.values())
    assert '"kitten"' in bodies and '"karolin"' in bodies and '"text"' not in bodies, names


def _words() -> ClassContext:
    """`a.Words`, whose static `int size(String word)` the scenarios call."""
    text = TypeRef(text="String", name="String", fqn="java.lang.String")
    return _one_method("Words", "size", ParameterInfo(name="word", type=text))


def test_a_later_round_s_test_on_chosen_texts_takes_the_place_of_an_earlier_one_on_made_up_texts() -> None:
    # commons-text's AlphabetConverter: `createConverterFromMap({2: "text"})` was written in the first round, the
    # coverage round's `createConverterFromMap({-1: " "})` in another call of final_tests, so the made-up one stayed.
    context = _words()

    def scenario(number: str, word: str) -> Scenario:
        return Scenario(id=number, method="size", hint=f"when{number}", call="Words.size(word)",
                        arrange=(f'String word = "{word}";',))

    seen = {"s1": Observation(scenario="s1", outcome="returned", value=ObservedValue(t="Integer", v="4")),
            "s2": Observation(scenario="s2", outcome="returned", value=ObservedValue(t="Integer", v="6"))}
    first, names = final_tests([scenario("s1", "text")], seen, context=context, written=Written())
    assert len(names) == 1 and names[0] in first.made_up
    later, added = final_tests([scenario("s2", "kitten")], seen, context=context, written=first)
    assert names[0] not in later.methods and added[0] in later.methods and not later.made_up



def test_a_family_named_like_a_single_test_says_it_has_rows_not_a_number() -> None:
    # joda-money's MoneyGeneratedTest: the coverage round's family `plus_withAmountToAdd_returnsMoney2` beside the
    # first round's single `plus_withAmountToAdd_returnsMoney` (no value told them apart).
    parts = [("withAmountToAdd", "returnsMoney"), ("withAmountToAdd", "returnsMoney")]
    plain = family_name("plus", parts, ["amountToAddText"], "underscore")
    rows = family_name("plus", parts, ["amountToAddText"], "underscore", each=True)
    assert plain == "plus_returnsMoney" and rows == "plus_returnsMoneyForEachAmountToAddText", (plain, rows)


def test_a_later_round_s_test_on_made_up_texts_gives_way_to_an_earlier_one_on_chosen_texts() -> None:
    # commons-lang's DurationFormatUtils: the coverage round's `lexx("a longer text with several words")` stayed
    # beside the first round's `lexx` on documented patterns.
    context = _words()
    chosen = Scenario(id="s1", method="size", hint="", call="Words.size(word)", arrange=('String word = "kitten";',))
    made_up = chosen.model_copy(update={"id": "s2", "arrange": ('String word = "a longer text with several words";',)})
    seen = {"s1": Observation(scenario="s1", outcome="returned", value=ObservedValue(t="Integer", v="6")),
            "s2": Observation(scenario="s2", outcome="returned", value=ObservedValue(t="Integer", v="32"))}
    first, _ = final_tests([chosen], seen, context=context, written=Written())
    _, added = final_tests([made_up], seen, context=context, written=first)
    assert added == []


def test_a_family_is_named_after_the_inputs_its_rows_vary_not_the_values_they_expect() -> None:
    # joda-money's BigMoney: `getAmountMajor_returnsResultForEachBigMoneyTextAndExpected(bigMoneyText, expected)`.
    body = ("// Arrange", "bigMoney = BigMoney.of(CurrencyUnit.USD, new BigDecimal(bigMoneyText));", "// Act",
            "var result = bigMoney.getAmountMajor();", "// Assert", "assertEquals(new BigDecimal(expected), result);")
    family = Family(members=("a", "b"), parameters=("String bigMoneyText", "String expected"), annotations=(),
                    body=body)
    assert _inputs(family) == ["bigMoneyText"]
    parts = [("", "returnsResult"), ("", "returnsResult")]
    assert family_name("getAmountMajor", parts, _inputs(family), "underscore", each=True) == \
        "getAmountMajor_returnsResultForEachBigMoneyText"
    # A refusal's message is asserted too; what was refused is the input.
    thrown = ("IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> "
              "Money.parse(text));", "assertEquals(message, thrown.getMessage());")
    assert _inputs(Family(members=("a", "b"), parameters=("String text", "String message"), annotations=(),
                          body=thrown)) == ["text"]

"""Scenarios of validating constructors on real Java: which constructors get them, and the arguments each tries."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from junitbot.analysis import ClassInfo
from junitbot.generation import GenerationJob, ImportSet, Target, TestShell
from junitbot.generation.template import ClassContext, ModuleContext
from junitbot.generation.template.bodies import final_body
from junitbot.generation.template.carved import argument_key
from junitbot.generation.template.context import graph_implementations
from junitbot.generation.template.neighbours import shifted_numbers
from junitbot.generation.template.observations import Observation, ObservedValue
from junitbot.generation.template.plan import CHANGE_LIMIT_FACTOR, _construction, plan_classes
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.scenarios import (
    MORE_VARIANTS,
    _known,
    callable_methods,
    constructor_scenarios,
    scenarios_for,
    testable_constructors,
    testable_methods,
)
from junitbot.generation.template.subtypes import Receiver
from junitbot.validation.measure.models import CarvedCall
from tests.generation.conftest import Indexed, index, write_files

PACKAGE = "com.acme.catalog"
_DIR = "src/main/java/com/acme/catalog"
SOURCES = {
    f"{_DIR}/Sku.java": r"""package com.acme.catalog;
public record Sku(String code) {
    public Sku {
        if (code == null || !code.matches("[A-Z]{3}-\\d{4}")) {
            throw new IllegalArgumentException("bad sku: " + code);
        }
    }
}
""",
    f"{_DIR}/Percent.java": """package com.acme.catalog;
public class Percent {
    public Percent(int value) {
        if (value < 0 || value > 100) throw new IllegalArgumentException("out of range: " + value);
    }
}
""",
    f"{_DIR}/Stock.java": """package com.acme.catalog;
import java.util.Objects;
public class Stock {
    private final Warehouse warehouse;
    private final int units;
    public Stock(Warehouse warehouse, int units) {
        this.warehouse = Objects.requireNonNull(warehouse, "warehouse");
        if (units < 0) throw new IllegalArgumentException("negative units");
        this.units = units;
    }
    public int units() { return units; }
}
""",
    f"{_DIR}/Warehouse.java": """package com.acme.catalog;
public interface Warehouse { int free(); }
""",
    f"{_DIR}/Plain.java": """package com.acme.catalog;
public class Plain {
    private final int size;
    public Plain(int size) { this.size = size; }
    private Plain(String size) { if (size == null) throw new IllegalArgumentException(); this.size = 0; }
    public int size() { return size; }
}
""",
    f"{_DIR}/Point.java": "package com.acme.catalog;\npublic record Point(int x, int y) {}\n",
    f"{_DIR}/Counter.java": """package com.acme.catalog;
public class Counter {
    private int total;
    public int add(int amount) { total += amount; return total; }
}
""",
    f"{_DIR}/Texts.java": """package com.acme.catalog;
public final class Texts {
    public static String rtrim(String text) { return text.replaceAll("\\\\s+$", ""); }
    public static int width(String text) { return text.length(); }
}
""",
    f"{_DIR}/Letters.java": """package com.acme.catalog;
public final class Letters {
    public static int code(char c) { return Character.isLetter(c) ? Character.toUpperCase(c) - 'A' : -1; }
    public static String clean(String name, int limit) { return name.replaceAll("[.,-]", "").substring(0, limit); }
    public static int sum(byte[] data) { int total = 0; for (byte b : data) { total += b; } return total; }
}
""",
    f"{_DIR}/Durations.java": """package com.acme.catalog;
/**
 * Formats durations.
 * <table>
 * <tr><th>pattern</th><th>one day</th></tr>
 * <tr><td>{@code d'd'}</td><td>1d</td></tr>
 * <tr><td>[d'd']H&lt;h&gt;</td><td>1d</td></tr>
 * <tr><td>any text</td><td>any text</td></tr>
 * <tr><td>ISO_PATTERN</td><td>P1D</td></tr>
 * </table>
 */
public final class Durations {
    public static final String ISO_PATTERN = "'P'd'D'";
    private static final String HIDDEN = "H";
    public static String format(long millis, String format) { return format.replace("d", "" + millis); }
}
""",
    f"{_DIR}/Words.java": """package com.acme.catalog;
public final class Words {
    public static String capitalize(String str, char... delimiters) { return delimiters.length == 0 ? str : "" + str; }
    public static <T> boolean containsAll(T word, T... words) { return words.length > 0; }
    public static String trimmed(String str) { return str == null || str.equals("x") ? "" : str.trim(); }
    public static double similarity(java.util.Map<String, Integer> left, java.util.Map<String, Integer> right,
                                    int scale) { return left.isEmpty() || right.isEmpty() ? 0 : scale; }
    public static int distance(String left, String right) { return left.length() - right.length(); }
}
""",
    f"{_DIR}/Alphabets.java": """package com.acme.catalog;
import java.util.List;
public final class Alphabets {
    public static int codeLength(Integer[] original, Integer[] encoding, Integer[] kept) {
        return (original.length - kept.length) / (encoding.length - kept.length);
    }
    public static int letters(List<Character> letters, List<Character> vowels) { return letters.size(); }
}
""",
    f"{_DIR}/Entities.java": """package com.acme.catalog;
public final class Entities {
    public static int unescape(CharSequence input, int index, StringBuilder out) {
        if (input.charAt(index) == '&' && index < input.length() - 2 && input.charAt(index + 1) == '#') {
            int start = index + 2;
            final char first = input.charAt(start);
            if (first == 'x' || first == 'X') {
                start++;
            }
            int end = start;
            while (end < input.length() && Character.isDigit(input.charAt(end))) {
                end++;
            }
            boolean semicolon = end != input.length() && input.charAt(end) == ';';
            out.append((char) Integer.parseInt(input.subSequence(start, end).toString()));
            return end - index + (semicolon ? 1 : 0);
        }
        return 0;
    }
    public static int width(String text, char padding) { return padding == ' ' ? text.length() : 0; }
}
""",
    f"{_DIR}/Distance.java": """package com.acme.catalog;
public final class Distance {
    private final String left;
    private final String right;
    public Distance(String left, String right) { this.left = left; this.right = right; }
    public int edits() { return left.equals(right) ? 0 : Math.abs(left.length() - right.length()) + 1; }
    public static int apply(CharSequence left, CharSequence right) { return left.length() - right.length(); }
    public static double cosine(java.util.Map<CharSequence, Integer> left, java.util.Map<CharSequence, Integer> right) {
        return left.equals(right) ? 1.0 : 0.0;
    }
    public static int written(CharSequence text, StringBuilder out) { out.append(text); return out.length(); }
}
""",
    f"{_DIR}/Lines.java": """package com.acme.catalog;
public final class Lines {
    public static String render(String name) { return name + " -> 2" + System.lineSeparator(); }
    public static String join(String first, String second, String eol) {
        return first + (eol == null ? System.lineSeparator() : eol) + second;
    }
    public static String upper(String text) { return text.toUpperCase(); }
}
""",
    f"{_DIR}/Periods.java": """package com.acme.catalog;
public final class Periods {
    public static long between(long startMillis, long endMillis) { return endMillis % 1000 - startMillis % 1000; }
    public static long since(long startMillis) { return startMillis; }
}
""",
    f"{_DIR}/Style.java": """package com.acme.catalog;
public final class Style {
    public static final Style PLAIN = new Style(-1);
    public static final Style GROUPED = new Style(3);
    private final int size;
    private Style(int size) { this.size = size; }
    public Style localize(String locale) { return size < 0 ? new Style(locale.length()) : this; }
    public Integer getSize() { return size; }
    public Style withSize(Integer size) { return size == this.size ? this : new Style(size); }
    public Style withSign(String sign) { return this; }
    @Override public boolean equals(Object other) { return other instanceof Style s && s.size == size; }
    @Override public int hashCode() { return size; }
}
""",
    f"{_DIR}/Priced.java": "package com.acme.catalog;\npublic interface Priced { Amount toAmount(); }\n",
    f"{_DIR}/Holding.java": """package com.acme.catalog;
import java.util.List;
import java.util.Objects;
public final class Holding {
    private static int made;
    private final List<Amount> amounts;
    private final long shares;
    public Holding(List<Amount> amounts, long shares) { this.amounts = amounts; this.shares = shares; }
    @Override public boolean equals(Object other) { return other instanceof Holding h && h.amounts.equals(amounts); }
    @Override public int hashCode() { return Objects.hash(amounts, shares); }
}
""",
    f"{_DIR}/Tagged.java": """package com.acme.catalog;
import java.util.Objects;
public final class Tagged {
    public enum Level { LOW, HIGH }
    private final Level level;
    private final String name;
    public Tagged(Level level, String name) { this.level = level; this.name = name; }
    @Override public boolean equals(Object other) { return other instanceof Tagged t && t.name.equals(name); }
    @Override public int hashCode() { return Objects.hash(level, name); }
}
""",
    f"{_DIR}/Codes.java": """package com.acme.catalog;
import java.util.Arrays;
public final class Codes {
    private final int[] codes;
    private final String name;
    public Codes(int[] codes, String name) { this.codes = codes; this.name = name; }
    @Override public int hashCode() { return Arrays.hashCode(codes) + System.identityHashCode(name); }
}
""",
    f"{_DIR}/Amount.java": """package com.acme.catalog;
import java.math.BigDecimal;
public final class Amount implements Priced {
    private final String currency;
    private final BigDecimal value;
    private Amount(String currency, BigDecimal value) { this.currency = currency; this.value = value; }
    public static Amount of(String currency, BigDecimal value) { return new Amount(currency, value); }
    public Amount toAmount() { return this; }
    public boolean isGreaterThan(Priced other) { return value.compareTo(other.toAmount().value) > 0; }
    public static Amount max(Amount first, Amount second) { return first.isGreaterThan(second) ? first : second; }
    public static Amount total(Amount... amounts) { return amounts[amounts.length - 1]; }
    public static Amount sum(Iterable<? extends Priced> amounts) { return amounts.iterator().next().toAmount(); }
    public Amount abs() { return value.signum() < 0 ? new Amount(currency, value.negate()) : this; }
    @Override public boolean equals(Object other) { return other instanceof Amount a && a.value.equals(value); }
    @Override public int hashCode() { return value.hashCode(); }
    @Override public String toString() { return currency + " " + value; }
}
""",
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("scenarios") / "catalog"
    write_files(root, SOURCES)
    yield from index(root, use_git=False)


def _context(catalog: Indexed, info: ClassInfo, mocks: dict[str, str | None] | None = None) -> ClassContext:
    return ClassContext(ModuleContext(catalog.lookup), info, ImportSet(PACKAGE), mocks or {})


def _scenarios(catalog: Indexed, name: str,
               mocks: dict[str, str | None] | None = None) -> list[tuple[str, tuple[str, ...]]]:
    info = catalog.info(f"{PACKAGE}.{name}")
    (constructor,) = testable_constructors(info)
    found = constructor_scenarios(_context(catalog, info, mocks), constructor, prefix="c0k0")
    assert all(s.constructor and s.method == f"new{name}" and s.returns == info.fqn for s in found)
    return [(s.hint, s.arrange) for s in found]


def test_only_declared_validating_constructors_a_test_can_call(catalog: Indexed) -> None:
    def count(name: str) -> int:
        return len(testable_constructors(catalog.info(f"{PACKAGE}.{name}")))

    assert (count("Sku"), count("Percent"), count("Stock")) == (1, 1, 1)
    assert count("Plain") == 0  # the public one checks nothing, the one that checks is private
    assert count("Point") == 0  # the compiler's canonical constructor
    assert count("Warehouse") == 0


def test_a_pattern_and_a_null_check(catalog: Indexed) -> None:
    assert _scenarios(catalog, "Sku") == [
        ("", ('String code = "ABC-1234";',)),
        ("whenCodeIsNull", ("String code = null;",)),
        ("whenCodeIsText", ('String code = "text";',)),
        ("whenCodeIsEmpty", ('String code = "";',)),
    ]


def test_bounds_are_tried_on_both_sides(catalog: Indexed) -> None:
    scenarios = _scenarios(catalog, "Percent")
    assert scenarios[:3] == [("", ("int value = 1;",)), ("whenValueIsMinus1", ("int value = -1;",)),
                             ("whenValueIs101", ("int value = 101;",))]
    assert {values for _, values in scenarios} >= {("int value = 0;",), ("int value = 100;",)}
    assert len(scenarios) == 6  # 1, -1, 101, 0, 100, 99 (1 again and empty 0 are the same arrangements)


def test_a_collaborator_parameter_gets_the_shell_s_mock(catalog: Indexed) -> None:
    scenarios = _scenarios(catalog, "Stock", {"warehouse": f"{PACKAGE}.Warehouse"})
    assert scenarios[0] == ("", ("int units = 1;",))
    assert ("whenUnitsIsMinus1", ("int units = -1;",)) in scenarios
    info = catalog.info(f"{PACKAGE}.Stock")
    call = constructor_scenarios(_context(catalog, info, {"warehouse": None}), info.constructors[0], prefix="p")[0].call
    assert call == "new Stock(warehouse, units)"


def test_a_feedback_round_s_scenarios_keep_the_receiver_s_title(catalog: Indexed) -> None:
    # The variants' own titles once overwrote the receiver's: every scenario of a coverage round was named after
    # the last variant instead. Each is named by the value that differs (not `withNegativeValues`).
    info = catalog.info(f"{PACKAGE}.Counter")
    (add,) = info.methods
    found = scenarios_for(_context(catalog, info), add, Receiver("counter", title="onCounter"), prefix="r1",
                          extra_variants=(2, 3))
    assert [(s.hint, s.arrange) for s in found] == [
        ("onCounterWhenAmountIsMinus1", ("int amount = -1;",)),
        ("onCounterWhenAmountIsMaxValue", ("int amount = Integer.MAX_VALUE;",)),
    ]


def test_a_coverage_round_also_tries_letters_outside_ascii_and_punctuation_alone(catalog: Indexed) -> None:
    # commons-codec's CODEC-311 (`Character.toUpperCase(c) - 'A'` indexes past its table on 'é') and CODEC-312 (a
    # name of punctuation alone is left empty, then read at 0): inputs "text" and 'a' never reach either.
    info = catalog.info(f"{PACKAGE}.Letters")
    code, clean, _ = info.methods
    found = scenarios_for(_context(catalog, info), code, Receiver("Letters", instance=False), prefix="r0",
                          extra_variants=MORE_VARIANTS)
    assert [(s.hint, s.arrange) for s in found] == [
        ("whenCIsBlank", ("char c = ' ';",)), ("whenCIsMaxValue", ("char c = Character.MAX_VALUE;",)),
        ("whenCIsNonAscii", ("char c = '\\u00e9';",)), ("whenCIsPunctuation", ("char c = '-';",))]
    texts = scenarios_for(_context(catalog, info), clean, Receiver("Letters", instance=False), prefix="r1",
                          extra_variants=MORE_VARIANTS)
    arranged = {s.hint: s.arrange for s in texts}
    assert arranged["whenNameIsNonAsciiAndLimitIsMinValue"] == ('String name = "\\u00c9l\\u00e8ve";',
                                                               "int limit = Integer.MIN_VALUE;")
    assert arranged["whenNameIsPunctuation"] == ('String name = ".,-";', "int limit = 1;")


def test_bytes_are_a_text_s_bytes_and_a_coverage_round_varies_the_text(catalog: Indexed) -> None:
    # Code that takes bytes (a codec, a checksum) is handed text's bytes, not `{ (byte) 1 }`.
    info = catalog.info(f"{PACKAGE}.Letters")
    *_, total = info.methods
    (first, *_) = scenarios_for(_context(catalog, info), total, Receiver("Letters", instance=False), prefix="m0")
    assert first.arrange == ('byte[] data = "text".getBytes(StandardCharsets.UTF_8);',)
    found = scenarios_for(_context(catalog, info), total, Receiver("Letters", instance=False), prefix="r0",
                          extra_variants=MORE_VARIANTS)
    assert ("whenDataIsNonAscii", ('byte[] data = "\\u00c9l\\u00e8ve".getBytes(StandardCharsets.UTF_8);',)) in [
        (s.hint, s.arrange) for s in found]


def test_a_text_method_also_gets_padded_mixed_case_text(catalog: Indexed) -> None:
    # On "text" a trim returns its input: only a padded input tells it from the identity (issue 29).
    info = catalog.info(f"{PACKAGE}.Texts")
    rtrim, width = info.methods
    found = scenarios_for(_context(catalog, info), rtrim, Receiver("Texts", instance=False), prefix="m0")
    assert ("whenTextIsPadded", ('String text = "  Text  ";',)) in [(s.hint, s.arrange) for s in found]
    others = scenarios_for(_context(catalog, info), width, Receiver("Texts", instance=False), prefix="m1")
    assert not any(s.hint.endswith("IsPadded") for s in others)  # not a text method: its result is no text


def test_a_method_a_change_touched_gets_the_further_inputs_from_the_first_round(catalog: Indexed) -> None:
    # A behaviour change shows only on an input that takes its new path; a run catching one tries them at once.
    info = catalog.info(f"{PACKAGE}.Letters")
    job = GenerationJob(root=catalog.root, graph=catalog.graph, config=catalog.config, state=catalog.state)
    target = Target(fqn=info.fqn, file=info.file, reason="changed")
    (plain,), _ = plan_classes([target], job, ModuleContext(catalog.lookup))
    (touched,), _ = plan_classes([target.model_copy(update={"changed": ("code",)})], job,
                                 ModuleContext(catalog.lookup))
    known = {s.id for s in plain.scenarios}
    extra = [s for s in touched.scenarios if s.id not in known]
    assert extra and {s.method for s in extra} == {"code"} and all(s.for_change for s in extra)
    assert ("char c = '\\u00e9';",) in [s.arrange for s in extra]


def test_a_feedback_round_tries_the_argument_lists_of_the_suite_the_first_round_did_not_reach(
        catalog: Indexed) -> None:
    # CODEC-338: the suite's `"a+b c"` on a plus-for-space codec was its sixth argument list; the first round tries
    # four, so a later round (or a change's) tries the next ones on the receivers the suite built.
    info = catalog.info(f"{PACKAGE}.Counter")
    (add,) = info.methods
    calls = tuple(CarvedCall(member="add", parameters=("int",), arguments=(str(amount),),
                             receiver=f"new {PACKAGE}.Counter()") for amount in (5, 6, 7, 8, 9, 10))
    module = ModuleContext(catalog.lookup, carved={info.fqn: calls})
    context = ClassContext(module, info, ImportSet(PACKAGE), {})
    first = scenarios_for(context, add, Receiver("counter", title=""), prefix="m0")
    later = scenarios_for(context, add, Receiver("counter", title=""), prefix="r0", extra_variants=(2,))
    assert ("int amount = 9;",) not in [s.arrange[-1:] for s in first]
    assert [s.arrange for s in later][:2] == [("counter = new Counter();", "int amount = 9;"),
                                             ("counter = new Counter();", "int amount = 10;")]
    assert [s.hint for s in later][:2] == ["whenAmountIs9", "whenAmountIs10"]


def test_a_changed_constructor_gives_every_instance_method_the_further_inputs(catalog: Indexed) -> None:
    # CODEC-338 changed only PercentCodec's constructor; what it builds shows in every method called on the codec.
    job = GenerationJob(root=catalog.root, graph=catalog.graph, config=catalog.config, state=catalog.state)
    counter, texts = (catalog.info(f"{PACKAGE}.{name}") for name in ("Counter", "Texts"))
    targets = [Target(fqn=i.fqn, file=i.file, reason="changed", changed=("<init>",)) for i in (counter, texts)]
    touched, _ = plan_classes(targets, job, ModuleContext(catalog.lookup))
    plain, _ = plan_classes([t.model_copy(update={"changed": ()}) for t in targets], job,
                            ModuleContext(catalog.lookup))
    extra = {p.target.fqn: [s for s in p.scenarios if s.for_change] for p in touched}
    assert {s.method for s in extra[counter.fqn]} == {"add"}
    assert extra[texts.fqn] == []  # static methods read no state a constructor builds
    assert [len(p.scenarios) for p in plain][1] == len(touched[1].scenarios)


def test_the_suite_s_inputs_of_a_kind_not_yet_tried_come_first(catalog: Indexed) -> None:
    # A suite passes many words of letters; the one with punctuation and a space is the input a fix is about.
    info = catalog.info(f"{PACKAGE}.Texts")
    rtrim, _ = info.methods
    words = ("alpha", "beta", "gamma", "delta", "epsilon", "a+b c", "zeta", "\u00e9t\u00e9")
    calls = tuple(CarvedCall(member="rtrim", parameters=("java.lang.String",), arguments=(f'"{w}"',)) for w in words)
    context = ClassContext(ModuleContext(catalog.lookup, carved={info.fqn: calls}), info, ImportSet(PACKAGE), {})
    receiver = Receiver("Texts", instance=False)

    first = [s.arrange for s in scenarios_for(context, rtrim, receiver, prefix="m0")]
    later = [s.arrange for s in scenarios_for(context, rtrim, receiver, prefix="r0", extra_variants=(2,))]

    assert ('String text = "a+b c";',) in first and ('String text = "\u00e9t\u00e9";',) in first
    assert ('String text = "gamma";',) not in first
    assert later[:3] == [('String text = "gamma";',), ('String text = "delta";',), ('String text = "epsilon";',)]


def test_a_method_a_change_touched_tries_more_of_the_suite_s_argument_lists(catalog: Indexed) -> None:
    # CODEC-317's inputs ("hoffmann", "Celsius") are among fifty the suite passes to `encode`: a change's methods
    # go further down that list than a coverage round does.
    info = catalog.info(f"{PACKAGE}.Counter")
    (add,) = info.methods
    calls = tuple(CarvedCall(member="add", parameters=("int",), arguments=(str(amount),)) for amount in range(1, 40))

    def later(limit: int) -> list[tuple[str, ...]]:
        module = ModuleContext(catalog.lookup, carved={info.fqn: calls}, limit=limit)
        found = scenarios_for(ClassContext(module, info, ImportSet(PACKAGE), {}), add, Receiver("counter", title=""),
                              prefix="r0", extra_variants=(2,))
        return [s.arrange for s in found if s.arrange != ("int amount = -1;",)]

    assert len(later(8)) == 4
    more = later(8 * CHANGE_LIMIT_FACTOR)
    assert len(more) == 16 and more[:4] == later(8)


def test_an_argument_of_the_subject_s_type_is_built_as_the_receiver_was_with_one_number_changed(
        catalog: Indexed) -> None:
    # joda-money's `compareTo(BigMoneyProvider other)` was only ever called with an equal amount or another
    # currency: it returned 0 or threw, and the branches of a comparison stayed untested.
    info = catalog.info(f"{PACKAGE}.Amount")
    greater = next(m for m in info.methods if m.name == "isGreaterThan")
    module = ModuleContext(catalog.lookup, implementations=graph_implementations(catalog.graph))
    context = ClassContext(module, info, ImportSet(PACKAGE), {})
    receiver = Receiver("amount", construction='Amount.of("EUR-1", new BigDecimal("10.00"))')
    arranged = {s.hint: s.arrange for s in scenarios_for(context, greater, receiver, prefix="m0")}
    assert arranged["whenOtherIsGreater"] == ('Priced other = Amount.of("EUR-1", new BigDecimal("11.00"));',)
    assert arranged["whenOtherIsLess"] == ('Priced other = Amount.of("EUR-1", new BigDecimal("9.00"));',)
    # The empty variant is named by the first value it holds that the first scenario's does not, not
    # `withEmptyValues` (joda-money's EUR zero was "empty").
    assert arranged["whenOtherHasEmpty"] == ('Priced other = Amount.of("", BigDecimal.ZERO);',)
    unbuilt = scenarios_for(context, greater, Receiver("amount"), prefix="m0")
    assert not any(s.hint.startswith("whenOtherIs") for s in unbuilt)
    # A static method taking two of a type: the second built as the first was, one number shifted.
    largest = next(m for m in info.methods if m.name == "max")
    pairs = {s.hint: s.arrange for s in scenarios_for(context, largest, Receiver("Amount", instance=False),
                                                      prefix="m1")}
    first = pairs[""][0].split(" = ", 1)[1]
    assert pairs["whenSecondIsGreater"] == (pairs[""][0], f"Amount second = {shifted_numbers(first)[0][1]}")
    # A varargs or a collection of the type gets two instances a number apart (joda-money's `Money.total(monies)`
    # had only ever added up one amount).
    for name, expected in (("total", "Amount[] amounts = new Amount[] {{{0}, {1}}};"),
                           ("sum", "Iterable<? extends Priced> amounts = List.of({0}, {1});")):
        many = next(m for m in info.methods if m.name == name)
        found = {s.hint: s.arrange for s in scenarios_for(context, many, receiver, prefix="m2")}
        built = found[""][0].split(" = ", 1)[1][:-1]
        built = built.removeprefix("List.of(")[:-1] if built.startswith("List.of(") else built
        assert found["whenAmountsHasTwo"] == (expected.format(built, shifted_numbers(built)[0][1]),), found


def test_a_decimal_argument_is_also_given_one_decimal_place_more(catalog: Indexed) -> None:
    # joda-money's `Money.of(USD, amount)` rejects an amount finer than the currency's scale, and a rounding mode
    # rounds one: every decimal tried before had two places, and that branch never ran.
    info = catalog.info(f"{PACKAGE}.Amount")
    factory = next(m for m in info.methods if m.name == "of")
    found = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), factory,
                                                      Receiver("Amount", instance=False), prefix="m0")}
    assert found[""][1] == 'BigDecimal value = new BigDecimal("10.00");'
    assert found["whenValueHasMoreDecimals"] == (found[""][0], 'BigDecimal value = new BigDecimal("10.005");')


def test_a_method_without_arguments_is_also_called_on_the_receiver_zero_and_negative(catalog: Indexed) -> None:
    # joda-money's `abs()` and `isNegative()` only ever met the set-up's USD 10.00: their other branch never ran.
    info = catalog.info(f"{PACKAGE}.Amount")
    absolute = next(m for m in info.methods if m.name == "abs")
    receiver = Receiver("amount", construction='Amount.of("EUR-1", new BigDecimal("10.00"))')
    arranged = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), absolute, receiver, prefix="m0")}
    assert arranged == {"": (), "whenAmountIsZero": ('amount = Amount.of("EUR-1", new BigDecimal("0.00"));',),
                        "whenAmountIsNegative": ('amount = Amount.of("EUR-1", new BigDecimal("-10.00"));',)}
    assert [s.hint for s in scenarios_for(_context(catalog, info), absolute, Receiver("amount"), prefix="m0")] == [""]


def test_a_value_class_s_own_equals_and_to_string_are_called_equals_on_an_equal_and_a_different_instance(
        catalog: Indexed) -> None:
    # joda-money's Money: its `equals` branches (and what `toString` renders) were never tested, as Object's.
    info = catalog.info(f"{PACKAGE}.Amount")
    assert {"equals", "toString"} <= {m.name for m in callable_methods(info, through_constants=False)}
    assert "hashCode" not in {m.name for m in callable_methods(info, through_constants=False)}
    assert not {"equals", "toString"} & {m.name for m in testable_methods(info)}  # a returned object's: not called
    equals = next(m for m in info.methods if m.name == "equals")
    receiver = Receiver("amount", construction='Amount.of("EUR-1", new BigDecimal("10.00"))')
    arranged = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), equals, receiver, prefix="m0")}
    assert arranged[""] == ("Object other = new Object();",)  # another class: not a placeholder text
    assert arranged["whenOtherIsEqual"] == ('Object other = Amount.of("EUR-1", new BigDecimal("10.00"));',)
    assert arranged["whenOtherIsGreater"] == ('Object other = Amount.of("EUR-1", new BigDecimal("11.00"));',)


def test_a_hash_code_the_same_in_every_jvm_is_called_once_on_the_set_up_s_receiver(catalog: Indexed) -> None:
    # commons-text's AlphabetConverter hashes two maps and a length: `return 0` survived its suite, which never
    # asserts the number. A hash that reaches an enum, an array or an identity hash differs from run to run.
    def calls_hash_code(name: str) -> bool:
        info = catalog.info(f"{PACKAGE}.{name}")
        return "hashCode" in {m.name for m in callable_methods(info, through_constants=False, lookup=catalog.lookup)}

    assert calls_hash_code("Amount")  # a text and a decimal
    assert calls_hash_code("Style")  # a number (its static constants are not its value)
    assert calls_hash_code("Holding")  # a list of the repository's own stable values, and a number
    assert not calls_hash_code("Tagged")  # an enum's hash is its identity
    assert not calls_hash_code("Codes")  # an array, and an identity hash asked for
    info = catalog.info(f"{PACKAGE}.Amount")
    hash_code = next(m for m in info.methods if m.name == "hashCode")
    receiver = Receiver("amount", construction='Amount.of("EUR-1", new BigDecimal("10.00"))')
    found = scenarios_for(_context(catalog, info), hash_code, receiver, prefix="m0")
    assert [(s.hint, s.arrange, s.call) for s in found] == [("", (), "amount.hashCode()")]


def test_a_text_parameter_is_tried_with_the_text_constants_the_class_ships(catalog: Indexed) -> None:
    # commons-lang's DurationFormatUtils: `formatDuration(1, "text")` handed "text" back; its own
    # ISO_EXTENDED_FORMAT_PATTERN is a format it reads.
    info = catalog.info(f"{PACKAGE}.Durations")
    (method,) = info.methods
    arranged = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), method,
                                                          Receiver("Durations", instance=False), prefix="m0")}
    assert arranged["whenFormatIsIsoPattern"] == ("long millis = 1L;", "String format = Durations.ISO_PATTERN;")
    assert not any("Hidden" in hint for hint in arranged)


def test_a_text_parameter_is_tried_with_the_values_the_class_s_javadoc_tables_list(catalog: Indexed) -> None:
    # commons-lang's DurationFormatUtils documents its patterns with optional blocks in a table; nine of the
    # mutants its own suite leaves alive are in the optional-block logic only such a pattern runs.
    info = catalog.info(f"{PACKAGE}.Durations")
    assert info.documented_texts == ("[d'd']H<h>", "d'd'")  # prose and names are no values; longest first
    (method,) = info.methods
    arranged = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), method,
                                                          Receiver("Durations", instance=False), prefix="m0")}
    assert arranged["whenFormatIsDDHH"] == ("long millis = 1L;", 'String format = "[d\'d\']H<h>";')
    assert arranged["whenFormatIsDD"] == ("long millis = 1L;", 'String format = "d\'d\'";')


def test_a_span_s_start_is_also_late_in_its_day_where_its_end_is_given_too(catalog: Indexed) -> None:
    # commons-lang's `formatPeriod(startMillis, endMillis, ..)` borrows a second from the minutes and a day from the
    # month only where the end's unit is below the start's: a start at 0 never took those paths.
    info = catalog.info(f"{PACKAGE}.Periods")
    between, since = (next(m for m in info.methods if m.name == name) for name in ("between", "since"))
    receiver = Receiver("Periods", instance=False)
    found = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), between, receiver, prefix="m0")}
    assert found[""] == ("long startMillis = 0L;", "long endMillis = 34563661001L;")
    assert found["whenStartMillisIsLateInTheDay"] == ("long startMillis = 86399999L;", "long endMillis = 34563661001L;")
    # The last millisecond of the year, with an end weeks into the next: the days and the months borrow too.
    assert found["whenStartMillisIsLateInTheYear"] == ("long startMillis = 31535999999L;",
                                                       "long endMillis = 34563661001L;")
    assert not any("LateInTheDay" in s.hint
                   for s in scenarios_for(_context(catalog, info), since, receiver, prefix="m1"))


def test_a_varargs_parameter_is_also_given_no_values(catalog: Indexed) -> None:
    # commons-lang's WordUtils: `capitalize(str, delimiters...)` returns its input when given no delimiters, and
    # `containsAllWords(word)` with no words is false; one value never reaches either.
    info = catalog.info(f"{PACKAGE}.Words")
    capitalize, contains = (next(m for m in info.methods if m.name == name) for name in ("capitalize", "containsAll"))
    receiver = Receiver("Words", instance=False)
    found = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), capitalize, receiver, prefix="m0")}
    assert found[""][1] != "char[] delimiters = new char[0];"
    assert found["whenDelimitersHasNone"] == (found[""][0], "char[] delimiters = new char[0];")
    # Written beside the one-value test even where both return the same (`containsAllWords(word)` is false).
    assert [s.distinct for s in scenarios_for(_context(catalog, info), capitalize, receiver, prefix="m0")
            if s.hint == "whenDelimitersHasNone"] == [True]
    generic = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), contains, receiver, prefix="m1")}
    # T is bound to String: an array of it can be made
    assert generic["whenWordsHasNone"] == ('String word = "text";', "String[] words = new String[0];")


def test_each_container_argument_is_also_emptied_alone(catalog: Indexed) -> None:
    # commons-text's CosineSimilarity: one vector empty divides by its norm, 0; both empty (0 by 0) is answered apart,
    # so `d1 <= 0.0` could become `d1 < 0.0` unnoticed.
    info = catalog.info(f"{PACKAGE}.Words")
    similarity = next(m for m in info.methods if m.name == "similarity")
    scenarios = scenarios_for(_context(catalog, info), similarity, Receiver("Words", instance=False), prefix="m0")
    found = {s.hint: s.arrange for s in scenarios}
    left, right, scale = found[""]
    assert (left, right) == ('Map<String, Integer> left = Map.of("text", 2);',
                             'Map<String, Integer> right = Map.of("text", 2);')
    # Each alone, with the other as it was; the number is no container and stays.
    assert found["whenLeftIsEmpty"] == ("Map<String, Integer> left = Map.of();", right, scale)
    assert found["whenRightIsEmpty"] == (left, "Map<String, Integer> right = Map.of();", scale)
    # Written even where it returns what both empty do.
    assert [s.hint for s in scenarios if s.distinct] == ["whenLeftIsEmpty", "whenRightIsEmpty"]
    # Texts are emptied alone too, but written only where the outcome differs, as "" always was.
    distance = next(m for m in info.methods if m.name == "distance")
    texts = {s.hint: s for s in scenarios_for(_context(catalog, info), distance, Receiver("Words", instance=False),
                                              prefix="m2")}
    assert texts["whenLeftIsEmpty"].arrange == ('String left = "";', texts[""].arrange[1])
    assert not texts["whenLeftIsEmpty"].distinct and not texts["whenRightIsEmpty"].distinct
    # A method with one container has its all-empty variant only.
    trimmed = next(m for m in info.methods if m.name == "trimmed")
    assert not [s for s in scenarios_for(_context(catalog, info), trimmed, Receiver("Words", instance=False),
                                         prefix="m1") if s.hint.endswith("IsEmpty") and s.hint != "whenStrIsEmpty"]


def test_containers_of_one_element_type_are_also_given_sizes_that_differ_each_the_start_of_the_one_before(
        catalog: Indexed) -> None:
    # commons-text's AlphabetConverter computes its code length from its alphabets' sizes: with one element each,
    # every size is 1, and `-` for `+` or `*` for `/` gave the same length.
    info = catalog.info(f"{PACKAGE}.Alphabets")
    arranged = {name: {s.hint: s.arrange for s in scenarios_for(
        _context(catalog, info), next(m for m in info.methods if m.name == name), Receiver("Alphabets"),
        prefix="m0")} for name in ("codeLength", "letters")}
    assert arranged["codeLength"]["whenOriginalHoldsMoreThanEncoding"] == (
        "Integer[] original = new Integer[] { 2, 3, 4, 5, 6, 7, 8, 9 };",
        "Integer[] encoding = new Integer[] { 2, 3, 4 };", "Integer[] kept = new Integer[] { 2 };")
    letters = arranged["letters"]["whenLettersHoldsMoreThanVowels"]
    assert letters[0].endswith("List.of('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');") and letters[1].endswith(
        "List.of('a', 'b', 'c');"), letters


def test_a_null_the_method_checks_for_is_a_test_of_its_own_whatever_it_returns(catalog: Indexed) -> None:
    # commons-lang's StrTokenizer: `tokenize(null, 1, 1)` returns the empty list `tokenize({'a'}, 1, 1)` returns, so
    # the outcome dedupe dropped it, and with it the only test that tells the null check from none.
    info = catalog.info(f"{PACKAGE}.Words")
    trimmed = next(m for m in info.methods if m.name == "trimmed")
    found = {s.hint: s for s in scenarios_for(_context(catalog, info), trimmed, Receiver("Words", instance=False),
                                              prefix="m0")}
    assert found["whenStrIsNull"].arrange == ("String str = null;",) and found["whenStrIsNull"].distinct
    assert found["whenStrIsX"].arrange == ('String str = "x";',) and not found["whenStrIsX"].distinct


def test_a_wither_is_given_its_getter_s_value_and_equals_is_asked_about_each_wither_s_copy(catalog: Indexed) -> None:
    # joda-money's MoneyAmountStyle: each wither's "unchanged: return this" never ran, and its `equals` never met a
    # style differing in one attribute.
    info = catalog.info(f"{PACKAGE}.Style")
    receiver = Receiver("style", construction="Style.PLAIN")
    wither = next(m for m in info.methods if m.name == "withSize")
    found = {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), wither, receiver, prefix="m0")}
    assert found["whenSizeIsUnchanged"] == ("Integer size = style.getSize();",)
    sign = next(m for m in info.methods if m.name == "withSign")  # no getter: nothing to leave unchanged
    assert not any(s.hint.endswith("IsUnchanged")
                   for s in scenarios_for(_context(catalog, info), sign, receiver, prefix="m1"))
    equals = next(m for m in info.methods if m.name == "equals")
    scenarios = scenarios_for(_context(catalog, info), equals, receiver, prefix="m2")
    asked = {s.hint: s.arrange for s in scenarios}
    # Written beside `equals(new Object())` though both return false (final_tests): the keep rule judges them.
    assert {s.hint for s in scenarios if s.distinct} == {"whenOtherHasAnotherSize", "whenOtherHasAnotherSign"}
    size = asked["whenOtherHasAnotherSize"][0]
    assert size.startswith("Object other = Style.PLAIN.withSize(") and not size.endswith("(null);")
    assert asked["whenOtherHasAnotherSign"][0].startswith("Object other = Style.PLAIN.withSign(")


def test_a_receiver_that_is_a_shipped_constant_is_also_tried_as_the_others(catalog: Indexed) -> None:
    # joda-money's MoneyAmountStyle: `localize(..)` fills in what LOCALIZED_GROUPING leaves unset; the set-up's
    # ASCII_DECIMAL_POINT_GROUP3_COMMA sets everything.
    info = catalog.info(f"{PACKAGE}.Style")
    localize = next(m for m in info.methods if m.name == "localize")
    found = scenarios_for(_context(catalog, info), localize, Receiver("style", construction="Style.PLAIN"), prefix="m0")
    arranged = {s.hint: s.arrange for s in found}
    assert arranged["whenStyleIsGrouped"] == ("style = Style.GROUPED;", 'String locale = "en";')


@pytest.mark.parametrize(("expression", "shifted"), [
    ("Range.of(0, 5)", ["Range.of(1, 5)", "Range.of(-1, 5)"]),
    ("Money.ofMinor(USD, 1050L)", ["Money.ofMinor(USD, 1051L)", "Money.ofMinor(USD, 1049L)"]),
    ('new Code("ABC-1234", 2.5d)', ['new Code("ABC-1234", 3.5d)', 'new Code("ABC-1234", 1.5d)']),
    ("Unit.of(CurrencyUnit.USD, LIMIT_2)", []),
    ("Hex.of(0x1F)", []),
])
def test_the_first_number_outside_text_is_the_one_shifted(expression: str, shifted: list[str]) -> None:
    assert [text for _, text in shifted_numbers(expression)] == shifted


def test_the_receiver_is_rebuilt_only_where_its_set_up_only_builds_it() -> None:
    # A subject the set-up configures after building it (`service.setClock(clock)`) would be another object rebuilt
    # from its construction alone: its neighbours and signed variants are not tried.
    def shell(*set_up: str) -> TestShell:
        return TestShell(target="a.Money", package="a", class_name="MoneyTest", header_comment="", imports=(),
                         static_imports=(), claims=(), subject_field="money", set_up=set_up)

    assert _construction(shell('money = Money.of("USD", 10);')) == 'Money.of("USD", 10)'
    assert _construction(shell("mocks = MockitoAnnotations.openMocks(this);", "money = Money.of(1);")) == (
        "Money.of(1)")
    assert _construction(shell("money = new Money(1);", "money.setClock(clock);")) is None
    assert _construction(shell("Clock clock = Clock.systemUTC();", "money = new Money(clock, 1);")) is None


def test_an_argument_list_the_carver_saw_throw_is_not_the_one_every_variant_changes() -> None:
    # commons-lang: `formatPeriod(5000, 2500, "yy/MM")` rejects its span; the late start, the shipped format and the
    # other variants built on it were all rejected too.
    mined = [["long startMillis = 5000;", "long endMillis = 2500;"], ["long startMillis = 0;", "long endMillis = 9;"]]
    thrown = {argument_key(["long startMillis = 5000L;", "long endMillis = 2500L;"])}
    assert _known(mined, [], thrown) == [mined[1], mined[0]]
    assert _known(mined, [], set()) == mined


def _arranged(catalog: Indexed, name: str, method: str, receiver: Receiver | None = None) -> dict[str, tuple[str, ...]]:
    """What each scenario of `name`'s `method` arranges, by hint (on the class itself unless `receiver` says)."""
    info = catalog.info(f"{PACKAGE}.{name}")
    member = next(m for m in info.methods if m.name == method)
    return {s.hint: s.arrange for s in scenarios_for(_context(catalog, info), member,
                                                     receiver or Receiver(name, instance=False), prefix="m0")}


def test_a_text_the_method_reads_character_by_character_holds_the_characters_it_compares_them_with(
        catalog: Indexed) -> None:
    # commons-text's NumericEntityUnescaper: `translate("text", 0, writer)` never met an entity, and every branch
    # past `charAt(index) == '&'` went untested. The characters compared, in order, with digits where the code reads
    # them, make the entity; the same without each character after the first stops at that check.
    found = _arranged(catalog, "Entities", "unescape")
    # The call starts reading at `index` (1 in the first scenario): what it looks for starts there.
    assert found["whenInputIsX65"][:2] == ('CharSequence input = "z&#x65;";', "int index = 1;")
    assert found["whenInputLacksSemicolon"][0] == 'CharSequence input = "z&#x65";'
    assert found["whenInputLacksX"][0] == 'CharSequence input = "z&#65;";'
    assert found["whenInputLacksHash"][0] == 'CharSequence input = "z&x65;";'
    # A character parameter compared with a literal is no text read character by character.
    arranged = _arranged(catalog, "Entities", "width")
    assert not any("Lacks" in h for h in arranged), arranged
    assert 'String text = " ";' not in {line for lines in arranged.values() for line in lines}


def test_two_texts_of_one_call_given_the_same_text_are_also_given_the_classic_pairs_that_differ(
        catalog: Indexed) -> None:
    # commons-text's Hamming and Levenshtein distances and StringsComparator's diff, given "text" twice, returned what
    # equal texts return (0, no modification); most of their branches compare characters that differ.
    found = _arranged(catalog, "Distance", "apply")
    assert found[""] == ('CharSequence left = "text";', 'CharSequence right = "text";')
    assert found["whenLeftAndRightAreThreeLettersApart"] == (
        'CharSequence left = "karolin";', 'CharSequence right = "kathrin";')
    assert found["whenLeftAndRightAreLongerSecond"][1] == 'CharSequence right = "sitting";'
    assert found["whenLeftAndRightAreLongerFirst"][0] == 'CharSequence left = "sitting";'
    assert found["whenLeftAndRightAreEqual"] == ('CharSequence left = "kitten";', 'CharSequence right = "kitten";')
    # Two vectors keyed by the same made-up text: keyed by each pair (CosineSimilarity's `{"text": 2}` twice); not a
    # text and the sink it is written into.
    vectors = _arranged(catalog, "Distance", "cosine")
    assert vectors[""][0].endswith('("text", 2);'), vectors[""]
    apart = vectors["whenLeftAndRightAreThreeLettersApart"]
    assert apart[0].endswith('("karolin", 2);') and apart[1].endswith('("kathrin", 2);'), apart
    # The pairs of other lengths come after each side emptied: within a method's limit of scenarios, an empty vector
    # (CosineSimilarity's division by its norm) goes before a third pair.
    hints = list(vectors)
    assert hints.index("whenLeftIsEmpty") < hints.index("whenLeftAndRightAreLongerSecond"), hints
    assert not any("Are" in hint for hint in _arranged(catalog, "Distance", "written"))
    # A receiver built from the same text twice is rebuilt from each pair for its methods without parameters.
    rebuilt = _arranged(catalog, "Distance", "edits", Receiver("distance", construction='new Distance("text", "text")'))
    assert rebuilt["whenDistanceIsLongerSecond"] == ('distance = new Distance("kitten", "sitting");',)
    different = Receiver("distance", construction='new Distance("text", "other")')
    assert not any(h.startswith("whenDistanceIsLonger") for h in _arranged(catalog, "Distance", "edits", different))


def test_a_text_the_class_ends_with_the_platform_s_line_separator_is_asserted_with_it(catalog: Indexed) -> None:
    # commons-text's AlphabetConverter.toString appends System.lineSeparator(): `assertEquals("\u0002 -> 2\n", ..)`
    # holds on Linux and fails on Windows.
    context = _context(catalog, catalog.info(f"{PACKAGE}.Lines"))
    observed = Observation(scenario="s1", outcome="returned", value=ObservedValue(t="String", v="a -> 2\n"))
    scenario = Scenario(id="s1", method="render", hint="", call="Lines.render(name)", arrange=('String name = "a";',))
    assert 'assertEquals("a -> 2" + System.lineSeparator(), result);' in (final_body(scenario, observed, context) or [])
    # A line break the test hands the class is its own, not the platform's.
    joined = Scenario(id="s1", method="join", hint="", call='Lines.join("a", "b", eol)',
                      arrange=('String eol = "\\n";',))
    observed = observed.model_copy(update={"value": ObservedValue(t="String", v="a\nb")})
    assert 'assertEquals("a\\nb", result);' in (final_body(joined, observed, context) or [])
    # A method that writes no line break of its own keeps the input's as they are.
    upper = Scenario(id="s1", method="upper", hint="", call="Lines.upper(text)", arrange=('String text = "a\\nb";',))
    observed = observed.model_copy(update={"value": ObservedValue(t="String", v="A\nB")})
    assert 'assertEquals("A\\nB", result);' in (final_body(upper, observed, context) or [])
    # Both kinds in one text (WordUtils' `wrap("..\u00e9\\n", 1)`): no text passes on Linux and Windows alike.
    mixed = scenario.model_copy(update={"arrange": ('String name = "a\\n";',)})
    observed = observed.model_copy(update={"value": ObservedValue(t="String", v="a\n -> 2\n")})
    assert final_body(mixed, observed, context) is None

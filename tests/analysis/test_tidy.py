"""A generated class after validation dropped methods: a helper serving a single test goes back where it is used, a
number stands only where a lower name is taken, and a set-up every test overwrites goes."""

from __future__ import annotations

from junitbot.analysis import parse_test_class, tidy_generated

# What commons-text's StringTokenizer kept of 106 methods: three, with helpers named beside those of the dropped ones.
KEPT = """package org.apache.commons.text;

class StringTokenizerGeneratedTest {

    private StringTokenizer stringTokenizer;

    @Test
    void sizeReturns0() {
        stringTokenizer = csvInstance2();
        assertEquals(0, stringTokenizer.size());
    }

    @Test
    void previousAfterNextReturnsAB() {
        stringTokenizer = stringTokenizer2();
        stringTokenizer.next();
        assertEquals("a;b;", stringTokenizer.previous());
    }

    @Test
    void nextOfCsvReturnsNull() {
        StringTokenizer tokenizer = csvInstance2();
        assertNull(tokenizer.next());
    }

    private static StringTokenizer stringTokenizer2() {
        return new StringTokenizer("a;b; c;");
    }

    private static StringTokenizer csvInstance2() {
        return StringTokenizer.getCSVInstance();
    }
}
"""


def test_a_helper_left_serving_one_test_is_inlined_and_a_number_goes_where_the_name_is_free() -> None:
    tidied = tidy_generated(KEPT)

    assert 'stringTokenizer = new StringTokenizer("a;b; c;");' in tidied and "stringTokenizer2" not in tidied
    # Used twice, the helper stays; its number goes, since no `csvInstance()` is declared.
    assert tidied.count("csvInstance()") == 3 and "csvInstance2" not in tidied
    assert "private static StringTokenizer csvInstance() {" in tidied
    assert not parse_test_class(tidied).syntax_errors
    assert tidy_generated(tidied) == tidied


def test_a_helper_is_left_where_inlining_or_renaming_could_change_what_the_code_does() -> None:
    source = """class MoneyGeneratedTest {

    @Test
    void addsAsArgument() {
        assertEquals(money(), Money.of("1"));
    }

    @Test
    void inferred() {
        var amount = amount2();
        Supplier<Money> later = MoneyGeneratedTest::other2;
        assertEquals(sum(), later.get());
    }

    private static Money money() {
        return Money.of("1");
    }

    private static BigDecimal amount2() {
        return BigDecimal.ONE;
    }

    private static Money other2() {
        return Money.of("2");
    }

    private static Money sum() {
        Money one = Money.of("1");
        return one.add(one);
    }
}
"""
    # An argument (its overload could change), a `var` (its type could narrow), a method reference and a helper with
    # statements are not inlined; a number whose name is used otherwise than by calls stays.
    tidied = tidy_generated(source)
    assert "assertEquals(money(), " in tidied and "var amount = amount();" in tidied
    assert "::other2;" in tidied and "private static Money other2()" in tidied and "sum()" in tidied
    # Only `amount2`'s number could go (its one use is a call).
    assert tidied == source.replace("amount2", "amount")
    # A field of the name keeps the number: `money = money()` would read as a mistake.
    header = "class MoneyGeneratedTest {\n"
    with_field = source.replace(header, header + "\n    private BigDecimal amount;\n")
    assert "var amount = amount2();" in tidy_generated(with_field)


def test_a_value_that_needs_them_keeps_parentheses_and_a_file_that_does_not_parse_is_left_alone() -> None:
    source = """class FlagGeneratedTest {

    @Test
    void negated() {
        boolean flag = either();
        assertTrue(flag);
    }

    private static boolean either() {
        return 1 > 2 || 2 > 1;
    }
}
"""
    assert "boolean flag = (1 > 2 || 2 > 1);" in tidy_generated(source)
    # Named in a `@MethodSource` too, the helper is more than its one call: it stays.
    sourced = source.replace("    @Test\n", '    @Test\n    @MethodSource("either")\n')
    assert tidy_generated(sourced) == sourced
    broken = source.replace("assertTrue(flag);", "assertTrue(flag")
    assert tidy_generated(broken) == broken


SET_UP = """class StringTokenizerGeneratedTest {

    private StringTokenizer stringTokenizer;

    @BeforeEach
    void setUp() throws Exception {
        stringTokenizer = new StringTokenizer(new char[] { 'a', ' ', 'b' }, ' ', '"');
    }

    @Test
    void getTokenListReturns3Items() {
        stringTokenizer = new StringTokenizer("a  b c");
        assertEquals(3, stringTokenizer.getTokenList().size());
    }

    @Test
    void sizeReturns0() {
        int before = 0;
        this.stringTokenizer = StringTokenizer.getCSVInstance();
        assertEquals(before, stringTokenizer.size());
    }

    @Test
    void nothingToTokenize() {
        assertNull(StringTokenizer.getTSVInstance().nextToken());
    }
}
"""


def test_a_set_up_every_kept_test_overwrites_before_reading_is_removed() -> None:
    # commons-text's StringTokenizer: the tests that read the set-up's tokenizer were dropped, each one kept builds its
    # own.
    tidied = tidy_generated(SET_UP)
    assert "@BeforeEach" not in tidied and "setUp" not in tidied and "new char[]" not in tidied
    assert "private StringTokenizer stringTokenizer;" in tidied and not parse_test_class(tidied).syntax_errors


def test_a_set_up_a_test_still_reads_or_that_does_more_than_assign_stays() -> None:
    reads = SET_UP.replace('        stringTokenizer = new StringTokenizer("a  b c");\n', "")
    reads_on_the_right = SET_UP.replace('new StringTokenizer("a  b c")', "stringTokenizer.reset()")
    compound = SET_UP.replace('this.stringTokenizer = StringTokenizer.getCSVInstance();',
                              'if (before == 0) {\n            stringTokenizer = StringTokenizer.getCSVInstance();\n'
                              '        }')
    does_more = SET_UP.replace("    void setUp() throws Exception {\n",
                               "    void setUp() throws Exception {\n        Locale.setDefault(Locale.ROOT);\n")
    helper = SET_UP.replace("\n}\n", "\n\n    private int size() {\n        return stringTokenizer.size();\n    }\n}\n")
    nested = SET_UP.replace("\n}\n", "\n\n    @Nested\n    class WhenEmpty {\n    }\n}\n")
    from_a_mock = SET_UP.replace("new char[] { 'a', ' ', 'b' }, ' ', '\"'", "matcher, ' ', '\"'").replace(
        "    private StringTokenizer stringTokenizer;\n", "    private StringTokenizer stringTokenizer;\n\n"
                                                        "    @Mock\n    private StringMatcher matcher;\n")
    for source in (reads, reads_on_the_right, compound, does_more, helper, nested, from_a_mock):
        assert "@BeforeEach" in tidy_generated(source)


def test_a_10000_term_expression_is_walked_without_recursion() -> None:
    long = " + ".join(f'"t{i}"' for i in range(10_000))
    source = SET_UP.replace('new StringTokenizer("a  b c")', f"new StringTokenizer({long})")
    source = source.replace("\n}\n", f"\n\n    private static String joined() {{\n        return {long};\n    }}\n}}\n")
    source = source.replace("int before = 0;", "String text = joined();\n        int before = 0;")
    tidied = tidy_generated(source)
    assert "@BeforeEach" not in tidied and "joined()" not in tidied
    assert f"String text = ({long});" in tidied

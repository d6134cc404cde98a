"""mine_setups: the statements a human test builds a target's receiver and arguments with."""

from __future__ import annotations

from junitbot.analysis import TestSetup, mine_setups

_TEST = """\
package com.acme.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import com.acme.cli.help.Style;

class ParserTest {
    private static final String[] SHARED = {"-x"};
    private Parser shared;

    @Test
    void parsesBundledFlags() {
        Options options = new Options();
        options.addOption("a", "all", false, "all of it");
        options.addOption("b", "bundle", true, "a bundle");
        String unrelated = "left out";
        Properties properties = new Properties();
        String[] args = {"-ab", "foo"};
        Parser parser = new Parser(Style.STRICT);
        parser.setStopAtNonOption(true);
        CommandLine line = parser.parse(options, args);
        assertTrue(line.hasOption("a"));
        assertThrows(ParseException.class, () -> parser.parse(options, new String[] {"--nope"}));
    }

    @Test
    void staticHelpersNeedNoReceiver() {
        assertEquals("x", Parser.strip("-x"));
        assertEquals(List.of(), Parser.split(""));
    }

    @Test
    void usesTheTestClassState() {
        shared.parse(new Options(), SHARED);
        Parser local = make();
        local.parse(new Options(), new String[0]);
        Parser other = new Parser(Style.STRICT);
        other.parse(new Options(), this.args());
    }

    @Test
    void branchesAreNotSliced() {
        Parser parser = new Parser(Style.LENIENT);
        if (System.nanoTime() > 0) {
            parser.setStopAtNonOption(false);
        }
        parser.parse(new Options(), new String[0]);
    }

    private Parser make() { return new Parser(Style.STRICT); }
    private String[] args() { return new String[0]; }
}
"""


def _by_call(setups: tuple[TestSetup, ...]) -> dict[str, TestSetup]:
    return {s.call: s for s in setups}


def test_a_call_keeps_the_statements_that_build_its_receiver_and_arguments_and_nothing_else() -> None:
    setups = _by_call(mine_setups(_TEST, "com.acme.cli.Parser", test_class="com.acme.cli.ParserTest"))
    parse = setups["parser.parse(options, args)"]
    assert parse.statements == (
        "Options options = new Options();",
        'options.addOption("a", "all", false, "all of it");',
        'options.addOption("b", "bundle", true, "a bundle");',
        'String[] args = {"-ab", "foo"};',
        "Parser parser = new Parser(Style.STRICT);",
        "parser.setStopAtNonOption(true);",
    )
    assert (parse.receiver, parse.method, parse.arguments) == ("parser", "parse", ("options", "args"))
    assert parse.test == "com.acme.cli.ParserTest#parsesBundledFlags"
    # The slice names Style, so its import comes along; the unused Properties and the test libraries do not.
    assert [i.name for i in parse.imports] == ["com.acme.cli.help.Style"]


def test_a_call_inside_an_assertion_lambda_is_a_setup_and_its_assertion_is_not() -> None:
    setups = _by_call(mine_setups(_TEST, "com.acme.cli.Parser"))
    thrown = setups['parser.parse(options, new String[] {"--nope"})']
    assert not any("assert" in s for s in thrown.statements)
    assert "parser.setStopAtNonOption(true);" in thrown.statements


def test_static_calls_are_setups_without_a_receiver() -> None:
    setups = _by_call(mine_setups(_TEST, "com.acme.cli.Parser"))
    assert setups['Parser.strip("-x")'].receiver is None
    assert setups['Parser.strip("-x")'].statements == ()


def test_a_slice_that_needs_the_test_class_or_a_branch_is_left_out() -> None:
    calls = set(_by_call(mine_setups(_TEST, "com.acme.cli.Parser")))
    assert "shared.parse(new Options(), SHARED)" not in calls  # fields of the test class nothing sets up
    assert "other.parse(new Options(), this.args())" not in calls  # `this`
    # The branch may change the parser: a slice without it would not be what the test ran.
    assert "parser.parse(new Options(), new String[0])" not in calls


def test_calls_on_other_classes_are_not_setups_of_the_target() -> None:
    assert all(s.method != "hasOption" for s in mine_setups(_TEST, "com.acme.cli.Parser"))
    options = mine_setups(_TEST, "com.acme.cli.Options")
    assert {s.method for s in options} == {"addOption"}
    first = next(s for s in options if "all of it" in s.call)
    assert first.statements == ("Options options = new Options();",)


_FIXTURES = """\
package com.acme.shop;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OrderTest {
    private static final ProductId BOOK = ProductId.of("book");
    private final Clock clock = Clock.fixed();
    private Order order;
    private Formatter formatter;

    @BeforeEach
    void setUp() {
        Customer customer = new Customer("c-1");
        order = new Order(OrderId.of("o-1"), customer, clock);
        formatter = new Formatter();
        formatter.setWidth(80);
    }

    private static OrderLine line(ProductId product, int quantity, String price) {
        return new OrderLine(product, quantity, Money.of(price, Currency.EUR));
    }

    private OrderLine twice(OrderLine line) {
        return line.times(1 + 1);
    }

    @Test
    void totalSumsAllLines() {
        order.addLines(line(BOOK, 2, "12.50"), twice(line(BOOK, 1, "1.20")));
        formatter.render(order);
    }
}
"""


def test_fixtures_become_locals_and_one_line_helpers_are_inlined() -> None:
    setups = _by_call(mine_setups(_FIXTURES, "com.acme.shop.Order", test_class="com.acme.shop.OrderTest"))
    add = setups['order.addLines(new OrderLine(book, 2, Money.of("12.50", Currency.EUR)), '
                 'new OrderLine(book, 1, Money.of("1.20", Currency.EUR)).times(1 + 1))']
    # What the call needs, in the order the test class builds it: constants (named as locals are) and initialized
    # fields, then the set-up's locals and assignments; nothing it does not need (the formatter).
    assert add.statements == (
        'ProductId book = ProductId.of("book");',
        "Clock clock = Clock.fixed();",
        'Customer customer = new Customer("c-1");',
        'Order order = new Order(OrderId.of("o-1"), customer, clock);',
    )
    assert add.receiver == "order"


def test_a_fixtures_configuring_calls_come_with_it() -> None:
    setups = _by_call(mine_setups(_FIXTURES, "com.acme.shop.Formatter"))
    assert list(setups) == ["formatter.render(order)"]  # the set-up method is no test to mine
    render = setups["formatter.render(order)"].statements
    assert render[3:] == ('Order order = new Order(OrderId.of("o-1"), customer, clock);',
                          "Formatter formatter = new Formatter();", "formatter.setWidth(80);",
                          'order.addLines(new OrderLine(book, 2, Money.of("12.50", Currency.EUR)), '
                          'new OrderLine(book, 1, Money.of("1.20", Currency.EUR)).times(1 + 1));')


def test_the_setups_of_one_member_spread_from_the_simplest_to_the_richest() -> None:
    calls = "\n".join(f'        Text.pad("{"x" * n}");' for n in range(1, 11))
    source = f"package p;\n\nclass TextTest {{\n    @Test\n    void pads() {{\n{calls}\n    }}\n}}\n"
    chosen = [s.call for s in mine_setups(source, "p.Text")]
    assert len(chosen) == 6
    assert chosen[0] == 'Text.pad("x")' and chosen[-1] == f'Text.pad("{"x" * 10}")'


def test_a_test_method_of_thousands_of_statements_is_read_in_bounded_work() -> None:
    # A generated test (data tables written as code) can hold thousands of calls: each slices back a bounded way.
    body = "\n".join(f"        Text text{i} = Text.of(\"v{i}\");\n        text{i}.pad({i});" for i in range(5_000))
    source = f"package p;\n\nclass TextTest {{\n    @Test\n    void many() {{\n{body}\n    }}\n}}\n"
    setups = mine_setups(source, "p.Text")
    assert {s.method for s in setups} == {"of", "pad"}
    pad = next(s for s in setups if s.method == "pad")
    assert pad.statements == (f'Text {pad.receiver} = Text.of("v{pad.receiver[4:]}");',)


def test_a_ten_thousand_term_argument_is_read_without_recursion_and_left_out() -> None:
    terms = " + ".join(f'"t{i}"' for i in range(10_000))
    nested = "(" * 10_000 + "1" + ")" * 10_000
    source = (f"package p;\n\nclass TextTest {{\n    @Test\n    void long() {{\n        Text.pad({terms});\n"
              f"        Text.pad({nested});\n    }}\n}}\n")
    # Read to the end with no RecursionError; too long to be an arrange step anyone would read, so no setup.
    assert mine_setups(source, "p.Text") == ()
    assert [s.call for s in mine_setups(source.replace(terms, '"ok"'), "p.Text")] == ['Text.pad("ok")']

"""The builders pass: builder setters and record components."""

from __future__ import annotations

import pytest

from tests.validation.test_static.conftest import (
    BILLING_PATH,
    BILLING_SUBJECT,
    BILLING_TEST,
    INLINE,
    OPTION_PATH,
    OPTION_SUBJECT,
    T1,
    Defect,
    Repo,
    assert_only_issue,
    edit,
    line_of,
    summary,
    variant,
)

DEFECTS: dict[str, Defect] = {
    "builder-setter": edit(".currency(Currency.EUR).build()", ".currncy(Currency.EUR).build()",
                           "unknown-builder-setter", ".currncy("),
    "record-arity": edit("new OrderLine(keyboard.id(), 2, keyboard.price())", "new OrderLine(keyboard.id(), 2)",
                         "record-arity", "new OrderLine(", T1),
    "nested-record-arity": edit("new PlaceOrderCommand.Item(keyboard.id(), quantity)",
                                "new PlaceOrderCommand.Item(keyboard.id())",
                                "record-arity", "new PlaceOrderCommand.Item("),
}


@pytest.mark.parametrize("defect", [pytest.param(d, id=name) for name, d in DEFECTS.items()])
def test_each_defect_yields_exactly_its_issue(shop: Repo, defect: Defect) -> None:
    assert_only_issue(shop, defect, "builders")


def test_unknown_setters_and_record_arities_suggest_the_real_ones(shop: Repo) -> None:
    setter = shop.check(variant(".currency(Currency.EUR).build()", ".currncy(Currency.EUR).build()"))
    assert setter[0].suggestion == "setters: currency, amount"
    record = shop.check(variant("new OrderLine(keyboard.id(), 2, keyboard.price())", "new OrderLine(keyboard.id())"))
    assert record[0].suggestion == "constructors: OrderLine(ProductId productId, int quantity, Money unitPrice)"


def test_setter_arguments_are_not_mistaken_for_setters(shop: Repo) -> None:
    source = variant('Money.builder().amount("30.00")', "Money.builder().amount(String.valueOf(30.00))")
    assert shop.check(source) == []


def test_lombok_builders_know_their_setters(billing: Repo) -> None:
    source = variant(".quantity(2)", ".qty(2)", BILLING_TEST)
    issues = billing.check(source, subject=BILLING_SUBJECT, path=BILLING_PATH, frameworks=INLINE)
    assert summary(issues) == [("WARNING", "unknown-builder-setter", line_of(source, "LineItem.builder()"))]
    assert issues[0].suggestion == "setters: quantity, sku"


OPTION_TEST = """\
package org.acme.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OptionTest {

    @Test
    void chainsThatLeaveTheBuilder() {
        assertEquals(Option.builder().longOpt("a").get().hashCode(), Option.builder().build().hashCode());
        assertEquals("a", Option.builder().longOpt("a").build().getLongOpt());
        assertEquals("x", Parser.builder().strict(true).build().parse(" x "));
    }
}
"""


def test_a_chain_that_leaves_the_builder_is_not_read_as_setters(options: Repo) -> None:
    # Issue 18: `Option.builder() has no setter hashCode`, `DefaultParser.builder() has no setter parse`.
    assert options.check(OPTION_TEST, subject=OPTION_SUBJECT, path=OPTION_PATH) == []
    typo = variant('.longOpt("a").build()', '.longOp("a").build()', OPTION_TEST)
    issues = options.check(typo, subject=OPTION_SUBJECT, path=OPTION_PATH)
    assert summary(issues) == [("WARNING", "unknown-builder-setter", line_of(typo, '.longOp("a")'))]
    assert issues[0].message == "Option.builder() has no setter longOp"
    assert (issues[0].suggestion or "").startswith("setters: longOpt")

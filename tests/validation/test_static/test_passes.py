"""The pass registry and the run: order, the good candidate, skipping after syntax errors, disabling."""

from __future__ import annotations

from junitbot.config import STATIC_PASSES, ValidationSettings
from junitbot.validation.static import PASSES, passed
from tests.conftest import EXAMPLE
from tests.validation.test_static.conftest import (
    EXTENSION,
    GOOD,
    NULL_COMMAND,
    Repo,
    variant,
)


def test_the_good_candidate_passes_every_pass(shop: Repo) -> None:
    issues = shop.check(GOOD)
    assert issues == []
    assert passed(issues)


def test_passes_follow_the_configured_order() -> None:
    assert tuple(PASSES) == STATIC_PASSES


def test_the_examples_own_tests_pass_with_their_mock_setup(shop: Repo) -> None:
    source = (EXAMPLE / "src/test/java/com/acme/shop/application/PlaceOrderServiceTest.java").read_text()
    assert shop.check(source, frameworks=EXTENSION) == []


def test_a_syntax_error_stops_the_later_passes(shop: Repo) -> None:
    source = variant("    @Mock\n    private OrderRepository orders;\n", "    @Mock\n    private OrderRepository\n") \
        .replace("payments, events, time);", "payments, events);")
    issues = shop.check(source)
    assert {i.pass_name for i in issues} == {"syntax"}


EVERY_PASS = variant(NULL_COMMAND, "        Thread.sleep(1);\n        System.out.println(service.place(command(1)));\n"
                                   "        Money m = Money.builder().currncy(Currency.EUR).build();\n"
                                   "        PlaceOrderService mocked = mock(PlaceOrderService.class);\n") \
    .replace("package com.acme.shop.application;", "package com.acme.shop.app;")


def test_a_defect_in_every_pass_is_reported_by_every_pass(shop: Repo) -> None:
    issues = shop.check(EVERY_PASS)
    assert {i.pass_name for i in issues} == set(STATIC_PASSES)


def test_disabled_passes_report_nothing(shop: Repo) -> None:
    assert shop.check(EVERY_PASS, settings=ValidationSettings(disabled_passes=STATIC_PASSES)) == []
    for name in STATIC_PASSES:
        issues = shop.check(EVERY_PASS, settings=ValidationSettings(disabled_passes=(name,)))
        assert {i.pass_name for i in issues} == set(STATIC_PASSES) - {name}

"""The mocking pass: what is mocked, and how mocks are set up on the classpath at hand."""

from __future__ import annotations

import pytest

from junitbot.validation.build.models import Frameworks
from junitbot.validation.models import ValidationIssue
from tests.validation.test_static.conftest import (
    BILLING_PATH,
    BILLING_SUBJECT,
    BILLING_TEST,
    EXTENSION,
    GOOD,
    INLINE,
    MOCKITO_2,
    MOCKITO_5,
    NULL_COMMAND,
    OPTION_PATH,
    OPTION_SUBJECT,
    SUBJECT_NEW,
    WARNING,
    Defect,
    Repo,
    assert_only_issue,
    edit,
    in_t3,
    line_of,
    summary,
    variant,
)

DEFECTS: dict[str, Defect] = {
    "mocked-subject": edit("    private PlaceOrderService service;",
                           "    @Mock\n    private PlaceOrderService service;",
                           "mocked-subject", "private PlaceOrderService service;"),
    "spied-subject": edit(f"service = {SUBJECT_NEW};", f"service = spy({SUBJECT_NEW});",
                          "spied-subject", "service = spy(", severity=WARNING),
    "mocked-record": in_t3("        CustomerId nobody = mock(CustomerId.class);\n",
                           "mocked-value-type", "mock(CustomerId.class)"),
    "mocked-enum": in_t3("        Currency currency = mock(Currency.class);\n",
                         "mocked-value-type", "mock(Currency.class)"),
    "mocked-final-class": in_t3("        Money money = mock(Money.class);\n",
                                "mocked-final-class", "mock(Money.class)"),
    "unmocked-collaborator": edit("    @Mock\n    private PaymentGateway payments;\n", "",
                                  "unmocked-collaborator", "class PlaceOrderServiceTest"),
    "unbuilt-collaborator": edit("private final TimeSource time = () -> NOW;", "private TimeSource time;",
                                 "unmocked-collaborator", "class PlaceOrderServiceTest"),
    "no-mock-setup": edit("@ExtendWith(MockitoExtension.class)\n", "",
                          "mocks-not-initialised", "private OrderRepository orders;"),
}


@pytest.mark.parametrize("defect", [pytest.param(d, id=name) for name, d in DEFECTS.items()])
def test_each_defect_yields_exactly_its_issue(shop: Repo, defect: Defect) -> None:
    assert_only_issue(shop, defect, "mocking")


def test_a_base_test_class_may_declare_the_mocks_and_their_setup(shop: Repo) -> None:
    source = variant("@ExtendWith(MockitoExtension.class)\nclass PlaceOrderServiceTest {",
                     "class PlaceOrderServiceTest extends ShopTestSupport {")
    source = variant("    @Mock\n    private PaymentGateway payments;\n", "", source)
    assert shop.check(source) == []


WITH_OPEN_MOCKS = variant("@ExtendWith(MockitoExtension.class)\n", "").replace(
    "    void setUp() {\n", "    void setUp() {\n        MockitoAnnotations.openMocks(this);\n")
WITH_INIT_MOCKS = WITH_OPEN_MOCKS.replace("openMocks", "initMocks")


@pytest.mark.parametrize(("source", "frameworks", "expected"), [
    pytest.param(GOOD, EXTENSION, [], id="extension-on-classpath"),
    pytest.param(GOOD, MOCKITO_5, [("WARNING", "mockito-extension-unavailable", "@ExtendWith")],
                 id="extension-missing"),
    pytest.param(WITH_OPEN_MOCKS, MOCKITO_5, [], id="openMocks-mockito-5"),
    pytest.param(WITH_OPEN_MOCKS, MOCKITO_2, [("WARNING", "mockito-api-unavailable", "openMocks")],
                 id="openMocks-mockito-2"),
    pytest.param(WITH_INIT_MOCKS, MOCKITO_2, [], id="initMocks-mockito-2"),
    pytest.param(WITH_INIT_MOCKS, MOCKITO_5, [("WARNING", "mock-setup-style", "initMocks")], id="initMocks-mockito-5"),
    pytest.param(WITH_OPEN_MOCKS, EXTENSION, [("WARNING", "mock-setup-style", "openMocks")], id="openMocks-extension"),
    pytest.param(WITH_INIT_MOCKS, Frameworks(), [], id="initMocks-unknown-mockito"),
])
def test_mock_setup_must_suit_the_classpath(shop: Repo, source: str, frameworks: Frameworks,
                                            expected: list[tuple[str, str, str]]) -> None:
    issues = shop.check(source, frameworks=frameworks)
    assert summary(issues) == [(s, c, line_of(source, snippet)) for s, c, snippet in expected]


@pytest.mark.parametrize(("call", "frameworks", "expected"), [
    ("verifyNoInteractions(events);", MOCKITO_5, []),
    ("verifyNoInteractions(events);", MOCKITO_2, ["mockito-api-unavailable"]),
    ("verifyZeroInteractions(events);", MOCKITO_2, []),
    ("verifyZeroInteractions(events);", MOCKITO_5, ["mockito-api-unavailable"]),
])
def test_verify_no_interactions_depends_on_the_mockito_version(
    shop: Repo, call: str, frameworks: Frameworks, expected: list[str]
) -> None:
    source = variant(NULL_COMMAND, NULL_COMMAND + f"        {call}\n", WITH_INIT_MOCKS)
    issues = shop.check(source, frameworks=frameworks)
    assert [i.category for i in issues if i.category != "mock-setup-style"] == expected


def test_the_billing_candidate_passes_with_inline_mocks(billing: Repo) -> None:
    assert billing.check(BILLING_TEST, subject=BILLING_SUBJECT, path=BILLING_PATH, frameworks=INLINE) == []


def test_final_classes_need_the_inline_mock_maker(billing: Repo) -> None:
    def check(frameworks: Frameworks) -> list[ValidationIssue]:
        return billing.check(BILLING_TEST, subject=BILLING_SUBJECT, path=BILLING_PATH, frameworks=frameworks)

    line = line_of(BILLING_TEST, "private TaxService taxes;")
    assert summary(check(EXTENSION)) == [("WARNING", "mocked-final-class", line)]
    assert check(INLINE) == []


def test_value_types_with_inline_mocks_still_warn(shop: Repo) -> None:
    source = variant(NULL_COMMAND, NULL_COMMAND + "        Money money = mock(Money.class);\n")
    issues = shop.check(source, frameworks=INLINE)
    assert summary(issues) == [("WARNING", "mocked-value-type", line_of(source, "mock(Money.class)"))]


def test_a_value_object_built_through_its_builder_has_nothing_to_mock(options: Repo) -> None:
    # Issue 18: "collaborator converter (Converter) is neither mocked nor built" in tests of a value object that
    # the test gets from its builder: the builder supplies what the object holds.
    test = """\
package org.acme.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OptionTest {
    @Test
    void keepsItsLongOption() {
        assertEquals("a", Option.builder().longOpt("a").build().getLongOpt());
    }
}
"""
    assert "converter" in [c.name for c in options.contexts[OPTION_SUBJECT].collaborators]
    assert options.check(test, subject=OPTION_SUBJECT, path=OPTION_PATH) == []

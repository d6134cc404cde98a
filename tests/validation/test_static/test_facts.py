"""What the passes read from a candidate: declarations, scopes and the names a test writes, resolved."""

from __future__ import annotations

from junitbot.analysis import Node
from junitbot.config import ValidationSettings
from junitbot.validation.models import TestCandidate as Candidate
from junitbot.validation.static import CheckInput, KnownTypes, ParsedTest, parse_test
from tests.validation.test_static.conftest import EXTENSION, GOOD, SUBJECT, TEST_PATH, Repo

SOURCE = """\
package com.acme.shop.application;

import com.acme.shop.domain.Money;
import com.acme.shop.domain.port.*;
import static org.mockito.Mockito.mock;

class ScopesTest {
    private OrderRepository orders;
    private Money price;

    @BeforeEach
    void setUp() {
        this.orders = mock(OrderRepository.class);
    }

    @Test
    void shadows() {
        var price = Money.of("1", null);
        check(price);
    }

    private void check(Money money) {
    }
}
"""


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return "" if name is None or name.text is None else name.text.decode()


def _value_in(test: ParsedTest, name: str, method: str) -> Node:
    """The first use of variable `name` as a value inside `method`."""
    body = next(m for m in test.nodes("method") if _name(m) == method)
    return next(n for n in test.within("value", body) if n.text == name.encode())


def test_the_candidate_is_parsed_into_its_declarations() -> None:
    test = parse_test(SOURCE)

    assert test.package == "com.acme.shop.application"
    assert [(i.name, i.static, i.wildcard, i.line) for i in test.imports] == [
        ("com.acme.shop.domain.Money", False, False, 3),
        ("com.acme.shop.domain.port", False, True, 4),
        ("org.mockito.Mockito.mock", True, False, 5),
    ]
    assert [_name(m) for m in test.test_methods] == ["shadows"]
    assert set(test.helpers) == {"setUp", "check"}
    assert not test.inherits


def test_assignments_give_fields_their_role_and_locals_shadow_fields() -> None:
    test = parse_test(SOURCE)

    orders = test.fields["orders"]
    assert (orders.type, orders.role, orders.scope) == ("OrderRepository", "mock", None)
    price = _value_in(test, "price", "shadows")
    local = test.var_at("price", price)
    assert local is not None and local.scope is not None and local.type == "var"
    assert test.var_at("orders", price) == orders
    assert test.fields["price"].type == "Money"
    assert {v.name for v in test.all_vars()} == {"orders", "price", "money"}


def test_names_resolve_by_import_package_and_wildcard(shop: Repo) -> None:
    inp = CheckInput(
        candidate=Candidate(path=TEST_PATH, source=GOOD, target=SUBJECT), test=parse_test(SOURCE),
        subject=shop.infos[SUBJECT], context=shop.contexts[SUBJECT], frameworks=EXTENSION,
        settings=ValidationSettings(), known=KnownTypes(shop.infos.get, ("com.google.common",)),
    )

    assert (money := inp.resolve("Money")) is not None and money.fqn == "com.acme.shop.domain.Money"
    assert (orders := inp.resolve("OrderRepository")) is not None
    assert orders.fqn == "com.acme.shop.domain.port.OrderRepository"
    assert inp.resolve("PlaceOrderService") is shop.infos[SUBJECT]
    assert inp.resolve("String") is None and inp.resolve("Money[]") is None
    assert inp.is_subject("PlaceOrderService") and not inp.is_subject("Money")
    assert inp.known.is_external("com.google.common.base.Strings") and not inp.known.is_external("com.acme.shop")


def test_tests_and_helpers_come_from_the_one_test_class_parser() -> None:
    source = SOURCE.replace("    private void check(", """\
    @TestFactory
    Stream<DynamicTest> dynamic() {
        return Stream.of(DynamicTest.dynamicTest("x", () -> check(price)));
    }

    @Nested
    class Inner {
        @TestTemplate
        void templated() {
        }
    }

    private void check(""")
    test = parse_test(source)

    assert [_name(m) for m in test.test_methods] == ["shadows", "dynamic", "templated"]
    assert test.test_class.test_names == ("shadows", "dynamic", "templated")
    assert set(test.helpers) == {"setUp", "check"}

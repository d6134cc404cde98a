"""DependencyAnalyzer on the example shop: test contexts, impact paths and name lookup."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, DependencyAnalyzer, EdgeKind, update_graph
from junitbot.config import JunitbotConfig
from junitbot.errors import UnknownClassError
from junitbot.state import StateDir

DOMAIN = "com.acme.shop.domain"
PORT = "com.acme.shop.domain.port"
APP = "com.acme.shop.application"


@pytest.fixture
def analyzer(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> Iterator[DependencyAnalyzer]:
    state = state_for(shop_repo)
    update_graph(shop_repo, state, config_for(shop_repo))
    with CodeGraph.open(state.graph_db) as graph:
        yield DependencyAnalyzer(graph)


def test_context_of_a_service_mocks_ports_and_builds_values(analyzer: DependencyAnalyzer) -> None:
    context = analyzer.test_context_for("PlaceOrderService")
    assert context.target == f"{APP}.PlaceOrderService" and context.layer == "application"
    mocks = {c.type.fqn: c.via for c in context.collaborators}
    assert mocks == {
        f"{PORT}.OrderRepository": "constructor", f"{PORT}.ProductRepository": "constructor",
        f"{PORT}.CustomerRepository": "constructor", f"{PORT}.PaymentGateway": "constructor",
        f"{PORT}.EventPublisher": "constructor", f"{PORT}.TimeSource": "constructor",
        f"{DOMAIN}.PricingService": "constructor",
    }
    values = {v.fqn: v.strategy for v in context.value_types}
    assert values[f"{APP}.PlaceOrderCommand"] == "record"
    assert values[f"{DOMAIN}.Currency"] == "enum"
    assert values[f"{DOMAIN}.CustomerId"] == "record"
    assert not set(values) & set(mocks)
    assert context.existing_tests == (f"{APP}.PlaceOrderServiceTest",)


def test_context_of_a_value_object_with_a_builder(analyzer: DependencyAnalyzer) -> None:
    context = analyzer.test_context_for(f"{DOMAIN}.Money")
    assert context.collaborators == ()
    assert context.layer == "domain"
    assert f"{DOMAIN}.MoneyTest" in context.existing_tests
    money = analyzer.graph.class_info(f"{DOMAIN}.Money")
    assert money is not None and money.builder is not None
    assert money.builder.builder_type == f"{DOMAIN}.Money.Builder"


def test_impact_paths_explain_each_dependent(analyzer: DependencyAnalyzer) -> None:
    report = analyzer.impact_of(["OrderRepository"], depth=3)
    by_fqn = {d.fqn: d for d in report.dependents}
    place = by_fqn[f"{APP}.PlaceOrderService"]
    assert place.depth == 1
    assert place.path[0].target == f"{PORT}.OrderRepository"
    assert place.path[0].kind in (EdgeKind.CONSTRUCTOR_PARAMETER, EdgeKind.FIELD)
    for item in report.dependents:
        assert len(item.path) == item.depth
        assert item.path[0].source == item.fqn and item.path[-1].target == f"{PORT}.OrderRepository"
        for step, following in zip(item.path, item.path[1:], strict=False):
            assert step.target == following.source
            assert (step.source, step.kind) in analyzer.graph.dependents(step.target)
    assert f"{APP}.PlaceOrderServiceTest" in {t.fqn for t in report.tests}


def test_impact_depth_limits_transitive_dependents(analyzer: DependencyAnalyzer) -> None:
    shallow = analyzer.impact_of([f"{DOMAIN}.Money"], depth=1)
    deep = analyzer.impact_of([f"{DOMAIN}.Money"], depth=3)
    assert all(d.depth == 1 for d in shallow.dependents)
    assert {d.fqn for d in shallow.dependents} < {d.fqn for d in deep.dependents}


def test_unknown_and_ambiguous_names_list_the_closest(analyzer: DependencyAnalyzer) -> None:
    with pytest.raises(UnknownClassError) as caught:
        analyzer.lookup("Mony")
    assert f"{DOMAIN}.Money" in caught.value.candidates
    assert analyzer.lookup("Money.Builder") == f"{DOMAIN}.Money.Builder"
    assert analyzer.lookup(f"{DOMAIN}.Order") == f"{DOMAIN}.Order"


def test_context_of_an_abstract_type_names_what_a_test_can_instantiate(analyzer: DependencyAnalyzer) -> None:
    # A sealed interface: its permitted records, in the order `permits` lists them.
    assert analyzer.test_context_for(f"{DOMAIN}.Result").implementations == (f"{DOMAIN}.Result.Ok",
                                                                            f"{DOMAIN}.Result.Err")
    # Through the interfaces that extend it; records implement interfaces too.
    assert analyzer.test_context_for(f"{PORT}.Repository").implementations == tuple(
        f"com.acme.shop.infrastructure.InMemory{name}Repository" for name in ("Customer", "Order", "Product"))
    assert analyzer.test_context_for(f"{DOMAIN}.DomainEvent").implementations == (
        f"{DOMAIN}.OrderCancelled", f"{DOMAIN}.OrderPlaced")
    # Lambdas only, and a concrete class: nothing to list.
    assert analyzer.test_context_for(f"{DOMAIN}.DiscountPolicy").implementations == ()
    assert analyzer.test_context_for(f"{DOMAIN}.Money").implementations == ()

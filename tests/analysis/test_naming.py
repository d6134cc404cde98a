"""class_named_by_test: the one rule for which class a test class is named after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, DependencyAnalyzer, class_named_by_test, update_graph
from junitbot.config import JunitbotConfig
from junitbot.state import StateDir


@pytest.mark.parametrize(("test_name", "tested"), [
    ("OrderTest", "Order"),
    ("OrderTests", "Order"),
    ("OrderIT", "Order"),
    ("OrderTestCase", "Order"),
    ("OrderSpec", "Order"),
    ("TestOrder", "Order"),
    ("TestDataTest", "TestData"),  # a suffix wins over the prefix
    ("OrderServiceTest", "OrderService"),
])
def test_conventional_test_names_name_their_class(test_name: str, tested: str) -> None:
    assert class_named_by_test(test_name) == tested


@pytest.mark.parametrize("name", ["Test", "Tests", "IT", "Testing", "Order", "OrderTesting", "Test_Order", ""])
def test_other_names_name_no_class(name: str) -> None:
    assert class_named_by_test(name) is None


def test_tests_of_finds_every_naming_convention(
    make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir],
) -> None:
    tests = {name: f"package a;\nclass {name} {{}}\n" for name in ("OrderTest", "OrderIT", "TestOrder", "OrderingTest")}
    root = make_java_repo({
        "src/main/java/a/Order.java": "package a;\npublic class Order {}\n",
        **{f"src/test/java/a/{name}.java": source for name, source in tests.items()},
    })
    state = state_for(root)
    update_graph(root, state, config_for(root))
    with CodeGraph.open(state.graph_db) as graph:
        assert DependencyAnalyzer(graph).tests_of("a.Order") == ["a.OrderIT", "a.OrderTest", "a.TestOrder"]

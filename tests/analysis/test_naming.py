"""class_named_by_test: the one rule for which class a test class is named after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.analysis import (
    CodeGraph,
    DependencyAnalyzer,
    JavaImport,
    class_named_by_test,
    class_tested_by,
    update_graph,
)
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


FQNS = ["a.Util", "b.Util", "c.Money", "d.Order", "d.Outer.Inner"]


def _named(name: str) -> list[str]:
    return [fqn for fqn in FQNS if fqn.rsplit(".", 1)[-1] == name]


def _imports(*lines: str) -> tuple[JavaImport, ...]:
    return tuple(JavaImport(name=line.removesuffix(".*"), static=line.startswith("static "),
                            wildcard=line.endswith(".*")) for line in lines)


@pytest.mark.parametrize(("test", "package", "imports", "tested"), [
    ("UtilTest", "b", (), "b.Util"),  # its own package
    ("UtilTest", "b", ("a.Util",), "a.Util"),  # a single-type import shadows the package's type
    ("UtilTest", "z", ("a.*",), "a.Util"),  # on demand, as javac counts it
    ("UtilTest", "b", ("a.*",), "b.Util"),  # the package's type shadows an on-demand import
    ("UtilTest", "z", ("a.*", "b.*"), None),  # two on-demand imports: ambiguous
    ("UtilTest", "z", (), None),  # two classes, neither named by the test
    ("UtilTest", "a", ("org.other.Util",), None),  # means a class from outside the repo
    ("MoneyTest", "z", (), "c.Money"),  # the only class of its name
    ("OrderGeneratedTest", "d", (), "d.Order"),  # junitbot's own suffix
    ("InnerTest", "z", ("d.Outer.*",), "d.Outer.Inner"),
    ("WidgetTest", "a", (), None),  # names no class of the repo
    ("Helpers", "a", (), None),  # follows no convention
])
def test_class_tested_by_resolves_the_name_like_javac(test: str, package: str, imports: tuple[str, ...],
                                                      tested: str | None) -> None:
    assert class_tested_by(test, package=package, imports=_imports(*imports), fqns_named=_named,
                           generated_suffix="GeneratedTest") == tested


def test_tests_of_asks_the_test_which_class_it_means(
    make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir],
) -> None:
    root = make_java_repo({
        "src/main/java/a/Util.java": "package a;\npublic class Util {}\n",
        "src/main/java/b/Util.java": "package b;\npublic class Util {}\n",
        "src/test/java/c/UtilTest.java": "package c;\nimport b.*;\nclass UtilTest {}\n",
    })
    state = state_for(root)
    update_graph(root, state, config_for(root))
    with CodeGraph.open(state.graph_db) as graph:
        analyzer = DependencyAnalyzer(graph)
        assert analyzer.tests_of("b.Util") == ["c.UtilTest"]
        assert analyzer.tests_of("a.Util") == []

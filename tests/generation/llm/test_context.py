"""ContextBuilder on the example shop: tiers, the budget trimmed and dropped in order, the model's tokenizer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import JunitbotConfig
from junitbot.generation.llm.context import (
    TIERS,
    ContextBuilder,
    EstimatedCounter,
    Examples,
    TargetContext,
    token_counter,
)
from junitbot.generation.output import without_file_header
from junitbot.state import StateDir
from tests.generation.llm.conftest import FRAMEWORKS

PLACE_ORDER = "com.acme.shop.application.PlaceOrderService"
ORDER = len(TIERS)


@pytest.fixture
def graph(shop_repo: Path, config_for: Callable[[Path], JunitbotConfig],
          state_for: Callable[[Path], StateDir]) -> CodeGraph:
    state = state_for(shop_repo)
    update_graph(shop_repo, state, config_for(shop_repo))
    return CodeGraph.open(state.graph_db)


def _statuses(context: TargetContext) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {tier: set() for tier in TIERS}
    for item in context.items:
        found[item.tier].add(item.status)
    return found


def test_a_roomy_budget_keeps_every_tier_whole(graph: CodeGraph) -> None:
    context = ContextBuilder(graph, frameworks=FRAMEWORKS, budget=50_000).build(PLACE_ORDER)
    assert all(item.status == "kept" for item in context.items)
    names = {tier: [i.name for i in context.shown(tier)] for tier in TIERS}
    assert names["class_under_test"] == [PLACE_ORDER]
    assert "com.acme.shop.domain.port.OrderRepository" in names["collaborators"]
    assert len(names["collaborators"]) == 7
    assert "com.acme.shop.application.PlaceOrderCommand" in names["value_types"]
    assert names["similar_tests"] == ["src/test/java/com/acme/shop/application/PlaceOrderServiceTest.java"]
    assert "com.acme.shop.domain.Order" in names["transitive_types"]
    subject = context.shown("class_under_test")[0].text
    assert subject.startswith("package com.acme.shop.application;") and "public OrderId placeOrder(" in subject
    repository = next(i.text for i in context.shown("collaborators") if i.name.endswith("ProductRepository"))
    assert "Optional<Product> findBySku(String sku);" in repository
    assert "/** Products with fewer than {@code threshold} units in stock, emptiest first. */" in repository
    assert context.tokens == sum(t.tokens for t in context.tiers) <= context.budget
    assert context.estimated and context.tokenizer.startswith("estimate")
    assert context.conventions.mock_setup == "initMocks" and context.conventions.naming_style == "camel"


def test_a_small_budget_trims_then_drops_from_the_lowest_tier_up(graph: CodeGraph) -> None:
    builder = ContextBuilder(graph, frameworks=FRAMEWORKS, budget=50_000)
    full = {t.tier: t.tokens for t in builder.build(PLACE_ORDER).tiers}
    builder.budget = full["class_under_test"] + full["collaborators"] + full["value_types"] + 150
    context = builder.build(PLACE_ORDER)
    statuses = _statuses(context)
    assert statuses["class_under_test"] == statuses["collaborators"] == statuses["value_types"] == {"kept"}
    assert statuses["similar_tests"] == {"dropped"}
    assert "dropped" not in statuses["transitive_types"] or "trimmed" in statuses["transitive_types"]
    assert context.tokens <= context.budget
    dropped = next(i for i in context.items if i.tier == "similar_tests")
    assert dropped.text == "" and dropped.tokens == 0 and "over budget" in (dropped.reason or "")
    # Tighter: the value types are trimmed before any collaborator is touched.
    builder.budget = full["class_under_test"] + full["collaborators"] + 60
    tighter = builder.build(PLACE_ORDER)
    assert _statuses(tighter)["collaborators"] == {"kept"}
    assert "trimmed" in _statuses(tighter)["value_types"] or "dropped" in _statuses(tighter)["value_types"]
    assert tighter.tokens <= tighter.budget


def test_the_class_under_test_is_never_dropped_only_trimmed(graph: CodeGraph) -> None:
    context = ContextBuilder(graph, frameworks=FRAMEWORKS, budget=300).build(PLACE_ORDER)
    subject = context.items[0]
    assert subject.tier == "class_under_test" and subject.status == "trimmed" and subject.text
    assert "exceeds the budget" in (subject.reason or "")
    assert all(i.status != "kept" for i in context.items[1:])  # dropped, or trimmed into the room left
    assert context.tokens <= context.budget


def test_similar_tests_come_from_the_injected_retrieval(graph: CodeGraph) -> None:
    asked: list[tuple[str, int]] = []

    def similar(fqn: str, k: int) -> Sequence[tuple[str, str]]:
        asked.append((fqn, k))
        return [("src/test/java/x/ATest.java", "class ATest { @Test void a() {} }"),
                ("src/test/java/x/BTest.java", "class BTest { @Test void b() {} }"),
                ("src/test/java/x/CTest.java", "class CTest { }")]

    builder = ContextBuilder(graph, frameworks=FRAMEWORKS, budget=50_000, examples=Examples(similar, 2))
    context = builder.build("com.acme.shop.domain.Money")
    assert asked == [("com.acme.shop.domain.Money", 2)]
    assert [i.name for i in context.shown("similar_tests")] == ["src/test/java/x/ATest.java",
                                                                "src/test/java/x/BTest.java"]


def test_examples_show_their_first_tests_and_no_prompt_spends_tokens_on_licences(graph: CodeGraph) -> None:
    # Issue 17: a 1.5B model shown a class's whole human test copies it; a licence costs ~250 tokens per file.
    cases = "\n".join(f"    @Test void case{i}() {{ assertEquals({i}, {i}); }}" for i in range(12))
    licence = "/*\n * Licensed to the Apache Software Foundation (ASF).\n */\n// generated\n"
    example = f"{licence}package x;\n\nimport org.junit.jupiter.api.Test;\n\nclass ATest {{\n{cases}\n}}\n"
    builder = ContextBuilder(graph, frameworks=FRAMEWORKS, budget=50_000,
                             examples=Examples(lambda fqn, k: [("src/test/java/x/ATest.java", example)], 1))
    [shown] = builder.build("com.acme.shop.domain.Money").shown("similar_tests")
    assert "case0()" in shown.text and "case1()" in shown.text and "case2()" not in shown.text
    assert "more tests" not in shown.text and "Licensed" not in shown.text
    assert without_file_header(licence + "package x;\nclass A {}") == "package x;\nclass A {}"
    assert without_file_header("package x;\n/** A. */\nclass A {}") == "package x;\n/** A. */\nclass A {}"


def test_counting_uses_the_models_own_tokenizer(graph: CodeGraph, tiny_model: Path) -> None:
    from transformers import AutoTokenizer

    counter = token_counter(str(tiny_model))
    assert not counter.estimated and counter.name == str(tiny_model)
    context = ContextBuilder(graph, frameworks=FRAMEWORKS, budget=50_000, counter=counter).build(PLACE_ORDER)
    subject = context.items[0]
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    assert subject.tokens == len(tokenizer.encode(subject.text, add_special_tokens=False))
    assert subject.tokens != EstimatedCounter().count(subject.text)
    assert not context.estimated and context.tokenizer == str(tiny_model)


def test_without_a_tokenizer_the_count_says_it_is_an_estimate(tmp_path: Path) -> None:
    counter = token_counter(str(tmp_path / "no-model"))
    assert counter.estimated and counter.count("abcdefgh") == 2
    assert token_counter(None).estimated

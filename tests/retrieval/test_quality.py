"""Search quality on the example: hand-written method queries, and style examples of the same layer."""

from __future__ import annotations

from pathlib import Path

import yaml

from junitbot.analysis import CodeGraph
from junitbot.retrieval.models import ChunkKind
from junitbot.retrieval.search import Searcher
from tests.retrieval.conftest import IndexedRepo

QUERIES = Path(__file__).resolve().parent.parent / "fixtures" / "retrieval" / "method_queries.yml"


def test_method_name_and_description_find_the_method_in_the_top_5(indexed_shop: IndexedRepo, embedder: object) -> None:
    queries: dict[str, str] = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    misses: list[str] = []
    with Searcher(indexed_shop.state, indexed_shop.config, embedder=embedder) as searcher:  # type: ignore[arg-type]
        methods = {f"{c.fqn}#{c.name}" for c in searcher.store.chunks(kinds={ChunkKind.METHOD})}
        assert methods == set(queries), "the fixture describes every method of the example, and only those"
        for key, description in queries.items():
            name = key.split("#", 1)[1].split("(", 1)[0]
            hits = searcher.search(f"{name} {description}", k=5)
            if key not in {f"{h.chunk.fqn}#{h.chunk.name}" for h in hits}:
                misses.append(key)
    found = 1 - len(misses) / len(queries)
    assert found >= 0.90, f"top-5 recall {found:.1%}; missed {len(misses)}: {misses[:20]}"


def test_style_examples_for_siblings_of_tested_classes_come_from_their_layer(
    indexed_shop: IndexedRepo, embedder: object
) -> None:
    with CodeGraph.open(indexed_shop.state.graph_db) as graph:
        rows = graph.types()
    tested = {r.fqn.removesuffix("Test") for r in rows if r.is_test}
    assert len(tested) == 4
    siblings = [r for r in rows if not r.is_test and r.outer is None and r.fqn not in tested
                and any(r.fqn.rsplit(".", 1)[0] == t.rsplit(".", 1)[0] for t in tested)]
    assert len(siblings) >= 20
    human_tests = {r.fqn for r in rows if r.is_test}
    with Searcher(indexed_shop.state, indexed_shop.config, embedder=embedder) as searcher:  # type: ignore[arg-type]
        for sibling in siblings:
            best = searcher.similar_tests(sibling.fqn, k=1)
            assert best, sibling.fqn
            assert best[0].chunk.kind is ChunkKind.TEST and best[0].chunk.fqn in human_tests
            assert best[0].chunk.layer == sibling.layer, (sibling.fqn, best[0].chunk.fqn)
        # Within a layer, likeness decides: Money's builder reads like money, an order line like an order.
        assert searcher.similar_tests("com.acme.shop.domain.Money.Builder", k=1)[0].chunk.name == "MoneyTest"
        assert searcher.similar_tests("com.acme.shop.domain.OrderLine", k=1)[0].chunk.name == "OrderTest"

"""Search: exact names first, hybrid ranking, filters, and a stale index brought up to date by the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from junitbot.cli import main
from junitbot.config import RetrievalSettings
from junitbot.retrieval.embed import load_embedder
from junitbot.retrieval.lexical import tokens
from junitbot.retrieval.models import ChunkKind
from junitbot.retrieval.search import IndexUnavailable, Searcher
from junitbot.state import StateDir
from tests.retrieval.conftest import IndexedRepo


def test_identifiers_are_split_for_bm25() -> None:
    assert tokens("placeOrder(PlaceOrderCommand cmd)") == [
        "placeorder", "place", "order", "placeordercommand", "place", "order", "command", "cmd"]
    assert "public" not in tokens("public void x_y()") and "x_y" in tokens("x_y")


def test_an_exact_class_name_comes_first_then_hybrid_results(indexed_shop: IndexedRepo, embedder: object) -> None:
    with Searcher(indexed_shop.state, indexed_shop.config, embedder=embedder) as searcher:  # type: ignore[arg-type]
        hits = searcher.search("Money", k=5)
        assert hits[0].exact and hits[0].chunk.kind is ChunkKind.CLASS
        assert hits[0].chunk.fqn == "com.acme.shop.domain.Money"
        assert all(not h.exact for h in hits[1:]) and len(hits) == 5
        by_fqn = searcher.search("com.acme.shop.domain.OrderLine", k=1)
        assert by_fqn[0].exact and by_fqn[0].chunk.name == "OrderLine"
        described = searcher.search("refund a payment when an order is cancelled", k=5, kinds={ChunkKind.METHOD})
        names = [h.chunk.name for h in described]
        assert "refund(String)" in names or "cancel(OrderId, String)" in names
        assert all(h.dense_rank or h.lexical_rank for h in described)


def test_filters_by_kind_layer_and_package(indexed_shop: IndexedRepo, embedder: object) -> None:
    with Searcher(indexed_shop.state, indexed_shop.config, embedder=embedder) as searcher:  # type: ignore[arg-type]
        tests = searcher.search("order", k=10, kinds={ChunkKind.TEST})
        assert tests and all(h.chunk.kind is ChunkKind.TEST for h in tests)
        infra = searcher.search("save an order", k=10, layer="infrastructure")
        assert infra and all(h.chunk.layer == "infrastructure" for h in infra)
        ports = searcher.search("find", k=20, package="com.acme.shop.domain")
        assert ports and all(h.chunk.package.startswith("com.acme.shop.domain") for h in ports)
        assert any(h.chunk.package == "com.acme.shop.domain.port" for h in ports), "subpackages are included"
        application = searcher.search("Money", k=5, layer="application")
        assert application and all(h.chunk.layer == "application" and not h.exact for h in application)
        assert searcher.search("anything", k=5, package="org.nowhere") == []


def test_no_index_is_a_clear_error(tmp_path: Path) -> None:
    from junitbot.config import JunitbotConfig

    with pytest.raises(IndexUnavailable, match="junitbot index"):
        Searcher(StateDir(tmp_path / "state"), JunitbotConfig())


def test_cli_search_updates_a_stale_index_before_answering(
    indexed_shop: IndexedRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    coupon = indexed_shop.root / "src/main/java/com/acme/shop/domain/Coupon.java"
    coupon.write_text("package com.acme.shop.domain;\n\npublic record Coupon(String code, int percentOff) {\n"
                      "    public Money applyTo(Money price) { return price.percentage(100 - percentOff); }\n}\n",
                      encoding="utf-8")
    indexed_shop.commit("coupons")
    code = main(["search", "--repo", str(indexed_shop.root), "apply a coupon discount to a price", "--k", "3",
                 "--kind", "method", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    hits = json.loads(out)
    assert hits[0]["name"] == "applyTo(Money)" and hits[0]["fqn"] == "com.acme.shop.domain.Coupon"
    assert set(hits[0]) >= {"kind", "path", "line", "layer", "score", "exact", "dense_rank", "lexical_rank"}
    code = main(["search", "--repo", str(indexed_shop.root), "Coupon"])
    out = capsys.readouterr().out
    assert code == 0 and "Coupon" in out and "exact" in out


def test_cli_index_reports_both_parts(indexed_shop: IndexedRepo, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["index", "--repo", str(indexed_shop.root), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["graph"]["incremental"] is True
    assert report["embeddings"]["reason"] == "up to date" and report["embeddings"]["chunks"] > 200
    assert main(["index", "--repo", str(indexed_shop.root)]) == 0
    out = capsys.readouterr().out
    assert "Code graph of shop" in out and "Embedding index" in out and "all-MiniLM-L6-v2" in out


def test_the_model_is_loaded_once_per_process_and_settings(embedder: object) -> None:
    # Each run of a long-lived process (a Dagster code server, the bot's webhook) loaded it again: about 3 s each.
    loaded = embedder.inner  # type: ignore[attr-defined]  # the model under the fixture's remembered vectors
    assert load_embedder(RetrievalSettings()) is loaded
    assert load_embedder(RetrievalSettings(batch_size=8)) is not loaded

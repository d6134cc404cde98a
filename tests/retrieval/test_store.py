"""A corrupt chunk store heals (issue 18): set aside as retrieval.sqlite.corrupt with one warning, embedded again
from the graph, and nothing derived from the old store (FAISS file, BM25 index) survives to answer for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from junitbot.cli import main
from junitbot.retrieval.consistency import check_consistency
from junitbot.retrieval.search import Searcher
from junitbot.retrieval.store import ChunkStore
from tests.corruption import break_an_index, corrupt, warnings_of
from tests.retrieval.conftest import IndexedRepo

COUPON = ("package com.acme.shop.domain;\n\npublic record Coupon(String code, int percentOff) {\n"
          "    public Money applyTo(Money price) { return price.percentage(100 - percentOff); }\n}\n")


def _search(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, list[dict[str, object]]]:
    code = main(["search", "--repo", str(root), "--json", *argv])
    out = capsys.readouterr().out
    return code, json.loads(out) if code == 0 else []


def test_search_sets_a_corrupt_store_aside_and_answers_from_a_rebuilt_one(
    indexed_shop: IndexedRepo, embedder: object, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    root, state = indexed_shop.root, indexed_shop.state
    code, _ = _search(capsys, root, "Money")  # leaves a BM25 index of the store's generation on disk
    assert code == 0 and any(state.lexical_index.iterdir())
    (root / "src/main/java/com/acme/shop/domain/Coupon.java").write_text(COUPON, encoding="utf-8")
    indexed_shop.commit("coupons")
    corrupt(state.retrieval_db, "random bytes")
    caplog.clear()

    code, hits = _search(capsys, root, "apply a coupon discount to a price", "--k", "3", "--kind", "method")
    assert code == 0
    assert hits[0]["name"] == "applyTo(Money)" and hits[0]["fqn"] == "com.acme.shop.domain.Coupon"
    assert (state.root / "retrieval.sqlite.corrupt").is_file()
    [warning] = warnings_of(caplog)
    assert "retrieval.sqlite is corrupt (file is not a database)" in warning
    assert "embedding index is rebuilt" in warning
    # The rebuilt store starts its generations again: a BM25 index left by the old one must not pass for its own.
    with Searcher(state, indexed_shop.config, embedder=embedder) as searcher:  # type: ignore[arg-type]
        assert set(searcher.lexical.ids.tolist()) == set(searcher.store.chunk_ids().tolist())
    assert check_consistency(state).ok

    caplog.clear()
    code, again = _search(capsys, root, "apply a coupon discount to a price", "--k", "3", "--kind", "method")
    assert code == 0 and again == hits and not warnings_of(caplog)


@pytest.mark.parametrize("how", ["truncated", "garbage pages"])
def test_index_rebuilds_a_damaged_store(
    indexed_shop: IndexedRepo, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, how: str
) -> None:
    root, state = indexed_shop.root, indexed_shop.state
    with ChunkStore.of(state) as store:
        chunks = {c.id: c.content_hash for c in store.chunks()}
    corrupt(state.retrieval_db, how)
    caplog.clear()

    code = main(["index", "--repo", str(root), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    embeddings = json.loads(out)["embeddings"]
    assert embeddings["full"] and embeddings["reason"] == "no index yet"
    # The vectors live apart from the store (`vectors.sqlite`): the rebuilt store takes every one from there, and the
    # model encodes nothing again.
    assert embeddings["embedded"] == 0 and embeddings["reused"] == len(chunks)
    with ChunkStore.of(state) as store:
        assert {c.id: c.content_hash for c in store.chunks()} == chunks
    assert (state.root / "retrieval.sqlite.corrupt").is_file()
    [warning] = warnings_of(caplog)
    assert "retrieval.sqlite is corrupt" in warning and "Traceback" not in err

    caplog.clear()
    assert main(["index", "--repo", str(root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["embeddings"]["reason"] == "up to date" and not warnings_of(caplog)


def test_corruption_met_during_an_update_rebuilds_the_store(
    indexed_shop: IndexedRepo, embedder: object, caplog: pytest.LogCaptureFixture
) -> None:
    """Damage quick_check cannot see on open: SQLite reports it while the update deletes a changed file's chunks."""
    state = indexed_shop.state
    break_an_index(state.retrieval_db, "chunks_path", "chunks(fqn)")
    order = indexed_shop.root / "src/main/java/com/acme/shop/domain/Order.java"
    order.write_text(order.read_text().replace("public boolean isCancellable() {",
                                               "/** Whether a customer may still cancel. */\n"
                                               "    public boolean isCancellable() {"), encoding="utf-8")
    indexed_shop.commit("document isCancellable")

    summary = indexed_shop.update(embedder)
    assert summary.full and summary.reason == "no index yet"
    assert (state.root / "retrieval.sqlite.corrupt").is_file()
    [warning] = warnings_of(caplog)
    assert "malformed" in warning
    with ChunkStore.of(state) as store:
        assert any("Whether a customer may still cancel" in c.text
                   for c in store.chunks_of_type("com.acme.shop.domain.Order"))
    report = check_consistency(state)
    assert report.ok and report.vectors == report.chunks

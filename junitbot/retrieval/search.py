"""Search: exact class-name lookup first, then BM25 and dense results fused by reciprocal rank."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.retrieval.embed import Embedder, load_embedder
from junitbot.retrieval.index import EmbedderFactory, load_faiss
from junitbot.retrieval.lexical import LexicalIndex
from junitbot.retrieval.models import Chunk, ChunkKind, SearchHit
from junitbot.retrieval.store import ChunkStore
from junitbot.state import StateDir

if TYPE_CHECKING:
    from numpy.typing import NDArray

_NAME = re.compile(r"^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$")
CANDIDATE_DEPTH = 50
"""Each ranker proposes at least this many chunks to the fusion, whatever k is."""


class IndexUnavailable(JunitbotError):
    """No embedding index yet: `junitbot index` builds one."""


class Searcher:
    """Answers queries over one state directory's index; the embedding model is loaded on the first dense query."""

    def __init__(self, state: StateDir, config: JunitbotConfig, *,
                 embedder: Embedder | EmbedderFactory | None = None) -> None:
        if not state.retrieval_db.exists():
            raise IndexUnavailable(f"no embedding index in {state.root}: run `junitbot index` first")
        self.config = config
        self._embedder = embedder if embedder is not None else (lambda: load_embedder(config.retrieval))
        self.warnings: list[str] = []
        self.store = ChunkStore.of(state)
        try:
            self._load(state)
        except BaseException:
            self.store.close()  # also what sets a store found corrupt aside
            raise

    def _load(self, state: StateDir) -> None:
        if self.store.meta("generation") is None:
            raise IndexUnavailable(f"the embedding index in {state.root} is empty: run `junitbot index` first")
        self.dimension = int(self.store.meta("dimension") or 0)
        self.vectors = load_faiss(state, self.store, self.config, self.dimension, self.warnings)
        generation = self.store.generation
        lexical = LexicalIndex.load(state.lexical_index, generation)
        if lexical is None:
            chunks = self.store.chunks()
            lexical = LexicalIndex.build(np.fromiter((c.id for c in chunks), dtype=np.int64, count=len(chunks)),
                                         [c.text for c in chunks])
            lexical.save(state.lexical_index, generation)
        self.lexical = lexical

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def embedder(self) -> Embedder:
        if callable(self._embedder):
            self._embedder = self._embedder()
        return self._embedder

    def search(self, query: str, *, k: int = 10, kinds: Iterable[ChunkKind] | None = None,
               layer: str | None = None, package: str | None = None) -> list[SearchHit]:
        """Exact class-name matches first, then the fused hybrid ranking, filtered by kind, layer and package."""
        query = query.strip()
        if not query or k < 1:
            return []
        kind_set = set(kinds) if kinds is not None else None
        filtered = kind_set is not None or layer is not None or package is not None
        allowed = self.store.ids_where(kinds=kind_set, layer=layer, package=package) if filtered else None
        if allowed is not None and not len(allowed):
            return []
        exact = [c for c in self.store.chunks_named(query) if _passes(c, kind_set, layer, package)] \
            if _NAME.match(query) else []
        vector = self.embedder.encode([query])
        hits = self._fused(query, vector, k + len(exact), allowed)
        seen = {c.id for c in exact}
        ranked = [SearchHit(chunk=c, score=1.0, exact=True) for c in exact]
        ranked += [h for h in hits if h.chunk.id not in seen]
        return ranked[:k]

    def similar_tests(self, fqn: str, *, k: int = 3, exclude_own: bool = False) -> list[SearchHit]:
        """The repo's existing test classes most like the class `fqn` (style examples for generating its test).

        Uses the class chunk's stored vector, so no model is loaded; empty when the class has no chunk.
        """
        own = [c for c in self.store.chunks_of_type(fqn) if c.kind is ChunkKind.CLASS]
        if not own:
            return []
        cached = self.store.vectors_for([own[0].content_hash], self.dimension)
        if own[0].content_hash not in cached:
            return []
        allowed = self.store.ids_where(kinds={ChunkKind.TEST})
        if exclude_own:
            allowed = np.array([i for i, c in zip(allowed, self.store.chunks(allowed.tolist()), strict=True)
                                if c.tested_fqn != fqn], dtype=np.int64)
        if not len(allowed):
            return []
        vector = cached[own[0].content_hash].reshape(1, -1)
        tests = self.store.chunks(allowed.tolist())
        fused = self._fused(own[0].text, vector, len(tests), allowed, extra=(self._tested_class_ranks(vector, tests),))
        # Where a test lives outranks how alike it reads: tests of one package or layer share its conventions
        # (what is mocked, how values are built), which is what a style example is for.
        place = {t.id: _place(own[0], t) for t in tests}
        return sorted(fused, key=lambda hit: place[hit.chunk.id])[:k]

    def _tested_class_ranks(self, vector: NDArray[np.float32], tests: Sequence[Chunk]) -> dict[int, int]:
        """Tests ranked by how like the query class their tested class is: the test of the most similar tested
        class is the best style example, even when the test's own text says little."""
        test_chunks = [c for c in tests if c.tested_fqn]
        tested = {c.fqn: c for fqn in {t.tested_fqn for t in test_chunks if t.tested_fqn}
                  for c in self.store.chunks_of_type(fqn) if c.kind is ChunkKind.CLASS}
        vectors = self.store.vectors_for([c.content_hash for c in tested.values()], self.dimension)
        similarity = {t.id: float(vectors[tested[t.tested_fqn].content_hash] @ vector[0])
                      for t in test_chunks if t.tested_fqn in tested and tested[t.tested_fqn].content_hash in vectors}
        return {chunk_id: rank for rank, chunk_id in enumerate(sorted(similarity, key=lambda i: -similarity[i]))}

    def _fused(self, text: str, vector: NDArray[np.float32], k: int, allowed: NDArray[np.int64] | None,
               extra: Sequence[dict[int, int]] = ()) -> list[SearchHit]:
        depth = max(CANDIDATE_DEPTH, 5 * k)
        dense: dict[int, int] = {}
        if self.vectors.size:
            _, ids = self.vectors.search(vector, depth, allowed)
            dense = {int(i): rank for rank, i in enumerate(x for x in ids[0] if x >= 0)}
        lexical = {i: rank for rank, (i, _) in enumerate(self.lexical.search(text, depth, allowed))}
        constant = self.config.retrieval.rrf_k
        scores: dict[int, float] = {}
        for ranks in (dense, lexical, *extra):
            for chunk_id, rank in ranks.items():
                scores[chunk_id] = scores.get(chunk_id, 0.0) + 1.0 / (constant + rank + 1)
        best = sorted(scores, key=lambda i: (-scores[i], i))[:k]
        chunks = {c.id: c for c in self.store.chunks(best)}
        return [SearchHit(chunk=chunks[i], score=round(scores[i], 6), dense_rank=_rank(dense, i),
                          lexical_rank=_rank(lexical, i)) for i in best if i in chunks]


def _place(subject: Chunk, test: Chunk) -> tuple[int, int]:
    """Sort key of a test's location relative to a class: same package, then same layer, then the longest
    shared package prefix."""
    shared = 0
    for mine, theirs in zip(subject.package.split("."), test.package.split("."), strict=False):
        if mine != theirs:
            break
        shared += 1
    return (0 if test.package == subject.package else 1 if subject.layer and test.layer == subject.layer else 2,
            -shared)


def _rank(ranks: dict[int, int], chunk_id: int) -> int | None:
    rank = ranks.get(chunk_id)
    return None if rank is None else rank + 1


def _passes(chunk: Chunk, kinds: set[ChunkKind] | None, layer: str | None, package: str | None) -> bool:
    return ((kinds is None or chunk.kind in kinds) and (layer is None or chunk.layer == layer)
            and (package is None or chunk.package == package or chunk.package.startswith(package + ".")))

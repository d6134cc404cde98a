"""update_index: bring the embedding index to the graph's commit, re-chunking and embedding only what changed.

Which files changed is read off the graph (its blob hashes against the ones the index was built from), so
the index follows the graph exactly, whatever sequence of commits, rebuilds or interrupted runs came before.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from junitbot.analysis.graph import CodeGraph
from junitbot.atomic import write_atomically
from junitbot.config import JunitbotConfig
from junitbot.errors import StoreCorrupt
from junitbot.retrieval.chunks import chunks_for_file
from junitbot.retrieval.embed import Embedder, load_embedder
from junitbot.retrieval.models import Chunk, EmbeddingSummary, IndexManifest
from junitbot.retrieval.store import ChunkStore
from junitbot.retrieval.vector_cache import cache_vectors, cached_dimension, cached_vectors
from junitbot.retrieval.vectors import VectorIndex, index_kind
from junitbot.state import StateDir

if TYPE_CHECKING:
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]
EmbedderFactory = Callable[[], Embedder]


def update_index(
    state: StateDir,
    config: JunitbotConfig,
    *,
    full: bool = False,
    embedder: Embedder | EmbedderFactory | None = None,
    progress: ProgressCallback | None = None,
) -> EmbeddingSummary:
    """Update the index from the graph in `state` (run `update_graph` first).

    `embedder` is a loaded model or a factory; the model is loaded only when some text needs embedding,
    and its load time is reported apart (`seconds["model_load"]`). A chunk store found corrupt on the way
    is set aside and built again from scratch (issue 18).
    """
    try:
        return _update_index(state, config, full=full, embedder=embedder, progress=progress)
    except StoreCorrupt as e:
        if e.path != state.retrieval_db:
            raise
        # The store is set aside by now: this run finds none and builds it whole.
        return _update_index(state, config, full=full, embedder=embedder, progress=progress)


def _update_index(state: StateDir, config: JunitbotConfig, *, full: bool, embedder: Embedder | EmbedderFactory | None,
                  progress: ProgressCallback | None) -> EmbeddingSummary:
    report = progress or (lambda stage, done, total: None)
    settings = config.retrieval
    seconds: dict[str, float] = {}
    warnings: list[str] = []
    started = time.perf_counter()
    state.ensure()
    loader = _Loader(embedder or (lambda: load_embedder(settings)), seconds)
    with CodeGraph.open(state.graph_db) as graph, ChunkStore.of(state) as store:
        reason = _rechunk_reason(store, config, full)
        if store.meta("model") not in (None, settings.model):
            with store.transaction():
                store.reset()
        graph_files = {path: sha for test in (False, True) for path, sha in graph.source_files(test=test)}
        tests = {path for path, _ in graph.source_files(test=True)}
        indexed = store.file_shas()
        if reason:
            changed = sorted(graph_files)
            gone = sorted(indexed)
        else:
            changed = sorted(p for p, sha in graph_files.items() if indexed.get(p) != sha)
            gone = sorted(p for p in indexed if p not in graph_files)

        if not (reason or changed or gone):
            return _unchanged(state, store, graph.commit, config, loader, started, seconds, warnings)

        tick = time.perf_counter()
        new_chunks: dict[str, list[Chunk]] = {}
        for done, path in enumerate(changed, start=1):
            source = graph.source(path)
            new_chunks[path] = [] if source is None else chunks_for_file(
                path, source, graph.classes_in(path), is_test=path in tests, max_tokens=settings.chunk_max_tokens)
            report("chunk", done, len(changed))
        seconds["chunk"] = time.perf_counter() - tick

        dimension = (int(store.meta("dimension") or 0) or cached_dimension(state.vector_cache, settings.model)
                     or loader.get().dimension)
        wanted = {c.content_hash: c.text for chunks in new_chunks.values() for c in chunks}
        stored = store.vectors_for(wanted, dimension)
        # Then the runner's cache (a store set aside or re-chunked, another clone), then the model.
        shared = cached_vectors(state.vector_cache, settings.model, (h for h in wanted if h not in stored), dimension)
        missing = [h for h in wanted if h not in stored and h not in shared]
        fresh = _embed(loader, [wanted[h] for h in missing], settings.batch_size, report) if missing else None
        seconds["embed"] = loader.embed_seconds
        encoded = {h: fresh[i] for i, h in enumerate(missing)} if fresh is not None else {}
        cache_vectors(state.vector_cache, settings.model, encoded)
        vectors = {**stored, **shared, **encoded}

        tick = time.perf_counter()
        old_generation = store.generation
        with store.transaction():
            removed = store.remove_files(sorted({*changed, *gone}))
            for path in changed:
                store.put_file(path, graph_files[path], new_chunks[path])
            store.put_vectors({**shared, **encoded})
            store.drop_unused_vectors()
            store.set_meta(commit=graph.commit or "", model=settings.model, dimension=dimension,
                           fingerprint=config.analysis_fingerprint(), chunk_tokens=settings.chunk_max_tokens,
                           generation=old_generation + 1)
        seconds["store"] = time.perf_counter() - tick

        tick = time.perf_counter()
        added = [c for chunks in new_chunks.values() for c in chunks]
        index = _updated_faiss(state, store, config, old_generation, removed, added, vectors, dimension, warnings)
        manifest = write_manifest(state, index, store, settings.model, dimension)
        seconds["faiss"] = time.perf_counter() - tick
        _, chunks, _ = store.counts()
        seconds["total"] = time.perf_counter() - started
        return EmbeddingSummary(
            commit=graph.commit, model=settings.model, dimension=dimension, device=loader.device,
            index_type=manifest.index_type, full=bool(reason), reason=reason or "incremental",
            files_changed=len(changed) + len(gone), chunks=chunks, chunks_added=len(added),
            chunks_removed=len(removed), embedded=len(missing), reused=len(added) - len(missing) if added else 0,
            warnings=tuple(warnings), seconds={k: round(v, 4) for k, v in seconds.items()},
        )


def write_manifest(state: StateDir, index: VectorIndex, store: ChunkStore, model: str, dimension: int,
                   *, checksum: str | None = None) -> IndexManifest:
    """Write the FAISS file, then the manifest naming it (each atomically): a reader trusts only a matching pair.

    With `checksum`, the file on disk is already the right one and only the manifest is written.
    """
    checksum = checksum or index.write(state.faiss_index)
    manifest = IndexManifest(
        commit=store.meta("commit") or None, model=model, dimension=dimension, index_type=index.kind,
        vectors=index.size, generation=store.generation, checksum=checksum,
    )
    write_atomically(state.faiss_manifest, manifest.model_dump_json(indent=2))
    return manifest


def _unchanged(state: StateDir, store: ChunkStore, commit: str | None, config: JunitbotConfig, loader: _Loader,
               started: float, seconds: dict[str, float], warnings: list[str]) -> EmbeddingSummary:
    """No file changed: record the new commit; the FAISS file is rewritten only if it cannot be trusted."""
    settings = config.retrieval
    dimension = int(store.meta("dimension") or 0)
    tick = time.perf_counter()
    index = load_faiss(state, store, config, dimension, warnings)
    if store.meta("commit") != (commit or ""):
        with store.transaction():
            store.set_meta(commit=commit or "")
    manifest = read_manifest(state)
    if manifest is None or manifest.commit != commit:
        manifest = write_manifest(state, index, store, settings.model, dimension,
                                  checksum=manifest.checksum if manifest else None)
    seconds["faiss"] = time.perf_counter() - tick
    seconds["total"] = time.perf_counter() - started
    _, chunks, _ = store.counts()
    return EmbeddingSummary(
        commit=commit, model=settings.model, dimension=dimension, device=loader.device, index_type=index.kind,
        full=False, reason="up to date", files_changed=0, chunks=chunks, chunks_added=0, chunks_removed=0,
        embedded=0, reused=0, warnings=tuple(warnings), seconds={k: round(v, 4) for k, v in seconds.items()},
    )


def read_manifest(state: StateDir) -> IndexManifest | None:
    try:
        return IndexManifest.model_validate_json(state.faiss_manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def load_faiss(state: StateDir, store: ChunkStore, config: JunitbotConfig, dimension: int,
               warnings: list[str] | None = None) -> VectorIndex:
    """The FAISS index of the store's current generation, rebuilt from the stored vectors when the file on
    disk is missing, torn, corrupt or from another generation (no text is embedded again)."""
    problem = _faiss_problem(state, store, config.retrieval.model, dimension, store.generation)
    if problem is None:
        manifest = read_manifest(state)
        assert manifest is not None
        try:
            return VectorIndex.read(state.faiss_index, manifest.index_type, manifest.checksum)
        except (OSError, ValueError) as e:
            problem = str(e)
    if store.counts()[1] and warnings is not None:
        warnings.append(f"FAISS index rebuilt from stored vectors: {problem}")
        log.warning("FAISS index rebuilt from stored vectors: %s", problem)
    ids, matrix = store.all_vectors(dimension)
    index = VectorIndex.build(matrix, ids, dimension, config.retrieval)
    write_manifest(state, index, store, config.retrieval.model, dimension)
    return index


class _Loader:
    """Loads the embedding model at most once, and only when asked; times the load and the encoding."""

    def __init__(self, source: Embedder | EmbedderFactory, seconds: dict[str, float]) -> None:
        self._factory: EmbedderFactory | None = None
        self._model: Embedder | None = None
        if callable(source):
            self._factory = source
        else:
            self._model = source
        self._seconds = seconds
        self.embed_seconds = 0.0

    def get(self) -> Embedder:
        if self._model is None:
            tick = time.perf_counter()
            assert self._factory is not None
            self._model = self._factory()
            self._seconds["model_load"] = time.perf_counter() - tick
        return self._model

    @property
    def device(self) -> str:
        return self._model.device if self._model is not None else "not loaded"


def _embed(loader: _Loader, texts: Sequence[str], batch: int, report: ProgressCallback) -> NDArray[np.float32]:
    model = loader.get()
    tick = time.perf_counter()
    # Shortest first: batches of similar lengths pad less (sentence-transformers also sorts inside a call).
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = np.zeros((len(texts), model.dimension), dtype=np.float32)
    step = max(batch * 16, 1)
    for start in range(0, len(order), step):
        part = order[start:start + step]
        out[part] = model.encode([texts[i] for i in part])
        report("embed", min(start + step, len(order)), len(order))
    loader.embed_seconds += time.perf_counter() - tick
    return out


def _rechunk_reason(store: ChunkStore, config: JunitbotConfig, full: bool) -> str | None:
    settings = config.retrieval
    if full:
        return "full rebuild requested"
    if store.meta("generation") is None:
        return "no index yet"
    if store.meta("model") != settings.model:
        return f"model changed ({store.meta('model')} -> {settings.model})"
    if store.meta("fingerprint") != config.analysis_fingerprint():
        return "analysis settings changed (ignore, max_file_bytes or layers)"
    if store.meta("chunk_tokens") != str(settings.chunk_max_tokens):
        return "chunk size changed"
    return None


def _faiss_problem(state: StateDir, store: ChunkStore, model: str, dimension: int, generation: int) -> str | None:
    manifest = read_manifest(state)
    if manifest is None or not state.faiss_index.exists():
        return "no FAISS index file or manifest"
    if (manifest.model, manifest.dimension) != (model, dimension):
        return f"the manifest names {manifest.model} ({manifest.dimension}d), not {model} ({dimension}d)"
    if manifest.generation != generation:
        return f"the FAISS file is of generation {manifest.generation}, the chunk table of {generation}"
    return None


def _updated_faiss(state: StateDir, store: ChunkStore, config: JunitbotConfig, old_generation: int,
                   removed: Sequence[tuple[int, str]], added: Sequence[Chunk],
                   vectors: dict[str, NDArray[np.float32]], dimension: int, warnings: list[str]) -> VectorIndex:
    """The previous FAISS index with removed ids dropped and new chunks added, or a rebuild when the previous
    file cannot be trusted, cannot remove (HNSW) or the index kind for the new size differs."""
    total = store.counts()[1]
    wanted_kind = index_kind(total, config.retrieval)
    problem = _faiss_problem(state, store, config.retrieval.model, dimension, old_generation)
    if problem is None:
        manifest = read_manifest(state)
        assert manifest is not None
        try:
            index = VectorIndex.read(state.faiss_index, manifest.index_type, manifest.checksum)
        except (OSError, ValueError) as e:
            problem = str(e)
            warnings.append(f"FAISS index rebuilt from stored vectors: {problem}")
            log.warning("FAISS index rebuilt from stored vectors: %s", problem)
        else:
            if index.kind == wanted_kind and (index.supports_remove or not removed):
                index.remove(np.fromiter((i for i, _ in removed), dtype=np.int64, count=len(removed)))
                if added:
                    index.add(np.stack([vectors[c.content_hash] for c in added]),
                              np.fromiter((c.id for c in added), dtype=np.int64, count=len(added)))
                return index
    elif old_generation:
        warnings.append(f"FAISS index rebuilt from stored vectors: {problem}")
        log.warning("FAISS index rebuilt from stored vectors: %s", problem)
    ids, matrix = store.all_vectors(dimension)
    return VectorIndex.build(matrix, ids, dimension, config.retrieval)

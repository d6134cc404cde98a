"""FAISS: the index kinds, GPU placement, id-based add/remove, and checked, atomic persistence.

One code path for CPU and GPU: the index is built and stored on the CPU and copied to every GPU faiss
reports for searching; a GPU copy that cannot be made (an index kind without GPU support) stays on the CPU.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import faiss
import numpy as np

from junitbot.config import RetrievalSettings

if TYPE_CHECKING:
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

IVF_MIN_TRAINING = 39
"""faiss wants about 39 training points per list; fewer lists than that would be badly trained."""


class VectorIndex:
    """A FAISS index over inner product of normalised vectors (cosine), addressed by int64 chunk ids."""

    def __init__(self, index: Any, kind: str) -> None:  # noqa: ANN401  # faiss's stubs lack the index kinds' attributes
        self.index = index
        self.kind = kind
        self._search_index: Any | None = None

    @classmethod
    def build(cls, vectors: NDArray[np.float32], ids: NDArray[np.int64], dimension: int,
              settings: RetrievalSettings) -> VectorIndex:
        kind = index_kind(len(ids), settings)
        if kind == "ivf":
            lists = max(1, min(int(4 * math.sqrt(len(ids))), len(ids) // IVF_MIN_TRAINING))
            quantizer = faiss.IndexFlatIP(dimension)
            ivf = faiss.IndexIVFFlat(quantizer, dimension, lists, faiss.METRIC_INNER_PRODUCT)
            ivf.train(vectors)
            ivf.nprobe = min(settings.ivf_probe, lists)
            index: Any = ivf  # IVF keeps its own ids and removes by id
        elif kind == "hnsw":
            index = faiss.IndexIDMap2(faiss.IndexHNSWFlat(dimension, settings.hnsw_m, faiss.METRIC_INNER_PRODUCT))
        else:
            index = faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))
        built = cls(index, kind)
        built.add(vectors, ids)
        return built

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    @property
    def supports_remove(self) -> bool:
        return self.kind != "hnsw"

    def add(self, vectors: NDArray[np.float32], ids: NDArray[np.int64]) -> None:
        if len(ids):
            self.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32),
                                    np.ascontiguousarray(ids, dtype=np.int64))
            self._search_index = None

    def remove(self, ids: NDArray[np.int64]) -> int:
        """Remove these ids; HNSW graphs cannot, and the caller rebuilds them instead."""
        if not len(ids):
            return 0
        if not self.supports_remove:
            raise ValueError("an HNSW index cannot remove vectors; rebuild it")
        removed = int(self.index.remove_ids(faiss.IDSelectorBatch(np.ascontiguousarray(ids, dtype=np.int64))))
        self._search_index = None
        return removed

    def ids(self) -> NDArray[np.int64]:
        """Every id the index holds (for consistency checks)."""
        if self.kind == "ivf":
            invlists = self.index.invlists
            parts = [faiss.rev_swig_ptr(invlists.get_ids(i), invlists.list_size(i)).copy()
                     for i in range(invlists.nlist) if invlists.list_size(i)]
            return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)
        return faiss.vector_to_array(self.index.id_map).astype(np.int64)

    def search(self, queries: NDArray[np.float32], k: int,
               allowed: NDArray[np.int64] | None = None) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
        """Top-k (scores, ids) per query; `allowed` restricts the ids considered (filters), -1 pads."""
        k = max(1, min(k, self.size or 1))
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        if allowed is not None:
            # Filtered search runs on the CPU index: GPU indexes take no id selector.
            selector = faiss.IDSelectorBatch(np.ascontiguousarray(allowed, dtype=np.int64))
            api: Any = faiss  # the bundled stubs lack the search-parameter classes' keywords
            if self.kind == "ivf":
                params = api.SearchParametersIVF(sel=selector, nprobe=self.index.nprobe)
            elif self.kind == "hnsw":
                params = api.SearchParametersHNSW(sel=selector)
            else:
                params = api.SearchParameters(sel=selector)
            scores, ids = self.index.search(queries, k, params=params)
        else:
            scores, ids = self._device_index().search(queries, k)
        return scores, ids

    def _device_index(self) -> Any:  # noqa: ANN401  # a faiss index (see __init__)
        if self._search_index is None:
            self._search_index = to_gpu(self.index)
        return self._search_index

    def write(self, path: Path) -> str:
        """Write atomically (temporary file, fsync, rename); returns the file's sha256."""
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        faiss.write_index(self.index, str(temporary))
        with temporary.open("rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        return digest

    @classmethod
    def read(cls, path: Path, kind: str, checksum: str) -> VectorIndex:
        """Read a file written by `write`; ValueError when it is truncated, corrupt or not the one expected."""
        with path.open("rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
        if digest != checksum:
            raise ValueError(f"{path.name} does not match its manifest's checksum (torn or corrupt write)")
        try:
            index = faiss.read_index(str(path))
        except RuntimeError as e:
            raise ValueError(f"{path.name} is not a readable FAISS index ({e})") from e
        return cls(index, kind)


def index_kind(vectors: int, settings: RetrievalSettings) -> str:
    if settings.index_type != "auto":
        if settings.index_type == "ivf" and vectors < IVF_MIN_TRAINING:
            return "flat"  # too few points to train any list: exact search is also the fastest here
        return settings.index_type
    return "ivf" if vectors >= settings.ann_threshold else "flat"


def gpu_count() -> int:
    get = getattr(faiss, "get_num_gpus", None)
    return int(get()) if get else 0


def to_gpu(index: Any) -> Any:  # noqa: ANN401  # a faiss index (see VectorIndex)
    """The index on every GPU faiss reports, or the index itself on the CPU."""
    if gpu_count() == 0:
        return index
    try:
        return faiss.index_cpu_to_all_gpus(index)
    except (RuntimeError, AttributeError) as e:
        log.warning("FAISS index stays on the CPU: %s", e)
        return index

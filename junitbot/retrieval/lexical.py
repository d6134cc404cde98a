"""BM25 over identifiers and words (bm25s), cached on disk per chunk-store generation."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import bm25s
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|\d+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")
_STOP_WORDS = (
    "abstract boolean byte case catch char class default do double else extends final finally float for if "
    "implements import int interface long new null package private protected public return short static super "
    "switch this throw throws try void while var true false the a an of to in is and or for with"
)
_STOP = frozenset(_STOP_WORDS.split())


def tokens(text: str) -> list[str]:
    """Lower-case words and identifier parts: `placeOrder` gives `placeorder`, `place`, `order`."""
    out: list[str] = []
    for word in _WORD.findall(text):
        lower = word.lower()
        parts = [p.lower() for p in _CAMEL.findall(word.replace("_", " ").replace("$", " "))]
        for token in (lower, *parts) if len(parts) > 1 else (lower,):
            if token not in _STOP and len(token) > 1:
                out.append(token)
    return out


class LexicalIndex:
    """BM25 scores over the chunk texts; `ids[i]` is the chunk id of document i."""

    def __init__(self, retriever: bm25s.BM25, ids: NDArray[np.int64]) -> None:
        self.retriever = retriever
        self.ids = ids
        self._position = {int(chunk_id): i for i, chunk_id in enumerate(ids)}

    @classmethod
    def build(cls, ids: NDArray[np.int64], texts: Sequence[str]) -> LexicalIndex:
        retriever = bm25s.BM25()
        # bm25s rejects an empty vocabulary: an empty document still needs one token.
        retriever.index([tokens(t) or ["\x00"] for t in texts] or [["\x00"]], show_progress=False)
        return cls(retriever, ids)

    def search(self, query: str, k: int, allowed: NDArray[np.int64] | None = None) -> list[tuple[int, float]]:
        """(chunk id, score) best first; chunks sharing no token with the query are left out."""
        words = tokens(query)
        if not words or not len(self.ids):
            return []
        mask = None
        if allowed is not None:
            mask = np.zeros(len(self.ids), dtype=np.float32)
            positions = [self._position[int(i)] for i in allowed if int(i) in self._position]
            if not positions:
                return []
            mask[positions] = 1.0
        k = min(k, len(self.ids))
        documents, scores = self.retriever.retrieve([words], k=k, show_progress=False, weight_mask=mask)
        return [(int(self.ids[d]), float(s)) for d, s in zip(documents[0], scores[0], strict=True) if s > 0]

    def save(self, folder: Path, generation: int) -> None:
        """Write into a fresh folder, then rename it into place: readers never see half an index."""
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{generation}.{os.getpid()}.tmp"
        shutil.rmtree(temporary, ignore_errors=True)
        self.retriever.save(str(temporary), show_progress=False)
        np.save(temporary / "chunk_ids.npy", self.ids)
        (temporary / "generation.json").write_text(json.dumps({"generation": generation}), encoding="utf-8")
        target = folder / str(generation)
        shutil.rmtree(target, ignore_errors=True)
        os.replace(temporary, target)
        for old in folder.iterdir():
            if old.name != str(generation):
                shutil.rmtree(old, ignore_errors=True)

    @classmethod
    def load(cls, folder: Path, generation: int) -> LexicalIndex | None:
        """The index saved for this generation, or None (not saved, or unreadable: it is rebuilt)."""
        target = folder / str(generation)
        if not target.is_dir():
            return None
        try:
            retriever = bm25s.BM25.load(str(target), show_progress=False)
            ids = np.load(target / "chunk_ids.npy")
        except (OSError, ValueError, KeyError) as e:
            log.warning("lexical index at %s is unreadable (%s); rebuilding it", target, e)
            return None
        return cls(retriever, ids.astype(np.int64))

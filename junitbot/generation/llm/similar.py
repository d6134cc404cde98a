"""Style examples for prompts: the existing tests most like a target, from the retrieval index when there is one."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.generation.llm.context import SimilarTests
from junitbot.state import StateDir

log = logging.getLogger(__name__)


class _Chunk(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def text(self) -> str: ...


class _Hit(Protocol):
    @property
    def chunk(self) -> _Chunk: ...


class TestSearch(Protocol):
    """What the context needs of `retrieval.search.Searcher`."""

    def similar_tests(self, fqn: str, *, k: int = 3, exclude_own: bool = False) -> Sequence[_Hit]: ...


def similar_tests_from(searcher: TestSearch, root: Path) -> SimilarTests:
    """(path, source) of the most similar existing tests: the test file as it is now, else the indexed text."""
    base = root.resolve()

    def similar(fqn: str, k: int) -> list[tuple[str, str]]:
        found: dict[str, str] = {}
        for hit in searcher.similar_tests(fqn, k=k):
            path = hit.chunk.path
            file = (base / path).resolve()
            inside = file.is_relative_to(base) and file.is_file()
            found.setdefault(path, file.read_text(encoding="utf-8", errors="replace") if inside else hit.chunk.text)
        return list(found.items())[:k]

    return similar


@contextmanager
def open_similar_tests(state: StateDir, config: JunitbotConfig, root: Path) -> Iterator[SimilarTests | None]:
    """Style examples from the embedding index when there is one; None: the context's nearby tests instead."""
    if not state.retrieval_db.exists():
        yield None
        return
    from junitbot.retrieval.search import Searcher  # numpy and FAISS: only with an index

    try:
        searcher = Searcher(state, config)
    except JunitbotError as e:
        log.info("style examples from nearby tests, not retrieval: %s", e)
        searcher = None
    if searcher is None:
        yield None
        return
    try:
        yield similar_tests_from(searcher, root)
    finally:
        searcher.close()

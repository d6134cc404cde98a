"""Style examples from retrieval hits: the test file as it is now, the indexed text when the file is gone."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from junitbot.config import load_config
from junitbot.generation.llm.similar import open_similar_tests, similar_tests_from
from junitbot.state import StateDir


@dataclass(frozen=True)
class _Chunk:
    path: str
    text: str


@dataclass(frozen=True)
class _Hit:
    chunk: _Chunk


class _Searcher:
    def __init__(self, hits: list[_Hit]) -> None:
        self.hits = hits
        self.asked: list[tuple[str, int]] = []

    def similar_tests(self, fqn: str, *, k: int = 3, exclude_own: bool = False) -> list[_Hit]:
        self.asked.append((fqn, k))
        return self.hits[:k]


def test_hits_become_path_and_current_source(tmp_path: Path) -> None:
    test = tmp_path / "src/test/java/a/FooTest.java"
    test.parent.mkdir(parents=True)
    test.write_text("class FooTest { /* as it is now */ }\n")
    searcher = _Searcher([_Hit(_Chunk("src/test/java/a/FooTest.java", "indexed text")),
                          _Hit(_Chunk("src/test/java/a/FooTest.java", "the same file again")),
                          _Hit(_Chunk("src/test/java/a/GoneTest.java", "class GoneTest {}")),
                          _Hit(_Chunk("../outside/SecretTest.java", "class SecretTest {}"))])
    similar = similar_tests_from(searcher, tmp_path)
    assert similar("a.Foo", 4) == [("src/test/java/a/FooTest.java", "class FooTest { /* as it is now */ }\n"),
                                   ("src/test/java/a/GoneTest.java", "class GoneTest {}"),
                                   ("../outside/SecretTest.java", "class SecretTest {}")]
    assert searcher.asked == [("a.Foo", 4)]


def test_without_an_index_there_are_no_retrieval_examples(tmp_path: Path) -> None:
    with open_similar_tests(StateDir(tmp_path / "state"), load_config(tmp_path, environ={}), tmp_path) as similar:
        assert similar is None

"""Files that make syntax trees deep or huge cost at most themselves, never the index (issue 27, item 2)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.analysis import indexer as indexer_module
from junitbot.config import JunitbotConfig
from junitbot.state import StateDir
from junitbot.validation.compiling.main_classes import build_main_classes

_NORMAL = {"src/main/java/deep/Other.java": "package deep;\npublic class Other {\n"
                                             "  public static void use(Object o) {}\n}\n"}


def _concatenation(terms: int) -> str:
    joined = " + ".join(f'"t{i}"' for i in range(terms))
    return f"package deep;\npublic class Deep {{\n  static final String S = {joined};\n" \
           f"  void m() {{ Other.use({joined}); }}\n}}\n"


def _parentheses(levels: int) -> str:
    nested = "(" * levels + "1" + ")" * levels
    return f"package deep;\npublic class Deep {{\n  int x = {nested};\n  void m() {{ Other.use({nested}); }}\n}}\n"


def _else_if_chain(branches: int) -> str:
    chain = "if (x == 0) { y = 0; }" + "".join(f" else if (x == {i}) {{ y = {i}; }}" for i in range(1, branches))
    return f"package deep;\npublic class Deep {{\n  int f(int x) {{ int y = -1; {chain} return y; }}\n" \
           f"  void m() {{ Other.use(f(1)); }}\n}}\n"


def _generated(megabytes: int) -> str:
    line = "  public static int m{0}(int a) {{ return a + {0}; }}\n"
    count = megabytes * 1_000_000 // len(line.format(100000))
    body = "".join(line.format(i) for i in range(count))
    return f"package deep;\npublic class Deep {{\n{body}  void m() {{ Other.use(1); }}\n}}\n"


@pytest.mark.parametrize("source", [
    pytest.param(lambda: _concatenation(10_000), id="10,000-term string concatenation"),
    pytest.param(lambda: _parentheses(10_000), id="10,000 nested parentheses"),
    pytest.param(lambda: _else_if_chain(5_000), id="5,000-branch else-if chain"),
    pytest.param(lambda: _generated(20), id="20 MB generated file"),
])
def test_a_deep_or_huge_file_is_indexed_beside_a_normal_one(
    source: Callable[[], str], make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir],
) -> None:
    text = source()
    repo = make_java_repo({**_NORMAL, "src/main/java/deep/Deep.java": text})
    # Large enough that the 20 MB file is parsed, not skipped: the walk itself is what is under test.
    config = config_for(repo).model_copy(update={"max_file_bytes": len(text.encode()) + 1})
    summary = update_graph(repo, state_for(repo), config)
    assert [p for p in summary.problems if p.severity == "error"] == []
    with CodeGraph.open(state_for(repo).graph_db) as graph:
        assert {"deep.Other", "deep.Deep"} <= {t.fqn for t in graph.types()}
        assert ("deep.Deep", "deep.Other", "static_call") in {(e.source, e.target, e.kind.value)
                                                              for e in graph.edges()}


def test_the_default_size_limit_skips_a_huge_file_with_a_warning(
    make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir],
) -> None:
    repo = make_java_repo({**_NORMAL, "src/main/java/deep/Deep.java": _generated(2)})
    summary = update_graph(repo, state_for(repo), config_for(repo))
    assert [(p.path, p.severity) for p in summary.problems] == [("src/main/java/deep/Deep.java", "warning")]
    assert "exceeds max_file_bytes" in summary.problems[0].message
    with CodeGraph.open(state_for(repo).graph_db) as graph:
        assert {t.fqn for t in graph.types()} == {"deep.Other"}


@pytest.mark.parametrize("files", [1, indexer_module.PARALLEL_THRESHOLD + 10], ids=["in process", "in workers"])
def test_a_file_the_analysis_fails_on_is_a_parse_problem_of_that_file(
    files: int, make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir], monkeypatch: pytest.MonkeyPatch,
) -> None:
    sources = {f"src/main/java/deep/C{i}.java": f"package deep;\npublic class C{i} {{}}\n" for i in range(files)}
    repo = make_java_repo({**_NORMAL, **sources, "src/main/java/deep/Bad.java": "package deep;\nclass Bad {}\n"})
    real = indexer_module.extract_file

    def failing(source: bytes, path: str, **options: bool) -> object:
        if path.endswith("Bad.java"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(source, path, **options)

    # Workers are forked, so they inherit the patched function.
    monkeypatch.setattr(indexer_module, "extract_file", failing)
    summary = update_graph(repo, state_for(repo), config_for(repo))
    assert [(p.path, p.severity) for p in summary.problems] == [("src/main/java/deep/Bad.java", "error")]
    assert "RecursionError" in summary.problems[0].message
    assert summary.classes == files + 1
    with CodeGraph.open(state_for(repo).graph_db) as graph:
        assert "deep.Bad" not in {t.fqn for t in graph.types()}
    again = update_graph(repo, state_for(repo), config_for(repo))
    assert again.incremental and again.files_parsed == 0  # the failed file is not retried until it changes
    assert [p.path for p in again.problems] == ["src/main/java/deep/Bad.java"]


def test_javac_compiles_a_deeply_nested_file_and_its_neighbours(tmp_path: Path) -> None:
    # javac's parser recurses per level: with its default stack it dies blaming no file and the whole batch,
    # the normal file too, would be left out of the main build. A thousand levels already kill the default stack;
    # twice that stays well past it (javac's time grows with the square of the depth: 10,000 take 20 s of CPU).
    root = tmp_path / "repo"
    for rel, text in {**_NORMAL, "src/main/java/deep/Deep.java": _parentheses(2_000)}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    sources = [(rel, "sha") for rel in sorted({*_NORMAL, "src/main/java/deep/Deep.java"})]
    build = build_main_classes(root, sources, classpath=[], cache_dir=tmp_path / "main")
    assert build.failed == ()
    assert (build.classes_dir / "deep" / "Other.class").is_file()
    assert (build.classes_dir / "deep" / "Deep.class").is_file()

"""update_graph on real git repositories: full builds, incremental updates and their reasons."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import git
import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import JunitbotConfig
from junitbot.state import StateDir
from tests.conftest import PROJECT, commit_all


def test_full_build_of_the_example_finds_its_types_and_edges(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    summary = update_graph(shop_repo, state_for(shop_repo), config_for(shop_repo))
    assert not summary.incremental
    assert summary.git and summary.commit == git.Repo(shop_repo).head.commit.hexsha
    assert summary.files_parsed == summary.files >= 45
    assert 45 <= summary.classes <= 60
    assert summary.problems == ()
    with CodeGraph.open(state_for(shop_repo).graph_db) as graph:
        targets = {(e.target, e.kind.value) for e in graph.edges() if e.source.endswith(".PlaceOrderService")}
    assert ("com.acme.shop.domain.port.OrderRepository", "constructor_parameter") in targets
    assert ("com.acme.shop.domain.PaymentDeclinedException", "catches") in targets


def test_second_run_without_changes_parses_nothing(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    state, config = state_for(shop_repo), config_for(shop_repo)
    update_graph(shop_repo, state, config)
    again = update_graph(shop_repo, state, config)
    assert again.incremental
    assert (again.files_parsed, again.files_removed, again.files_reresolved) == (0, 0, 0)


def test_one_file_commit_reparses_only_that_file(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    state, config = state_for(shop_repo), config_for(shop_repo)
    update_graph(shop_repo, state, config)
    money = shop_repo / "src/main/java/com/acme/shop/domain/Money.java"
    money.write_text(money.read_text().replace("public final class Money", "/** changed */\npublic final class Money"))
    commit_all(git.Repo(shop_repo), "touch Money")
    summary = update_graph(shop_repo, state, config)
    assert summary.incremental
    assert summary.files_parsed == 1
    assert summary.files_reresolved == 0  # no type appeared or vanished


def test_multi_module_source_roots_and_duplicate_fqns(
    make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir],
) -> None:
    repo = make_java_repo({
        "pom.xml": "<project/>",
        "core/pom.xml": "<project/>",
        "core/src/main/java/com/acme/core/Money.java": "package com.acme.core; public class Money {}",
        "core/src/test/java/com/acme/core/MoneyTest.java": "package com.acme.core; class MoneyTest { Money m; }",
        "web/build.gradle": "",
        "web/src/main/java/com/acme/web/Api.java": "package com.acme.web; class Api { com.acme.core.Money m; }",
        "legacy/src/com/acme/core/Money.java": "package com.acme.core; public class Money { int old; }",
        "core/target/generated-sources/com/acme/Gen.java": "package com.acme; class Gen {}",
    })
    summary = update_graph(repo, state_for(repo), config_for(repo))
    roots = {(r.path, r.module, r.build, r.test, r.files) for r in summary.source_roots}
    assert roots == {
        ("core/src/main/java", "core", "maven", False, 1), ("core/src/test/java", "core", "maven", True, 1),
        ("web/src/main/java", "web", "gradle", False, 1), ("legacy/src", "", "maven", False, 1),
    }
    duplicate = [p for p in summary.problems if "duplicate type com.acme.core.Money" in p.message]
    assert len(duplicate) == 1 and duplicate[0].path == "legacy/src/com/acme/core/Money.java"
    with CodeGraph.open(state_for(repo).graph_db) as graph:
        node = next(t for t in graph.types() if t.fqn == "com.acme.core.Money")
        assert node.path == "core/src/main/java/com/acme/core/Money.java"  # the first path wins
        assert "com.acme.Gen" not in {t.fqn for t in graph.types()}  # build output is not analysed


def test_bad_files_are_reported_and_the_rest_is_indexed(
    make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir], tmp_path: Path,
) -> None:
    outside = tmp_path / "Outside.java"
    outside.write_text("package a; class Outside {}")
    repo = make_java_repo({
        ".junitbot.yml": "max_file_bytes: 2000\n",
        "src/main/java/a/Good.java": "package a; class Good { Broken b; Latin l; }",
        "src/main/java/a/Broken.java": "package a;\nclass Broken {\n  void m( { }\n}\n",
        "src/main/java/a/Latin.java": "package a; class Latin { String s = \"caf\u00e9\"; }".encode("latin-1"),
        "src/main/java/a/Binary.java": b"\x00\x01\x02 class Binary {}",
        "src/main/java/a/Huge.java": "package a; class Huge {}\n" + "// filler\n" * 400,
    })
    (repo / "src/main/java/a/Outside.java").symlink_to(outside)
    summary = update_graph(repo, state_for(repo), config_for(repo))
    messages = {p.path.rsplit("/", 1)[-1]: p for p in summary.problems}
    assert messages["Broken.java"].severity == "error" and messages["Broken.java"].line == 3
    assert "ISO-8859-1" in messages["Latin.java"].message
    assert "binary" in messages["Binary.java"].message
    assert "max_file_bytes" in messages["Huge.java"].message
    assert "leaves the repository" in messages["Outside.java"].message
    with CodeGraph.open(state_for(repo).graph_db) as graph:
        assert {e.target for e in graph.edges() if e.source == "a.Good"} == {"a.Broken", "a.Latin"}
        assert "a.Outside" not in {t.fqn for t in graph.types()}


def test_empty_repository_without_commits(
    tmp_path: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    root = tmp_path / "empty"
    git.Repo.init(root)
    summary = update_graph(root, state_for(root), config_for(root))
    assert (summary.files, summary.classes, summary.commit, summary.git) == (0, 0, None, True)
    (root / "A.java").write_text("class A {}")
    again = update_graph(root, state_for(root), config_for(root))
    assert again.incremental and again.files_parsed == 1 and again.classes == 1


def test_uncommitted_work_is_indexed_and_reverting_it_is_noticed(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    state, config = state_for(shop_repo), config_for(shop_repo)
    update_graph(shop_repo, state, config)
    draft = shop_repo / "src/main/java/com/acme/shop/domain/Draft.java"
    draft.write_text("package com.acme.shop.domain; public class Draft { Money m; }")
    summary = update_graph(shop_repo, state, config)
    assert summary.files_parsed == 1 and summary.classes == 55
    draft.unlink()  # never committed: only the recorded dirty list can tell us it went away
    summary = update_graph(shop_repo, state, config)
    assert summary.files_removed == 1 and summary.classes == 54


def test_parallel_full_build_equals_the_serial_one(
    make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from junitbot.analysis import graph_document, indexer

    files = {f"src/main/java/p/C{i}.java": f"package p; public class C{i} {{ C{(i + 1) % 40} next; }}"
             for i in range(40)}
    repo = make_java_repo(files)
    monkeypatch.setattr(indexer, "PARALLEL_THRESHOLD", 10**9)
    update_graph(repo, StateDir(tmp_path / "serial"), config_for(repo), full=True)
    # The parallel build runs in a fresh interpreter: this one (a pytest-xdist worker) runs other threads, and a
    # parser forked beside them once waited forever for a lock one of them held.
    script = (
        "import json, os, sys\n"
        "from pathlib import Path\n"
        "from junitbot.analysis import indexer\n"
        "from junitbot.config import load_config\n"
        "from junitbot.state import StateDir\n"
        "pools = []\n"
        "class Pool(indexer.ProcessPoolExecutor):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        pools.append(kwargs['max_workers'])\n"
        "        super().__init__(*args, **kwargs)\n"
        "indexer.PARALLEL_THRESHOLD, indexer.ProcessPoolExecutor, os.cpu_count = 10, Pool, lambda: 2\n"
        "repo, state = Path(sys.argv[1]), StateDir(Path(sys.argv[2]))\n"
        "indexer.update_graph(repo, state, load_config(repo, environ={}), full=True)\n"
        "print(json.dumps(pools))\n")
    done = subprocess.run([sys.executable, "-c", script, str(repo), str(tmp_path / "parallel")], cwd=PROJECT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.split() == ["[2]"], done.stderr  # two workers parsed
    documents = []
    for name in ("serial", "parallel"):
        with CodeGraph.open(StateDir(tmp_path / name).graph_db) as graph:
            documents.append(graph_document(graph).model_dump_json())
    assert documents[0] == documents[1]
    assert '"source":"p.C0","target":"p.C1"' in documents[0]

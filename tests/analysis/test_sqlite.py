"""A corrupt SQLite state store heals (issue 18): moved aside as `<name>.corrupt` with one warning and rebuilt,
never a traceback, never stuck; here the store helper itself and the code graph through the command line."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import git
import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.analysis.sqlite import open_store
from junitbot.cli import main
from junitbot.config import load_config
from junitbot.errors import StoreCorrupt
from junitbot.state import StateDir
from tests.conftest import commit_all
from tests.corruption import CORRUPTIONS, break_an_index, corrupt, warnings_of


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _store(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t(k TEXT PRIMARY KEY, v TEXT)")
    db.executemany("INSERT INTO t VALUES (?, ?)", ((f"k{i}", "v" * 200) for i in range(2000)))
    db.commit()
    db.close()


# -- the store helper ------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", CORRUPTIONS)
def test_a_corrupt_file_is_set_aside_on_open_and_an_empty_store_takes_its_place(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    path = tmp_path / "state.sqlite"
    _store(path)
    corrupt(path, how)
    damaged = path.read_bytes()
    derived = tmp_path / "cache"
    derived.mkdir()
    (derived / "x").write_text("built from the old store")
    db = open_store(path, what="test store", derived=[derived])
    assert db.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)
    db.close()
    assert (tmp_path / "state.sqlite.corrupt").read_bytes() == damaged
    assert not derived.exists()
    [warning] = warnings_of(caplog)
    assert "state.sqlite is corrupt" in warning and "state.sqlite.corrupt" in warning
    assert "test store is rebuilt" in warning


def test_corruption_met_in_use_raises_store_corrupt_and_the_file_moves_aside_on_close(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "state.sqlite"
    _store(path)
    db = sqlite3.connect(path)
    db.execute("CREATE INDEX t_v ON t(v)")
    db.commit()
    db.close()
    break_an_index(path, "t_v", "t(k)")
    (tmp_path / "state.sqlite.corrupt").write_text("an older casualty")
    (tmp_path / "state.sqlite.corrupt-wal").write_text("its journal")
    store = open_store(path, what="test store")
    assert store.execute("SELECT count(*) FROM t").fetchone() == (2000,)  # reads still work
    with pytest.raises(StoreCorrupt, match="malformed") as raised:
        store.execute("DELETE FROM t WHERE k = 'k7'")
    assert raised.value.path == path
    assert path.exists() and not warnings_of(caplog)  # not under an open connection: its journal would strand
    store.close()
    assert not path.exists()
    assert (tmp_path / "state.sqlite.corrupt").read_bytes()[:16] == b"SQLite format 3\0"
    assert not (tmp_path / "state.sqlite.corrupt-wal").exists()  # the older one's journal went with it
    assert len(warnings_of(caplog)) == 1


def test_errors_that_are_not_corruption_leave_the_file_alone(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "state.sqlite"
    _store(path)
    store = open_store(path, what="test store")
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        store.execute("SELECT * FROM missing")
    store.execute("INSERT INTO t VALUES ('new', 'row')")
    store.close()
    assert path.exists() and not (tmp_path / "state.sqlite.corrupt").exists() and not warnings_of(caplog)


# -- the code graph, as a user meets it ----------------------------------------------------------------------


@pytest.mark.parametrize("how", CORRUPTIONS)
def test_index_sets_a_corrupt_graph_aside_and_rebuilds_it(
    shop_repo: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, how: str
) -> None:
    repo = str(shop_repo)
    code, out, _ = _run(capsys, "index", "--repo", repo, "--graph-only", "--json")
    assert code == 0
    built = json.loads(out)["graph"]
    _, impact_before, _ = _run(capsys, "impact", "--repo", repo, "--json", "Money")
    graph_db = shop_repo / ".junitbot" / "graph.sqlite"
    corrupt(graph_db, how)
    caplog.clear()

    code, out, err = _run(capsys, "index", "--repo", repo, "--graph-only", "--json")
    assert code == 0, err
    rebuilt = json.loads(out)["graph"]
    assert not rebuilt["incremental"] and "could not be used" in rebuilt["reason"]
    assert (rebuilt["files"], rebuilt["classes"], rebuilt["edges"]) == (built["files"], built["classes"],
                                                                       built["edges"])
    assert (graph_db.parent / "graph.sqlite.corrupt").is_file()
    [warning] = warnings_of(caplog)
    assert "graph.sqlite is corrupt" in warning and "code graph is rebuilt" in warning
    assert "Traceback" not in err

    caplog.clear()
    code, impact_after, _ = _run(capsys, "impact", "--repo", repo, "--json", "Money")
    assert code == 0 and impact_after == impact_before
    code, out, _ = _run(capsys, "index", "--repo", repo, "--graph-only", "--json")
    again = json.loads(out)["graph"]
    assert code == 0 and again["incremental"] and again["files_parsed"] == 0
    assert not warnings_of(caplog)


def test_a_reader_of_a_corrupt_graph_heals_it_too(
    shop_repo: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """`impact` refreshes the graph before answering: the corrupt file is set aside and the answer is right."""
    repo = str(shop_repo)
    _, before, _ = _run(capsys, "impact", "--repo", repo, "--json", "Money")
    corrupt(shop_repo / ".junitbot" / "graph.sqlite", "random bytes")
    caplog.clear()
    code, after, err = _run(capsys, "impact", "--repo", repo, "--json", "Money")
    assert code == 0, err
    assert after == before and len(warnings_of(caplog)) == 1


def test_corruption_met_during_an_incremental_update_rebuilds_the_graph(
    make_java_repo: Callable[..., Path], caplog: pytest.LogCaptureFixture
) -> None:
    root = make_java_repo({
        "src/main/java/a/A.java": "package a;\npublic class A { B b; }\n",
        "src/main/java/a/B.java": "package a;\npublic class B { }\n",
    })
    config = load_config(root, environ={})
    state = StateDir.for_repo(root, config)
    update_graph(root, state, config)
    break_an_index(state.graph_db, "types_path", "types(name)")
    (root / "src/main/java/a/B.java").write_text("package a;\npublic class B { A a; }\n")
    commit_all(git.Repo(root), "B uses A")

    summary = update_graph(root, state, config)
    assert not summary.incremental and "corrupt" in summary.reason and "malformed" in summary.reason
    assert (summary.files, summary.classes) == (2, 2)
    with CodeGraph.open(state.graph_db) as graph:
        assert graph.commit == git.Repo(root).head.commit.hexsha
        assert [source for source, _ in graph.dependents("a.A")] == ["a.B"]
    assert (state.root / "graph.sqlite.corrupt").is_file()
    [warning] = warnings_of(caplog)
    assert "malformed" in warning
    caplog.clear()
    assert update_graph(root, state, config).incremental and not warnings_of(caplog)

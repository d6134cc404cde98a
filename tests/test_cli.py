"""The command line, as a user runs it: exit codes, JSON shapes and export formats."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_index_json_reports_a_full_then_incremental_build(shop_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "index", "--repo", str(shop_repo), "--json", "--graph-only")
    assert code == 0
    first = json.loads(out)["graph"]
    assert first["incremental"] is False and first["files_parsed"] == first["files"] > 0
    assert set(first["seconds"]) >= {"scan", "parse", "resolve", "total"}
    assert json.loads(out)["embeddings"] is None
    _, out, _ = _run(capsys, "index", "--repo", str(shop_repo), "--json", "--graph-only")
    second = json.loads(out)["graph"]
    assert second["incremental"] is True and second["files_parsed"] == 0
    # The state never shows up as a change; templates a team keeps in .junitbot/templates/ can be committed.
    (shop_repo / ".junitbot" / "templates").mkdir()
    (shop_repo / ".junitbot" / "templates" / "pr_body.md.j2").write_text("body")
    status = subprocess.run(["git", "-C", str(shop_repo), "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout
    assert status.strip() == "?? .junitbot/templates/pr_body.md.j2"


def test_impact_and_context_json(shop_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "impact", "--repo", str(shop_repo), "Money", "--depth", "1", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["changed"] == ["com.acme.shop.domain.Money"] and report["depth"] == 1
    assert all(d["depth"] == 1 and d["path"][0]["target"] == "com.acme.shop.domain.Money" for d in report["dependents"])
    code, out, _ = _run(capsys, "context", "--repo", str(shop_repo), "CancelOrderUseCase", "--json")
    assert code == 0
    context = json.loads(out)
    assert {c["name"] for c in context["collaborators"]} >= {"orders", "events"}
    assert {"fqn", "strategy", "details"} <= set(context["value_types"][0])


def test_unknown_class_is_an_error_with_suggestions(shop_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "impact", "--repo", str(shop_repo), "Ordr")
    assert code == 1
    assert "'Ordr' matches no class" in err and "com.acme.shop.domain.Order" in err


def test_ambiguous_simple_name_lists_the_candidates(
    make_java_repo: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_java_repo({"src/main/java/a/Thing.java": "package a; public class Thing {}",
                           "src/main/java/b/Thing.java": "package b; public class Thing {}"})
    code, _, err = _run(capsys, "context", "--repo", str(repo), "Thing")
    assert code == 1
    assert "ambiguous" in err and "a.Thing" in err and "b.Thing" in err


def test_graph_exports_are_stable_and_well_formed(shop_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = _run(capsys, "graph", "--repo", str(shop_repo))
    _, second, _ = _run(capsys, "graph", "--repo", str(shop_repo), "--state-dir", str(shop_repo / "other-state"))
    assert first == second  # same commit, independent builds: equal as text
    document = json.loads(first)
    assert set(document) == {"commit", "nodes", "edges"}
    assert document["nodes"] == sorted(document["nodes"], key=lambda n: n["fqn"])
    assert all(not Path(n["file"]).is_absolute() for n in document["nodes"])
    fqns = {n["fqn"] for n in document["nodes"]}
    assert all(e["source"] in fqns and e["target"] in fqns for e in document["edges"])
    _, dot, _ = _run(capsys, "graph", "--repo", str(shop_repo), "--format", "dot")
    assert dot.startswith("digraph junitbot {") and '"com.acme.shop.domain.Order" -> ' in dot
    out_file = shop_repo / "graph.graphml"
    code, _, _ = _run(capsys, "graph", "--repo", str(shop_repo), "--format", "graphml", "--output", str(out_file))
    assert code == 0
    root = ET.parse(out_file).getroot()
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    assert len(root.findall(".//g:node", ns)) == len(document["nodes"])
    assert len(root.findall(".//g:edge", ns)) == len(document["edges"])


def test_config_show_and_schema(make_java_repo: Callable[..., Path], capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_java_repo({".junitbot.yml": "exclude: ['**/gen/**']\n"})
    code, out, _ = _run(capsys, "config", "--repo", str(repo), "--json")
    assert code == 0 and json.loads(out)["exclude"] == ["**/gen/**"]
    code, out, _ = _run(capsys, "config", "--schema")
    schema = json.loads(out)
    assert code == 0 and schema["additionalProperties"] is False
    assert {"include", "exclude", "ignore", "state_dir", "layers"} <= set(schema["properties"])


def test_broken_config_fails_fast_naming_the_key(
    make_java_repo: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_java_repo({".junitbot.yml": "exlude: ['x']\n", "A.java": "class A {}"})
    code, _, err = _run(capsys, "index", "--repo", str(repo))
    assert code == 1 and "exlude" in err and ".junitbot.yml" in err


def test_not_a_git_repository_is_indexed_and_said(
    make_java_repo: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_java_repo({"src/main/java/a/A.java": "package a; class A { B b; }",
                           "src/main/java/a/B.java": "package a; class B {}"}, use_git=False)
    code, out, _ = _run(capsys, "index", "--repo", str(repo), "--graph-only")
    assert code == 0 and "not a git repository" in out
    _, out, _ = _run(capsys, "index", "--repo", str(repo), "--json", "--graph-only")
    assert json.loads(out)["graph"]["git"] is False and json.loads(out)["graph"]["edges"] == 1


def test_missing_repo_and_no_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "index", "--repo", str(tmp_path / "nope"))
    assert code == 1 and "not a directory" in err
    assert main([]) == 2


def test_console_script_starts_without_heavy_imports() -> None:
    heavy = "('dagster', 'torch', 'faiss', 'vllm', 'sentence_transformers')"
    probe = f"import sys, junitbot.cli; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_ci_without_an_event_or_with_a_malformed_payload_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, shop_repo: Path, tmp_path: Path
) -> None:
    monkeypatch.delenv("GITHUB_EVENT_NAME", raising=False)
    code, _, err = _run(capsys, "ci", "--repo", str(shop_repo))
    assert code == 1 and "GITHUB_EVENT_NAME" in err
    payload = tmp_path / "event.json"
    payload.write_text('{"ref": ')
    monkeypatch.setenv("GITHUB_EVENT_NAME", "push")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(payload))
    code, _, err = _run(capsys, "ci", "--repo", str(shop_repo), "--dry-run")
    assert code == 1 and "not a JSON payload" in err


UTIL = """package {0};

public final class Util {{
    public static int twice(int x) {{
        return {1} * x;
    }}
}}
"""
UTIL_TEST = """package {0};

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class {1} {{
    @Test
    void twice_doubles() {{
        assertEquals({2}, Util.twice(3));
    }}
}}
"""


def test_validate_resolves_the_class_under_test_like_javac_and_runs_a_test_that_names_none(
    make_java_repo: Callable[..., Path], capsys: pytest.CaptureFixture[str],
) -> None:
    """`Util` is in two packages: the test's own package decides. `UtilBehaviourTest` names no class: it is
    compiled, run and kept all the same, with the classes it exercised."""
    root = make_java_repo({
        "src/main/java/a/Util.java": UTIL.format("a", 2),
        "src/main/java/b/Util.java": UTIL.format("b", 3),
        "src/test/java/b/UtilTest.java": UTIL_TEST.format("b", "UtilTest", 9),
        "src/test/java/a/UtilBehaviourTest.java": UTIL_TEST.format("a", "UtilBehaviourTest", 6),
    })
    tests = root / "src/test/java"
    code, out, _ = _run(capsys, "validate", "--repo", str(root), "--json",
                        str(tests / "b/UtilTest.java"), str(tests / "a/UtilBehaviourTest.java"))
    assert code == 0
    verdicts = {v["path"].rsplit("/", 1)[-1]: v for v in json.loads(out)["verdicts"]}
    named, unnamed = verdicts["UtilTest.java"], verdicts["UtilBehaviourTest.java"]
    assert named["target"] == "b.Util" and named["kept"] and named["coverage"]["lines"]["covered"] > 0
    assert unnamed["target"] is None and unnamed["kept"] and unnamed["compiled"], unnamed["issues"]
    assert unnamed["coverage"] is None and "a.Util" in unnamed["exercised"]


def test_nothing_below_warning_reaches_stderr_at_the_default_verbosity(make_java_repo: Callable[..., Path]) -> None:
    # bm25s sets its own logger to DEBUG; the lexical index it builds for a search said "Building index from tokens".
    repo = make_java_repo({"src/main/java/a/Other.java": "package a;\npublic class Other { void use() {} }\n"})
    command = [sys.executable, "-m", "junitbot.cli", "search", "other", "--repo", str(repo)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Other" in done.stdout
    assert done.stderr == ""

"""Runs through Dagster on the example: work follows the change, checks catch breakage, the UI shows lineage."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import git
import pytest
from dagster import AssetKey, DagsterInstance, build_schedule_context, build_sensor_context

from junitbot.analysis import update_graph
from junitbot.assets.checks import index_matches_graph, kept_tests_pass
from junitbot.assets.resources import RepositoryResource
from junitbot.config import config_json, load_config
from junitbot.pipelines.definitions import build_definitions
from junitbot.pipelines.execute import execute_run
from junitbot.pipelines.instance import dagster_home
from junitbot.runs import RunReport, RunRequest
from junitbot.state import StateDir
from tests.conftest import EXAMPLE, commit_all, flow_only_yaml

DOMAIN = "src/main/java/com/acme/shop/domain"
# Money and a dependent of it (OrderLine), and one nobody changes.
INCLUDED = ("Money", "OrderLine", "ProductId")
CONFIG = flow_only_yaml() + "include:\n" + "".join(f"  - {DOMAIN}/{name}.java\n" for name in INCLUDED)


def _targets(instance: DagsterInstance) -> set[str]:
    event = instance.get_latest_materialization_event(AssetKey("test_report"))
    assert event is not None and event.asset_materialization is not None
    report = json.loads(Path(str(event.asset_materialization.metadata["report_dir"].value), "report.json").read_text())
    return {r["target"].removeprefix("com.acme.shop.domain.") for r in report["results"]}


def _names(report: RunReport) -> set[str]:
    return {r.target.removeprefix("com.acme.shop.domain.") for r in report.results}


# One module fixture, one worker: building it is the expensive part (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("dagster-shop")


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunReport]:
    """The example (a few domain classes included) after its first run through Dagster: commit A."""
    root = tmp_path_factory.mktemp("dagster") / "shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    (root / ".junitbot.yml").write_text(CONFIG, encoding="utf-8")
    repo = git.Repo.init(root, initial_branch="main")
    with repo.config_writer() as writer:
        writer.set_value("user", "name", "Test Author")
        writer.set_value("user", "email", "author@example.com")
    commit_all(repo, "A")
    config = load_config(root, environ={})
    report, _ = execute_run(root, config, StateDir.for_repo(root, config), RunRequest())
    repo.close()
    return root, report


@pytest.fixture
def repo_after_a(first_run: tuple[Path, RunReport], tmp_path: Path) -> Iterator[tuple[Path, StateDir, git.Repo]]:
    root = tmp_path / "shop"
    shutil.copytree(first_run[0], root, symlinks=True)
    config = load_config(root, environ={})
    repo = git.Repo(root)
    yield root, StateDir.for_repo(root, config), repo
    repo.close()


def test_later_runs_regenerate_only_changed_and_impacted_classes(
    first_run: tuple[Path, RunReport], repo_after_a: tuple[Path, StateDir, git.Repo]
) -> None:
    _, first = first_run
    assert _names(first) == {*INCLUDED, "Money.Builder"}
    assert first.kept >= 4 and first.mode.startswith("full")
    root, state, repo = repo_after_a
    untouched = root / "src/test/java/com/acme/shop/domain/ProductIdGeneratedTest.java"
    assert untouched.is_file()
    written_at = untouched.stat().st_mtime_ns

    # B: Money gains a method. Its generated tests still pass, but the new method has none: Money is regenerated.
    # Its dependents use none of what changed (a new method), so their tests are not even run again.
    money = root / DOMAIN / "Money.java"
    money.write_text(money.read_text().replace("public boolean isZero() {",
                                               "public boolean isPositive() {\n        return amount.signum() > 0;\n"
                                               "    }\n\n    public boolean isZero() {"), encoding="utf-8")
    commit_all(repo, "B")
    report_b, _ = execute_run(root, load_config(root, environ={}), state, RunRequest())
    assert report_b.mode.startswith("incremental")
    assert _names(report_b) == {"Money"}
    assert report_b.changes is not None and not report_b.changes.behaviour_changes
    assert "new members without tests: isPositive" in report_b.changes.regenerated["com.acme.shop.domain.Money"]
    money_test = (root / "src/test/java/com/acme/shop/domain/MoneyGeneratedTest.java").read_text()
    assert "isPositive" in money_test
    assert untouched.stat().st_mtime_ns == written_at, "a class nobody changed keeps its test file untouched"

    with DagsterInstance.from_config(str(dagster_home(state))) as instance:
        runs = instance.get_runs()
        assert len(runs) == 2 and all(r.is_success for r in runs)
        assert _targets(instance) == {"Money"}
        graph = instance.get_latest_materialization_event(AssetKey("code_graph"))
        assert graph is not None and graph.asset_materialization is not None
        # Money.java, and the test files run A wrote (committed with B; the graph knows tests too); not the other
        # 40-odd files.
        written_by_a = sum(1 for f in first.files if f.action == "written")
        assert graph.asset_materialization.metadata["files_parsed"].value <= 1 + written_by_a
        index = instance.get_latest_materialization_event(AssetKey("embedding_index"))
        assert index is not None and index.asset_materialization is not None
        # Money's header and its new method, and one chunk per test class A wrote, at most: the session's vector
        # cache may already hold some of them.
        assert 0 < index.asset_materialization.metadata["embedded"].value <= 2 + written_by_a


def test_checks_fail_on_a_stale_or_corrupt_index_and_a_broken_kept_test(
    first_run: tuple[Path, RunReport], repo_after_a: tuple[Path, StateDir, git.Repo]
) -> None:
    root, state, repo = repo_after_a
    resource = RepositoryResource(path=str(root), config_json=config_json(load_config(root, environ={})))
    assert index_matches_graph(repository=resource).passed
    # Stale: the graph moved on to a new commit, the embedding index did not.
    (root / DOMAIN / "Coupon.java").write_text("package com.acme.shop.domain;\npublic record Coupon(String code) {}\n")
    commit_all(repo, "coupon")
    update_graph(root, state, load_config(root, environ={}))
    stale = index_matches_graph(repository=resource)
    assert not stale.passed and stale.metadata["missing_files"].value >= 1
    assert stale.metadata["graph_commit"].value != stale.metadata["index_commit"].value
    # Corrupt: the FAISS file no longer matches its manifest.
    state.faiss_index.write_bytes(b"not an index")
    corrupt = index_matches_graph(repository=resource)
    assert not corrupt.passed and "FAISS file unusable" in json.dumps(corrupt.metadata["problems"].value)

    report = first_run[1].model_copy(update={"dry_run": False})
    assert kept_tests_pass(validated_tests=report, repository=resource).passed
    kept = next(r for r in report.results if r.target.endswith(".Money") and r.status == "kept")
    test_file = root / str(kept.test_path)
    source = test_file.read_text()
    broken = source.replace("@Test\n", "@Test\n    public void brokenOnPurpose() { org.junit.jupiter.api.Assertions"
                                        ".assertEquals(1, 2); }\n\n    @Test\n", 1)
    assert broken != source
    test_file.write_text(broken)
    result = kept_tests_pass(validated_tests=report, repository=resource)
    assert not result.passed and "brokenOnPurpose" in str(result.metadata["failures"].value)


def test_sensor_runs_each_new_head_once_and_the_schedule_runs_a_full_pass(make_java_repo: object) -> None:
    root = make_java_repo({".junitbot.yml": "schedule: {cron: '15 4 * * 1-5', branch: main}\n",  # type: ignore[operator]
                           "src/main/java/a/A.java": "package a; public class A {}"})
    defs = build_definitions(root)
    config = load_config(root, environ={})
    resources = {"repository": RepositoryResource(path=str(root), config_json=config_json(config))}
    sensor = defs.resolve_sensor_def("branch_head_sensor")
    head = git.Repo(root).head.commit.hexsha
    first = sensor(build_sensor_context(cursor=None, resources=resources, definitions=defs))
    assert [r.run_key for r in first.run_requests] == [head] and first.cursor == head
    again = sensor(build_sensor_context(cursor=head, resources=resources, definitions=defs))
    assert not getattr(again, "run_requests", None) and "still at" in str(getattr(again, "skip_message", again))
    (root / "src/main/java/a/B.java").write_text("package a; public class B {}")
    new_head = commit_all(git.Repo(root), "B")
    moved = sensor(build_sensor_context(cursor=head, resources=resources, definitions=defs))
    assert [r.run_key for r in moved.run_requests] == [new_head]

    schedule = defs.resolve_schedule_def("full_repo_schedule")
    # The nightly pass is the partitioned, resumable one (`full_pass.partitioned`, on by default).
    assert schedule.cron_schedule == "15 4 * * 1-5" and schedule.job_name == "full_pass_job"
    tick = schedule.evaluate_tick(build_schedule_context())
    assert tick.run_requests and tick.run_requests[0].run_config == {}
    assert {j.name for j in defs.resolve_all_job_defs()} >= {"incremental_job", "full_repo_job", "regenerate_job",
                                                             "full_pass_job"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _graphql(port: int, query: str) -> dict[str, object]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", data=json.dumps({"query": query}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_the_ui_serves_the_asset_lineage_and_the_latest_materialisations(
    repo_after_a: tuple[Path, StateDir, git.Repo], tmp_path: Path
) -> None:
    root, _, _ = repo_after_a
    port = _free_port()
    env = {**os.environ, "COLUMNS": "200"}
    server = subprocess.Popen([sys.executable, "-m", "junitbot.cli", "ui", "--repo", str(root), "--port", str(port)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        nodes = None
        while time.monotonic() < deadline:
            try:
                nodes = _graphql(port, "{ assetNodes { assetKey { path } dependencyKeys { path } } }")
                break
            except OSError:
                assert server.poll() is None, server.stdout.read().decode() if server.stdout else ""
                time.sleep(1)
        assert nodes is not None, "the webserver did not answer within 120 s"
        edges = {(dep["path"][0], node["assetKey"]["path"][0])
                 for node in nodes["data"]["assetNodes"] for dep in node["dependencyKeys"]}  # type: ignore[index]
        assert {("changeset", "code_graph"), ("code_graph", "embedding_index"), ("embedding_index", "impacted_classes"),
                ("code_graph", "changed_behaviour"), ("changed_behaviour", "impacted_classes"),
                ("impacted_classes", "generated_tests"), ("generated_tests", "gated_tests"),
                ("gated_tests", "validated_tests"),
                ("validated_tests", "test_report"), ("test_report", "test_pull_request")} <= edges
        latest = _graphql(port, "{ assetsOrError { ... on AssetConnection { nodes { key { path } "
                                "assetMaterializations(limit: 1) { runId metadataEntries { label } } } } } }")
        materialised = {n["key"]["path"][0]: n["assetMaterializations"]
                        for n in latest["data"]["assetsOrError"]["nodes"]}  # type: ignore[index]
        assert all(materialised[name] for name in ("changeset", "code_graph", "embedding_index", "test_report"))
        assert "report" in {e["label"] for e in materialised["test_report"][0]["metadataEntries"]}
        chromium = shutil.which("chromium")
        assert chromium, "scripts/setup.sh installs Debian's chromium"
        flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 # The lineage layout is computed in a web worker: 15 s of virtual time showed only a spinner.
                 "--virtual-time-budget=30000",
                 "--window-size=1400,900"]
        page = f"http://127.0.0.1:{port}/asset-groups/junitbot"
        dom = subprocess.run([*flags, f"--user-data-dir={tmp_path / 'c1'}", "--dump-dom", page], check=True,
                             capture_output=True, text=True, timeout=120).stdout
        # Graph nodes, not the asset list beside the graph: each asset is drawn as an AssetNode.
        drawn = set(re.findall(r'class="AssetNode_assetName[^"]*">(\w+)<', dom))
        assert drawn == {"changeset", "code_graph", "embedding_index", "changed_behaviour", "impacted_classes",
                         "generated_tests", "gated_tests", "validated_tests", "test_report", "test_pull_request",
                         "full_pass_tests"}, \
            "the rendered page draws every asset of the graph"
        shot = tmp_path / "asset-graph.png"
        subprocess.run([*flags, f"--user-data-dir={tmp_path / 'c2'}", f"--screenshot={shot}", page], check=True,
                       capture_output=True, timeout=120)
        assert shot.stat().st_size > 20_000, "a blank page compresses to almost nothing"
        keep = os.environ.get("SCREENSHOT_DIR")
        if keep:
            shutil.copy(shot, Path(keep) / "asset-graph.png")
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)

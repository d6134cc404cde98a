"""The partitioned full pass on Dagster: partitions side by side on the multiprocess executor, each a materialized
partition of `full_pass_tests`, a resumed pass running only what was left; the fleet's configuration loads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from dagster import AssetKey, DagsterEventType, DagsterInstance, validate_run_config

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import load_config
from junitbot.pipelines.definitions import build_definitions
from junitbot.pipelines.full_pass import execute_full_pass
from junitbot.pipelines.instance import dagster_home
from junitbot.runs import RunRequest, plan_full_pass, run_partition
from junitbot.state import StateDir
from tests.runs.test_partitions import SOURCES

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "dagster"


def test_a_resumed_full_pass_runs_what_was_left_side_by_side_up_to_the_workers(
    make_java_repo: Callable[..., Path],
) -> None:
    # Partitions of one class, two workers: four partitions, one finished by an earlier pass that was then killed.
    one_class = SOURCES[".junitbot.yml"].replace("batch_size: 2", "batch_size: 1")
    root = make_java_repo({**SOURCES, ".junitbot.yml": one_class,
                           "src/main/java/shop/text/Words.java": """package shop.text;

public final class Words {
    public static int count(String text) {
        String trimmed = text.trim();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\\\s+").length;
    }
}
"""})
    config = load_config(root, environ={})
    state = StateDir.for_repo(root, config).ensure()
    request = RunRequest(full=True, dry_run=True)  # a dry run: the pass and its ledger alike, and no file written
    summary = update_graph(root, state, config)
    with CodeGraph.open(state.graph_db) as graph:
        planned, done = plan_full_pass(root, config, state, request, graph=graph, head=summary.commit)
    keys = [p.key for p in planned.partitions]
    assert done == {} and len(keys) == 4 and len({k.split("#")[0] for k in keys}) == 2, keys
    run_partition(root, config, state, planned, keys[0])

    report, run_id = execute_full_pass(root, config, state, request)

    assert {r.target for r in report.results} == {"shop.price.Price", "shop.price.Discount", "shop.text.Slug",
                                                  "shop.text.Words"}
    assert any(r.status == "kept" for r in report.results)
    assert report.dry_run and report.targets == 4 and not list((root / "src").rglob("*GeneratedTest.java"))
    with DagsterInstance.from_config(str(dagster_home(state))) as instance:
        events = [e for e in instance.all_logs(run_id) if (e.step_key or "").startswith("generate_partition")]
        assert set(instance.get_dynamic_partitions("junitbot_full_pass")) == set(keys)
        materialized = instance.get_materialized_partitions(AssetKey("full_pass_tests"))
    assert materialized == set(keys[1:]), "only the partitions the killed pass had not finished"
    started = {e.step_key for e in events if e.dagster_event_type == DagsterEventType.STEP_START}
    assert len(started) == 3 and not any(k.startswith("generate_partition[p0000_") for k in started), started
    # Two workers: the executor starts two partitions' processes at once, a third only when one has finished.
    timeline = sorted((e.timestamp, e.dagster_event_type, e.step_key) for e in events if e.dagster_event_type in (
        DagsterEventType.STEP_WORKER_STARTING, DagsterEventType.STEP_SUCCESS))
    assert len({key for _, kind, key in timeline if kind == DagsterEventType.STEP_SUCCESS}) == 3
    running, most = 0, 0
    for _, kind, _ in timeline:
        running += 1 if kind == DagsterEventType.STEP_WORKER_STARTING else -1
        most = max(most, running)
    assert most == 2


@pytest.mark.parametrize(("executor", "run_config"), [("celery", "full-pass-celery.yaml"),
                                                      ("k8s", "full-pass-k8s.yaml")])
def test_the_fleet_configuration_loads(executor: str, run_config: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What docs/fleet.md ships: the same definitions on Celery and Kubernetes executors, their run configs, and
    the Postgres instances (checked against the libraries' own schemas; no broker, cluster or database here)."""
    from dagster._config import process_config
    from dagster._core.instance.config import dagster_instance_config
    from dagster_k8s import K8sRunLauncher
    from dagster_postgres import DagsterPostgresStorage

    for name in ("JUNITBOT_CELERY_BROKER", "JUNITBOT_CELERY_BACKEND", "DAGSTER_PG_USERNAME", "DAGSTER_PG_PASSWORD",
                 "DAGSTER_PG_HOST", "DAGSTER_PG_DB", "JUNITBOT_K8S_NAMESPACE"):
        monkeypatch.setenv(name, "pyamqp://guest@broker//" if "CELERY" in name else "junitbot")
    defs = build_definitions(Path("examples/shop"), load_config(Path("examples/shop"), environ={}), executor=executor)
    job = defs.resolve_job_def("full_pass_job")
    assert job.executor_def.name == executor
    validate_run_config(job, yaml.safe_load((DEPLOY / run_config).read_text()))

    for instance_file in ("dagster.yaml", "dagster-k8s.yaml"):
        settings, _ = dagster_instance_config(str(DEPLOY), instance_file)
        assert process_config(DagsterPostgresStorage.config_type(), settings["storage"]["postgres"]).success
        if "run_launcher" in settings:
            launcher = settings["run_launcher"]
            assert (launcher["module"], launcher["class"]) == ("dagster_k8s", "K8sRunLauncher")
            assert process_config(K8sRunLauncher.config_type(), launcher["config"]).success  # type: ignore[no-untyped-call]
    assert yaml.safe_load((DEPLOY / "workspace.yaml").read_text())["load_from"][0]["python_module"][
        "module_name"] == "junitbot.pipelines"

"""The `test_pull_request` asset: a Dagster run publishes the bot's one pull request, and updates it in place."""

from __future__ import annotations

import os

import pytest
from dagster import AssetKey, DagsterInstance

from junitbot.config import JunitbotConfig, load_config
from junitbot.pipelines.execute import execute_run
from junitbot.pipelines.instance import dagster_home
from junitbot.runs import RunRequest
from tests.bot.conftest import CART, REPOSITORY, TOKEN, World
from tests.conftest import FLOW_ONLY


def _config(world: World) -> JunitbotConfig:
    return load_config(world.root, environ={}, overrides={"state_dir": world.state.root, **FLOW_ONLY})


def test_runs_through_dagster_open_then_update_one_pull_request(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_REPOSITORY", REPOSITORY)
    monkeypatch.setenv("GITHUB_API_URL", world.double.url)
    first, _ = execute_run(world.root, _config(world), world.state, RunRequest(), publish=True)
    assert first.kept >= 1
    assert "GITHUB_TOKEN" not in os.environ, "no build tool or test JVM of the run could read the token"
    pulls = world.double.open_pulls()
    assert len(pulls) == 1 and pulls[0]["head"]["ref"] == "junitbot/main" and pulls[0]["base"]["ref"] == "main"
    assert any(p.endswith("GeneratedTest.java") for p in world.remote_files("junitbot/main"))

    world.commit({"src/main/java/com/acme/shop/Cart.java": CART.replace(
        "public Money total() { return total; }",
        "public Money total() { return total; }\n\n    public boolean isEmpty() { return total.cents() == 0; }")},
        "Cart.isEmpty")
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)  # each publishing run takes the token out of the environment
    execute_run(world.root, _config(world), world.state, RunRequest(), publish=True)
    pulls = world.double.open_pulls()
    assert len(pulls) == 1, "the same pull request is updated, never a second one"
    assert "isEmpty" in (world.remote_file("junitbot/main", "src/test/java/com/acme/shop/CartGeneratedTest.java") or "")
    with DagsterInstance.from_config(str(dagster_home(world.state))) as instance:
        event = instance.get_latest_materialization_event(AssetKey("test_pull_request"))
        assert event is not None and event.asset_materialization is not None
        metadata = event.asset_materialization.metadata
        assert metadata["status"].value in ("updated", "opened") and "pull_request" in metadata
    for path in world.tmp.rglob("*"):
        if path.is_file() and path.suffix in (".md", ".json", ".txt", ".patch", ".log"):
            assert TOKEN not in path.read_text(errors="replace"), path


def test_without_publish_the_asset_is_skipped(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_REPOSITORY", REPOSITORY)
    monkeypatch.setenv("GITHUB_API_URL", world.double.url)
    execute_run(world.root, _config(world), world.state, RunRequest())
    assert world.double.open_pulls() == [] and world.remote_sha("junitbot/main") is None

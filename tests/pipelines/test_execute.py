"""`junitbot run` through Dagster: the flags reach the job, and `--direct` gives the same report."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from junitbot.cli import main
from tests.conftest import flow_only_yaml
from tests.generation.llm.doubles import ChatServer, Reply, completion, serve

AMOUNT = """package shop;

public final class Amount {
    private final long cents;

    public Amount(long cents) {
        if (cents < 0) {
            throw new IllegalArgumentException("negative: " + cents);
        }
        this.cents = cents;
    }

    public long cents() {
        return cents;
    }

    public Amount plus(Amount other) {
        return new Amount(cents + other.cents);
    }
}
"""
FILES = {"src/main/java/shop/Amount.java": AMOUNT,
         # No embeddings: these runs are about the backend, not retrieval (which only the model's prompts use).
         ".junitbot.yml": flow_only_yaml({"retrieval.enabled": False})}


@pytest.fixture(scope="module")
def chat_server() -> Iterator[ChatServer]:
    yield from serve()


def _run(root: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, Any]:
    assert main(["run", "--repo", str(root), "--json", "--classes", "Amount", "--dry-run", *flags]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_the_backend_flag_reaches_the_dagster_job(
    make_java_repo: Callable[..., Path], chat_server: ChatServer, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`auto` would pick openai here (a server URL is set): the flag must win on the Dagster path."""
    root = make_java_repo(FILES)
    monkeypatch.setenv("OPENAI_BASE_URL", chat_server.url)
    chat_server.reset(lambda body, attempt: Reply(body=completion("I cannot help with that.")))

    template = _run(root, capsys, "--backend", "template")
    assert template["dagster_run_id"] and template["backend"] == "template"
    assert template["backend_reason"] == "generation.backend in config or --backend"
    assert chat_server.requests == [], "--backend template sends no request to the server"

    auto = _run(root, capsys)
    assert auto["backend"] == "openai" and auto["backend_reason"] == "auto: OPENAI_BASE_URL is set"
    model = _run(root, capsys, "--backend", "openai")
    assert model["dagster_run_id"] and model["backend"] == "openai"
    assert len(chat_server.requests) >= 1, "--backend openai asks the server"


def test_direct_and_dagster_give_the_same_report(
    make_java_repo: Callable[..., Path], capsys: pytest.CaptureFixture[str],
) -> None:
    root = make_java_repo(FILES)
    through_dagster = _run(root, capsys, "--backend", "template")
    direct = _run(root, capsys, "--backend", "template", "--direct")
    assert through_dagster["dagster_run_id"] and direct["dagster_run_id"] is None
    same = ("commit", "mode", "backend", "dry_run", "targets", "results", "files")
    assert {k: through_dagster[k] for k in same} == {k: direct[k] for k in same}
    [result] = direct["results"]
    assert result["status"] == "kept" and result["kept"], result


def test_a_request_s_instructions_reach_the_dagster_job_s_config(make_java_repo: Callable[..., Path]) -> None:
    """`junitbot ci` runs through Dagster: a request must survive its run config whole, instructions included."""
    from dagster import validate_run_config

    from junitbot.assets.assets import RunOptions
    from junitbot.config import load_config
    from junitbot.pipelines.definitions import build_definitions
    from junitbot.pipelines.execute import run_options
    from junitbot.runs import ALL_TARGETS, RunRequest

    root = make_java_repo(FILES)
    request = RunRequest(classes=("shop.Amount",), pr_number=7, instructions={
        "shop.Amount": "cover negative cents", ALL_TARGETS: "use `Amount.of`"})
    options = run_options(request)
    job = build_definitions(root, load_config(root, environ={})).resolve_job_def("regenerate_job")
    assert validate_run_config(job, {"ops": {"changeset": {"config": options}}})
    assert RunOptions.model_validate(options).request() == request

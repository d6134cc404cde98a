"""A request's instructions (issue 17) travel through the plan into the GenerationJob, for the run's targets only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import JunitbotConfig
from junitbot.generation import GenerationJob, GenerationResult, Target
from junitbot.generation.llm import Backend
from junitbot.runs import ALL_TARGETS, RunRequest, generate_for_plan, instructions_for, plan_run
from junitbot.runs import steps as run_steps
from junitbot.state import StateDir

SOURCES = {"src/main/java/shop/Cart.java": "package shop;\npublic class Cart { public int size() { return 0; } }\n",
           "src/main/java/shop/Money.java": "package shop;\npublic class Money { public long cents() { return 1; } }\n"}


def test_a_target_gets_its_own_instructions_else_those_for_all_targets() -> None:
    given = {"shop.Cart": "cover the empty cart", ALL_TARGETS: "use the builder", "shop.Gone": "not a target"}
    assert instructions_for(given, ["shop.Cart", "shop.Money"]) == {
        "shop.Cart": "cover the empty cart", "shop.Money": "use the builder"}
    assert instructions_for({"shop.Cart": "cover the empty cart"}, ["shop.Money"]) == {}
    assert instructions_for({}, ["shop.Cart"]) == {}


def test_the_generation_job_carries_the_instructions_of_the_run_s_targets(
    make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
    state_for: Callable[[Path], StateDir], monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = make_java_repo(SOURCES)
    config, state = config_for(root), state_for(root)
    request = RunRequest(classes=("shop.Cart", "shop.Money"), instructions={
        "shop.Cart": "cover the empty cart", "shop.Other": "a class this run does not cover"})
    plan = plan_run(root, state, None, config, request)
    assert plan.instructions == request.instructions

    jobs: list[GenerationJob] = []

    def record(targets: object, job: GenerationJob, backend: Backend | None) -> GenerationResult:
        """Stands in for generation (not this test's subject): only the job that reaches it matters."""
        jobs.append(job)
        return GenerationResult(candidates=(), validation=None)

    monkeypatch.setattr(run_steps, "generate", record)
    update_graph(root, state, config)
    targets = [Target(fqn=fqn, file=f"src/main/java/{fqn.replace('.', '/')}.java", reason="named")
               for fqn in request.classes]
    with CodeGraph.open(state.graph_db) as graph:
        generate_for_plan(root, config, state, plan.model_copy(update={"backend": "template"}), targets, graph=graph)
    [job] = jobs
    assert job.instructions == {"shop.Cart": "cover the empty cart"}

"""action.yml and the workflows: no script injection, least privilege, and what the examples promise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

PROJECT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((PROJECT / ".github" / "workflows").rglob("*.yml"))
EXAMPLES = [path for path in WORKFLOWS if path.parent.name == "examples"]
ACTION_REF = "junitbot/junitbot@"


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    if True in data:  # YAML 1.1 reads the key `on` as a boolean
        data["on"] = data.pop(True)
    return data


def _steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    if "runs" in data:
        return list(data["runs"]["steps"])
    return [step for job in data["jobs"].values() for step in job.get("steps", [])]


def _uses_action(job: dict[str, Any]) -> bool:
    return _action_mode(job) is not None


def _action_mode(job: dict[str, Any]) -> str | None:
    """The junitbot step's `mode` (pr by default), or None for a job without one."""
    for step in job.get("steps", []):
        if str(step.get("uses", "")).startswith(ACTION_REF):
            return str(step.get("with", {}).get("mode", "pr"))
    return None


@pytest.mark.parametrize("path", [PROJECT / "action.yml", *WORKFLOWS], ids=lambda p: p.name)
def test_no_expression_is_expanded_inside_a_script(path: Path) -> None:
    """`${{ }}` in `run:` is pasted into the script before bash sees it (script injection); env: is safe."""
    scripts = [step["run"] for step in _steps(_load(path)) if "run" in step]
    assert scripts or path.name != "action.yml"
    for script in scripts:
        assert "${{" not in script, f"{path.name}: an expression inside run: {script[:80]!r}"


def test_the_action_declares_the_inputs_and_outputs_the_issue_names() -> None:
    action = _load(PROJECT / "action.yml")
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"github-token", "config", "backend", "model", "mode", "state-dir",
                                     "python-version", "cache", "maven-repository"}
    assert {"pr-url", "tests-generated", "classes", "coverage"} <= set(action["outputs"])
    steps = action["runs"]["steps"]
    assert any(step.get("uses", "").startswith("actions/cache@") for step in steps)
    assert any('"$GITHUB_ACTION_PATH/scripts/setup.sh"' in step.get("run", "") for step in steps)
    run = next(step for step in steps if step.get("id") == "run")
    assert "args=(ci " in run["run"] and '.venv/bin/junitbot" "${args[@]}"' in run["run"]
    assert run["env"]["GITHUB_TOKEN"] == "${{ inputs.github-token }}"
    passed = {value.removeprefix("${{ inputs.").removesuffix(" }}") for value in run["env"].values()}
    assert passed >= {"github-token", "config", "backend", "model", "mode", "state-dir", "maven-repository"}
    assert "-Dmaven.repo.local=" in run["run"]
    for name, output in action["outputs"].items():
        assert output["value"] == f"${{{{ steps.run.outputs.{name} }}}}"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflows_read_by_default_and_write_only_where_the_bot_publishes(path: Path) -> None:
    data = _load(path)
    assert data["permissions"] == {"contents": "read"}
    for name, job in data["jobs"].items():
        permissions = job.get("permissions", {})
        writes = {scope for scope, level in permissions.items() if level == "write"}
        if _action_mode(job) in ("pr", "commit"):
            assert writes == {"contents", "pull-requests"}, f"{path.name}:{name}"
        elif name == "publish":
            assert writes == {"pull-requests"} and not any("checkout" in s.get("uses", "") for s in job["steps"])
        else:
            assert writes == set(), f"{path.name}:{name} writes without publishing"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_run_on_the_gpu_runner_one_at_a_time_per_ref(path: Path) -> None:
    data = _load(path)
    for job in data["jobs"].values():
        if not _uses_action(job):
            continue
        assert {"self-hosted", "gpu"} <= set(job["runs-on"])
        assert "${{ github.ref }}" in job["concurrency"]["group"]
        for step in job["steps"]:
            if str(step.get("uses", "")).startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False  # the token never lands in .git/config


@pytest.mark.parametrize("path", [p for p in EXAMPLES if "issue_comment" in _load(p)["on"]], ids=lambda p: p.name)
def test_comment_workflows_never_check_out_the_pull_requests_code(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "github.event.pull_request" not in text and "refs/pull" not in text and "head_ref" not in text
    for step in _steps(_load(path)):
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert "ref" not in step.get("with", {}) and "repository" not in step.get("with", {})


def test_the_examples_cover_every_event_and_the_project_ci_runs_make_test() -> None:
    events = {event for path in EXAMPLES for event in _load(path)["on"]}
    assert {"push", "issue_comment", "schedule", "workflow_dispatch"} <= events
    dispatch = next(_load(p) for p in EXAMPLES if "workflow_dispatch" in _load(p)["on"])
    assert set(dispatch["on"]["workflow_dispatch"]["inputs"]) == {"mode", "classes"}
    ci = _load(PROJECT / ".github" / "workflows" / "ci.yml")
    assert any(step.get("run") == "make test" for step in _steps(ci))


def test_the_action_caches_mavens_local_repository_keyed_on_the_poms() -> None:
    """Dependencies and the pinned Java tools come from Maven Central once; restored read-only for untrusted runs."""
    steps = _load(PROJECT / "action.yml")["runs"]["steps"]
    maven = [s for s in steps if s.get("with", {}).get("path") == "${{ inputs.maven-repository }}"]
    assert {s["uses"].split("@")[0] for s in maven} == {"actions/cache", "actions/cache/restore"}
    for step in maven:
        assert "hashFiles('**/pom.xml')" in step["with"]["key"]
        assert step["if"] in ("inputs.cache == 'read-write'", "inputs.cache == 'read-only'")

"""A full pass in partitions: how targets split, what the ledger keeps, and a pass killed halfway that resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from junitbot.generation import GenerationResult, Target
from junitbot.runs import FullPass, PartitionOutcome, PassLedger, RunPlan, split_targets
from junitbot.state import StateDir
from tests.conftest import flow_only_yaml


def _target(fqn: str, module: str = "") -> Target:
    return Target(fqn=fqn, file=f"{module + '/' if module else ''}src/main/java/{fqn.replace('.', '/')}.java",
                  reason="full pass")


def _module(path: str) -> str:
    return path.split("/src/", 1)[0] if "/src/" in path else ""


def test_targets_split_by_module_then_package_batches_in_the_pass_order() -> None:
    targets = [_target("a.big.C1"), _target("a.big.C2"), _target("a.big.C3"), _target("a.big.C4"),
               _target("a.big.C5"), _target("a.one.D"), _target("a.two.E"), _target("b.F", "core"),
               _target("a.three.G")]
    partitions = split_targets(targets, _module, batch_size=2)

    assert [p.key for p in partitions] == ["./a.big#1", "./a.big#2", "./a.big#3+1", "./a.two+1", "core/b"]
    assert [[t.fqn for t in p.targets] for p in partitions] == [
        ["a.big.C1", "a.big.C2"], ["a.big.C3", "a.big.C4"], ["a.big.C5", "a.one.D"], ["a.two.E", "a.three.G"],
        ["b.F"]]
    assert all(len(p.targets) <= 2 for p in partitions)
    assert {p.module for p in partitions} == {"", "core"}
    assert sorted(t.fqn for p in partitions for t in p.targets) == sorted(t.fqn for t in targets)


def test_the_default_package_is_named_in_partition_keys() -> None:
    partitions = split_targets([_target("Main"), _target("Other")], _module, batch_size=1)
    assert [p.key for p in partitions] == ["./(default package)#1", "./(default package)#2"]


def _pass(targets: list[Target], head: str = "c0ffee", backend: str = "template") -> FullPass:
    plan = RunPlan.model_validate({"mode": "full", "head": head, "changed_paths": None, "backend": backend})
    return FullPass(plan=plan, partitions=split_targets(targets, _module, 1), batch_size=1)


def test_the_ledger_keeps_finished_partitions_whole_and_only_for_the_same_work(tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state").ensure()
    full_pass = _pass([_target("p.A"), _target("q.B")])
    ledger = PassLedger(state, "c0ffee")
    ledger.start(full_pass)
    empty = GenerationResult(candidates=(), validation=None)
    ledger.record(PartitionOutcome(key="./p", result=empty, seconds=1.5))
    (ledger.folder / "done" / "half-written.json").write_text('{"key": "./q", "resu')  # a killed writer's leftover

    assert ledger.plan() == full_pass
    assert set(ledger.finished()) == {"./p"}, "an unreadable record counts as not finished"
    assert full_pass.same_work(ledger.plan() or full_pass)
    assert not full_pass.same_work(_pass([_target("p.A"), _target("q.B"), _target("r.C")])), "other classes"
    assert not full_pass.same_work(_pass([_target("p.A"), _target("q.B")], head="beef")), "another commit"
    assert not full_pass.same_work(_pass([_target("p.A"), _target("q.B")], backend="openai")), "another backend"

    ledger.start(_pass([_target("r.C")]))
    assert ledger.finished() == {}, "a new pass forgets the partitions of the old one"
    ledger.close()
    assert not ledger.folder.exists()


SOURCES = {
    "src/main/java/shop/price/Price.java": """package shop.price;

public final class Price {
    private final long cents;

    public Price(long cents) {
        if (cents < 0) {
            throw new IllegalArgumentException("negative: " + cents);
        }
        this.cents = cents;
    }

    public Price plus(Price other) {
        return new Price(cents + other.cents);
    }

    public long cents() {
        return cents;
    }
}
""",
    "src/main/java/shop/price/Discount.java": """package shop.price;

public final class Discount {
    public static long apply(long cents, int percent) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percent: " + percent);
        }
        return cents - cents * percent / 100;
    }
}
""",
    "src/main/java/shop/text/Slug.java": """package shop.text;

public final class Slug {
    public static String of(String title) {
        return title.trim().toLowerCase().replace(' ', '-');
    }
}
""",
    # Two partitions of at most two classes; no embeddings, and only the run's flow, which the resume depends on.
    ".junitbot.yml": flow_only_yaml({"full_pass.batch_size": 2, "full_pass.workers": 2, "retrieval.enabled": False}),
}


def _run(root: Path, *flags: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "junitbot", "run", "--repo", str(root), "--full", "--json",
                             *flags], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def test_a_full_pass_killed_halfway_resumes_with_the_partitions_it_had_not_finished(
    make_java_repo: Callable[..., Path],
) -> None:
    root = make_java_repo(SOURCES)
    done = root / ".junitbot" / "full-pass"
    first = _run(root, "--direct")
    deadline = time.monotonic() + 600
    while not list(done.glob("*/done/*.json")) and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    records = list(done.glob("*/done/*.json"))
    assert len(records) == 1, f"killed after its first partition: {first.stderr.read() if first.stderr else ''!r}"
    assert not list((root / "src").rglob("*GeneratedTest.java")), "nothing reaches the work tree before the end"
    # Marked, so the report tells whether the resumed pass took the partition as recorded or generated it again.
    recorded = PartitionOutcome.model_validate_json(records[0].read_text())
    records[0].write_text(recorded.model_copy(update={"seconds": 10_000.0}).model_dump_json())

    second = _run(root, "--direct")
    out, err = second.communicate(timeout=900)
    assert second.returncode == 0, err.decode()[-3000:]
    report = json.loads(out)
    assert {r["target"] for r in report["results"]} == {"shop.price.Price", "shop.price.Discount", "shop.text.Slug"}
    assert report["seconds"]["partitions"] == 2
    assert report["seconds"]["partition_seconds"] >= 10_000, "the finished partition was not generated again"
    assert report["seconds"]["partition_seconds"] < 10_000 + 900
    kept = [r for r in report["results"] if r["status"] == "kept"]
    assert kept and all((root / r["test_path"]).is_file() for r in kept)
    assert not list(done.glob("*/plan.json")), "a finished pass closes its ledger"

"""A full pass in partitions on a real repository: classes per hour with 1 and 2 workers, and a pass killed halfway
then resumed (issue 27).

    .venv/bin/python bench/bench_full_pass.py --source /work/corpus/commons-lang [--classes 16] [--batch-size 4]
        [--workers 1 2] [--no-kill]

Each configuration starts from a fresh clone with its own state directory (so no run reuses another's caches;
Maven's local repository is shared), and runs `python -m junitbot run --full --max-classes N --dry-run --json`
through Dagster, as a user would. The graph is built once, alone (its seconds printed), and each clone starts with a
copy of it: on a repository of thousands of files indexing would otherwise be most of every configuration's time.
The kill test starts the same pass with the most workers, SIGKILLs its process group once half the partitions
are recorded in the ledger, then runs it again: printed are the partitions finished before the kill, the
partitions the resumed run generated, and its seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

_CONFIG = ("full_pass:\n  batch_size: {batch}\n  workers: {workers}\nretrieval:\n  enabled: false\n"
           "validation:\n  build_gate: false\n")


@dataclass
class Measured:
    label: str
    seconds: float
    classes: int
    kept: int
    partitions: int
    note: str = ""


def clone(source: Path, work: Path, name: str, batch: int, workers: int, *, graph_from: Path | None = None) -> Path:
    root = work / name
    subprocess.run(["git", "clone", "-q", str(source), str(root)], check=True)
    if graph_from is not None:  # the indexed state of the same commit: the run finds its graph up to date
        shutil.copytree(graph_from / ".junitbot", root / ".junitbot")
    (root / ".junitbot.yml").write_text(_CONFIG.format(batch=batch, workers=workers), encoding="utf-8")
    (root / ".git" / "info" / "exclude").write_text(".junitbot.yml\n.junitbot/\n", encoding="utf-8")
    return root


def junitbot(root: Path, *arguments: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "junitbot", *arguments, "--repo", str(root)], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def full_pass(root: Path, classes: int) -> subprocess.Popen[bytes]:
    return junitbot(root, "run", "--full", "--max-classes", str(classes), "--dry-run", "--json")


def finish(process: subprocess.Popen[bytes], label: str, started: float) -> Measured:
    out, err = process.communicate()
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        return Measured(label, seconds, 0, 0, 0, f"exit {process.returncode}: {err.decode()[-300:]}")
    report = json.loads(out)
    return Measured(label, seconds, report["targets"], sum(1 for r in report["results"] if r["status"] == "kept"),
                    int(report["seconds"].get("partitions", 0)))


def index_seconds(root: Path) -> float:
    started = time.perf_counter()
    process = junitbot(root, "index", "--graph-only")
    process.communicate()
    return time.perf_counter() - started


def killed_and_resumed(root: Path, classes: int) -> list[Measured]:
    ledger = root / ".junitbot" / "full-pass"
    started = time.perf_counter()
    process = full_pass(root, classes)
    plan = None
    while process.poll() is None:
        plans = list(ledger.glob("*/plan.json"))
        if plan is None and plans:
            plan = json.loads(plans[0].read_text())
        done = list(ledger.glob("*/done/*.json"))
        if plan is not None and len(done) * 2 >= len(plan["partitions"]):
            os.killpg(process.pid, signal.SIGKILL)
            break
        time.sleep(0.5)
    process.wait()
    killed_at = time.perf_counter() - started
    finished_before = len(list(ledger.glob("*/done/*.json")))
    total = len(plan["partitions"]) if plan else 0
    started = time.perf_counter()
    resumed = finish(full_pass(root, classes), "resumed", started)
    resumed.note = resumed.note or f"generated the {total - finished_before} partitions left"
    return [Measured("killed", killed_at, 0, 0, finished_before, f"{finished_before} of {total} partitions recorded"),
            resumed]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, required=True, help="a git checkout of a Maven repository")
    parser.add_argument("--classes", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-kill", action="store_true", help="leave out the kill-and-resume measurement")
    args = parser.parse_args(argv)
    console = Console(width=160)
    rows: list[Measured] = []
    with tempfile.TemporaryDirectory(prefix="bench-full-pass-") as work:
        base = clone(args.source, Path(work), "index-only", args.batch_size, 1)
        indexing = index_seconds(base)
        console.print(f"index alone: {indexing:.0f} s", highlight=False)
        for workers in args.workers:
            root = clone(args.source, Path(work), f"workers-{workers}", args.batch_size, workers, graph_from=base)
            console.print(f"full pass, {workers} worker(s) ...", highlight=False)
            rows.append(finish(full_pass(root, args.classes), f"{workers} worker(s)", time.perf_counter()))
        if not args.no_kill:
            root = clone(args.source, Path(work), "killed", args.batch_size, max(args.workers), graph_from=base)
            console.print("full pass killed halfway, then resumed ...", highlight=False)
            rows += killed_and_resumed(root, args.classes)
    table = Table(title=f"full pass of {args.source.name}: {args.classes} classes, batches of {args.batch_size}")
    for column in ("run", "seconds", "classes", "kept", "partitions", "classes per hour", "note"):
        table.add_column(column)
    for row in rows:
        per_hour = f"{row.classes * 3600 / max(1.0, row.seconds):.0f}" if row.classes else "–"
        table.add_row(row.label, f"{row.seconds:.0f}", str(row.classes), str(row.kept), str(row.partitions),
                      per_hour, row.note)
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

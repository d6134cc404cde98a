"""Overhead of running through Dagster against calling the domain packages directly.

    .venv/bin/python bench/bench_dagster.py [--repeat 3]

The example repository gets a first run (which also builds the graph, the embedding index and the compiled
classes), then one class changes in a commit. Copies of that state are run incrementally, alternately
through `junitbot.pipelines.execute.execute_run` (the Dagster job, recorded in the instance, checks
included) and through `run_pipeline` (the same steps called directly, the embedding update included). Both
load the embedding model for the changed chunks the same way.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junitbot.config import load_config
from junitbot.pipelines.execute import execute_run
from junitbot.runs import RunRequest, run_pipeline
from junitbot.state import StateDir

PROJECT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
       "GIT_COMMITTER_EMAIL": "b@b"}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=ENV)


def prepare(work: Path) -> Path:
    root = work / "base"
    shutil.copytree(PROJECT / "examples" / "shop", root,
                    ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "A")
    config = load_config(root, environ={})
    print("first run (full, through Dagster) ...", file=sys.stderr, flush=True)
    execute_run(root, config, StateDir.for_repo(root, config), RunRequest())
    tier = root / "src/main/java/com/acme/shop/domain/CustomerTier.java"
    tier.write_text(tier.read_text().replace("public int discountPercent() {",
                                             "public boolean isEntry() {\n        return ordinal() == 0;\n    }\n\n"
                                             "    public int discountPercent() {"))
    git(root, "commit", "-qam", "one class changes")
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-dagster-"))
    try:
        base = prepare(work)
        timings: dict[str, list[float]] = {"dagster": [], "direct": []}
        targets = {}
        for i in range(args.repeat):
            for way in ("direct", "dagster"):
                root = work / f"{way}-{i}"
                shutil.copytree(base, root, symlinks=True)
                config = load_config(root, environ={})
                state = StateDir.for_repo(root, config)
                tick = time.perf_counter()
                if way == "dagster":
                    report, _ = execute_run(root, config, state, RunRequest())
                else:
                    report = run_pipeline(root, config, state, RunRequest())
                timings[way].append(time.perf_counter() - tick)
                targets[way] = sorted(r.target.rsplit(".", 1)[-1] for r in report.results)
                print(f"{way} run {i + 1}: {timings[way][-1]:.2f} s", file=sys.stderr, flush=True)
        direct, dagster = statistics.median(timings["direct"]), statistics.median(timings["dagster"])
        print("# Dagster overhead, incremental run of one changed class (examples/shop)\n")
        print(f"targets (both ways): {', '.join(targets['dagster'])}" + (
            "" if targets["dagster"] == targets["direct"] else f" / direct: {', '.join(targets['direct'])}"))
        print("\n| way | median s | runs |\n|---|---:|---|")
        for way, values in timings.items():
            print(f"| {way} | {statistics.median(values):.2f} | {', '.join(f'{v:.2f}' for v in values)} |")
        print(f"\nthrough Dagster / direct = **{dagster / direct:.2f}** (+{dagster - direct:.2f} s: instance, "
              "event log, IO manager pickles, and the three asset checks, which re-run the kept tests once)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

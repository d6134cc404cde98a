"""Benchmark of the no-model generator: share of testable classes with kept tests, coverage, time per class.

Runs `junitbot run --full` (template backend, dry run) on a copy of the bundled example and on a generated
repository, and prints the figures beside the targets of the generator's issue. Exit code 0 always.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import git
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate_repo import generate_repo  # bench/ is not a package

from junitbot.config import load_config  # after the path set-up above
from junitbot.runs import RunReport, RunRequest, run_pipeline
from junitbot.state import StateDir

PROJECT = Path(__file__).resolve().parent.parent
UNTESTABLE = ("interface", "abstract", "annotation", "no public behaviour", "inner class", "only private")


def replicated_shop(root: Path, copies: int) -> None:
    """A larger repository that compiles: the example's main sources, once per package `com.acme.shopN`."""
    source = PROJECT / "examples" / "shop" / "src" / "main" / "java" / "com" / "acme" / "shop"
    for copy in range(copies):
        for path in source.rglob("*.java"):
            target = root / "src" / "main" / "java" / "com" / "acme" / f"shop{copy}" / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text().replace("com.acme.shop", f"com.acme.shop{copy}"))


def measure(root: Path) -> tuple[RunReport, float]:
    repo = git.Repo.init(root)
    with repo.config_writer() as writer:
        writer.set_value("user", "name", "bench").set_value("user", "email", "bench@example.com")
    repo.git.add("-A")
    repo.git.commit("-qm", "bench")
    config = load_config(root, environ={})
    started = time.perf_counter()
    report = run_pipeline(root, config, StateDir(root / ".junitbot"), RunRequest(full=True, dry_run=True))
    return report, time.perf_counter() - started


def row(name: str, report: RunReport, seconds: float) -> list[str]:
    testable = [r for r in report.results if not (r.status == "skipped" and r.reason.startswith(UNTESTABLE))]
    kept = [r for r in testable if r.status == "kept"]
    lines = [r.line_coverage for r in kept if r.line_coverage is not None]
    branches = [r.branch_coverage for r in kept if r.branch_coverage is not None]
    share = len(kept) / len(testable) if testable else 0.0
    line_mean = sum(lines) / len(lines) if lines else 0.0
    branch_mean = sum(branches) / len(branches) if branches else 0.0
    per_class = seconds / max(len(testable), 1)
    return [name, f"{len(report.results)}", f"{len(testable)}", f"{len(kept)} ({share:.0%})",
            f"{line_mean:.0%}", f"{branch_mean:.0%}", f"{seconds:.1f} s", f"{per_class:.2f} s"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    # bench/generate_repo.py writes code for parsing benchmarks; most of it does not compile, so it is off.
    parser.add_argument("--files", type=int, default=0, help="also a generated repository of N files")
    parser.add_argument("--copies", type=int, default=4, help="also the example's sources N times (0: skip)")
    args = parser.parse_args()
    console = Console(width=160)
    table = Table(title="template backend: junitbot run --full (dry run)")
    for column in ("repository", "classes", "testable", "kept", "mean line cov.", "mean branch cov.", "time",
                   "per testable class"):
        table.add_column(column)
    with tempfile.TemporaryDirectory() as scratch:
        shop = Path(scratch) / "shop"
        ignore = shutil.ignore_patterns(".junitbot", "*GeneratedTest.java")
        shutil.copytree(PROJECT / "examples" / "shop", shop, ignore=ignore)
        table.add_row(*row("examples/shop", *measure(shop)))
        if args.copies:
            larger = Path(scratch) / "replicated"
            replicated_shop(larger, args.copies)
            table.add_row(*row(f"example × {args.copies} packages", *measure(larger)))
        if args.files:
            generated = Path(scratch) / "generated"
            generate_repo(generated, args.files, seed=1)
            table.add_row(*row(f"generated ({args.files} files)", *measure(generated)))
    console.print(table)
    console.print("targets: ≥ 95% of testable classes kept; line coverage ≥ 80%, branch ≥ 60%; ≤ 2 s per class")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

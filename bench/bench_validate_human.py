"""Benchmark of the gate on tests a person wrote: `junitbot validate` over a real repository's own test suite.

Every test file of the repository (git-tracked `*.java` under `src/test/java`, all passing in its own build) goes
through `junitbot validate --json`, as a user would run it, on a fresh clone with the Maven classpath. A right
gate keeps them: issue 18's target is ≥ 99 % of methods kept and no file rejected by a static pass. Printed per
repository: files, files lost whole (and those by a static pass), methods kept of all, why the others were
dropped (counted by reason), static findings by severity, seconds. Mutation analysis is off (it measures, it
does not judge). Exit code 0 always.

    python bench/bench_validate_human.py --corpus /work/corpus [--repos commons-text joda-money]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import git
from rich.console import Console
from rich.table import Table

TARGET = 0.99


def measure(source: Path, work: Path) -> tuple[dict, float]:
    """`junitbot validate --json` over the repository's own tests on a fresh clone; (report, seconds)."""
    root = work / source.name
    git.Repo.clone_from(str(source), str(root)).close()
    (root / ".junitbot.yml").write_text("validation:\n  mutation: false\n  class_timeout_s: 60\n", encoding="utf-8")
    files = sorted(f for f in git.Repo(root).git.ls_files("src/test/java").splitlines()
                   if f.endswith(".java") and not f.endswith(("package-info.java", "module-info.java")))
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "junitbot", "validate", "--json", "--repo", str(root), *files],
                         cwd=root, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        raise SystemExit(f"{source.name}: junitbot validate exited {run.returncode}\n{run.stderr[-3000:]}")
    return json.loads(run.stdout), seconds


def _reason(text: str | None) -> str:
    """A drop reason without the parts that differ per method (names, numbers, quoted values)."""
    first = (text or "no reason").splitlines()[0]
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "…", first))[:110]


def summarize(name: str, report: dict, seconds: float, console: Console) -> None:
    # A file without test methods (a helper, a benchmark) has nothing to run: javac compiles it for the tests
    # that use it (the source path); it is counted apart.
    support = [v for v in report["verdicts"] if not v["methods"]]
    verdicts = [v for v in report["verdicts"] if v["methods"]]
    methods = [m for v in verdicts for m in v["methods"]]
    kept = sum(m["kept"] for m in methods)
    lost = [v for v in verdicts if not any(m["kept"] for m in v["methods"])]
    static_rejected = [v for v in verdicts if not v["compiled"] and any(
        i["severity"] == "ERROR" and i["pass_name"] not in ("javac", "input") for i in v["issues"])]
    table = Table(title=f"{name}: junitbot validate on its own tests")
    table.add_column("measure")
    table.add_column("value", justify="right")
    share = kept / len(methods) if methods else 0.0
    table.add_row("test files (with test methods)", str(len(verdicts)))
    table.add_row("files without test methods (helpers)", str(len(support)))
    table.add_row("files lost whole", str(len(lost)))
    table.add_row("files rejected by a static pass", str(len(static_rejected)))
    table.add_row("methods kept", f"{kept} / {len(methods)} ({share:.1%}; target ≥ {TARGET:.0%})")
    severities = Counter(i["severity"] for v in verdicts for i in v["issues"] if i["pass_name"] != "javac")
    table.add_row("static and review findings", ", ".join(f"{n} {s}" for s, n in severities.most_common()) or "none")
    table.add_row("seconds", f"{seconds:.0f}")
    console.print(table)
    reasons = Counter(_reason(m["reason"]) for m in methods if not m["kept"])
    if reasons:
        why = Table(title=f"{name}: why methods were dropped")
        why.add_column("methods", justify="right")
        why.add_column("reason", overflow="fold")
        for reason, count in reasons.most_common(15):
            why.add_row(str(count), reason)
        console.print(why)
    for verdict in lost:
        why = _reason(verdict["methods"][0]["reason"])
        console.print(f"  lost: {verdict['path']} — {why}", highlight=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus"), help="folder of local clones")
    parser.add_argument("--repos", nargs="+", default=["commons-text", "joda-money"])
    parser.add_argument("--json-dir", type=Path, help="also write each repository's validate report here")
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory(prefix="bench-validate-") as tmp:
        for name in args.repos:
            source = args.corpus / name
            if not (source / ".git").is_dir():
                console.print(f"[yellow]{name}: no clone at {source} (fetch it first)[/]")
                continue
            report, seconds = measure(source, Path(tmp))
            if args.json_dir is not None:
                args.json_dir.mkdir(parents=True, exist_ok=True)
                (args.json_dir / f"{name}.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
            summarize(name, report, seconds, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())

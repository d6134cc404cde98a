"""Benchmark of robustness on a fleet of real Java repositories: every command, as a user runs it (issue 27).

EvoSuite was judged on SF110 (110 projects); junitbot on the repositories listed in `bench/fleet.json`, chosen to
differ: libraries and Spring Boot services, multi-module and Gradle builds, Lombok, mixed Kotlin, Java 8 to 21,
generated sources, trees of thousands of files, unusual layouts. Each goes, on a fresh clone, through `index`,
`search`, `impact` and `context` (on its most depended-upon class), `run --full --max-classes 5` (template backend,
dry run) and `validate` on five of its own test files, each as `python -m junitbot ... --json` in its own process.

Printed: per repository and command, the exit code, seconds and the junitbot process's peak memory (Java and
Maven children apart); each run's classes with their outcome or stated reason, the reasons tallied; and the
count of tracebacks and exits with 3 (both must be 0). A JSON copy goes to `--out`. Exit code 0 always.

    python bench/bench_fleet.py [--mirror /work/.mirror] [--repos commons-text joda-money] [--skip run validate]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import git
from rich.console import Console
from rich.table import Table

FLEET = Path(__file__).with_name("fleet.json")
COMMANDS = ("index", "search", "impact", "context", "run", "validate")
TIMEOUT_S = {"index": 1800, "search": 600, "impact": 300, "context": 300, "run": 2400, "validate": 1200}
_CONFIG = "validation:\n  build_gate: false\n  class_timeout_s: 60\ngeneration:\n  llm:\n    backend: template\n"


@dataclass
class Step:
    """One command on one repository."""

    command: str
    rc: int | None = None
    seconds: float = 0.0
    peak_mb: float = 0.0
    traceback: bool = False
    note: str = ""


@dataclass
class Outcome:
    """One repository's steps and the classes its run reported."""

    repo: str
    files: int = 0
    steps: list[Step] = field(default_factory=list)
    classes: list[tuple[str, str, str]] = field(default_factory=list)  # (class, status, reason)


def run_command(root: Path, command: str, *arguments: str) -> tuple[Step, str]:
    """`python -m junitbot COMMAND --repo ROOT --json ARGS`, its peak memory read from its own rusage."""
    argv = [sys.executable, "-m", "junitbot", command, "--repo", str(root), "--json", *arguments]
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(argv, cwd=root, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = started + TIMEOUT_S[command]
        status, usage = 0, None
        while usage is None:
            pid, status, rusage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                usage = rusage
            elif time.perf_counter() > deadline:
                process.kill()
            else:
                time.sleep(0.2)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    seconds = time.perf_counter() - started
    timed_out = seconds > TIMEOUT_S[command]
    step = Step(command=command, rc=124 if timed_out else process.returncode, seconds=round(seconds, 1),
                peak_mb=round(usage.ru_maxrss / 1024, 1), traceback="Traceback (most recent call last)" in stderr,
                note="timed out" if timed_out else _last_error(stderr))
    return step, stdout


def _last_error(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("error:", "ERROR"))]
    return (errors or lines or [""])[-1][:160]


def measure(repo: str, mirror: Path, work: Path, skip: set[str]) -> Outcome:
    """Every command of the fleet benchmark on a fresh clone of `repo` (owner/name) from `mirror`."""
    source = mirror / repo.replace("/", "+") / "repo"
    outcome = Outcome(repo=repo)
    if not source.exists():
        outcome.steps.append(Step(command="clone", note=f"no mirror at {source}: fetch {repo} first"))
        return outcome
    root = work / repo.replace("/", "+")
    missing = clone_present(source, root)
    if missing:
        outcome.steps.append(Step(command="clone", rc=0, note=f"{len(missing)} large files absent from the mirror"))
    (root / ".junitbot.yml").write_text(_CONFIG, encoding="utf-8")
    step, out = run_command(root, "index", "--graph-only" if "embeddings" in skip else "--full")
    outcome.steps.append(step)
    graph = _graph(root)
    outcome.files = len({n["file"] for n in graph.get("nodes", ())})
    central, tests = _central_class(graph), _test_files(graph)
    if "search" not in skip and central:
        outcome.steps.append(run_command(root, "search", central.rsplit(".", 1)[-1])[0])
    for command in ("impact", "context"):
        if command not in skip and central:
            outcome.steps.append(run_command(root, command, central)[0])
    if "run" not in skip:
        step, out = run_command(root, "run", "--full", "--max-classes", "5", "--dry-run", "--direct")
        outcome.steps.append(step)
        outcome.classes = _classes(out)
    if "validate" not in skip and tests:
        outcome.steps.append(run_command(root, "validate", *tests[:5])[0])
    return outcome


def clone_present(source: Path, root: Path) -> list[str]:
    """Clone `source` into `root` with every file the mirror holds (a fetched snapshot may lack its largest
    blobs); returns the paths left out, which a sparse checkout keeps out of `git status`."""
    git.Repo.clone_from(str(source), str(root), no_checkout=True).close()
    repo = git.Repo(root)
    entries = [line.split(maxsplit=3) for line in repo.git.ls_tree("-r", "HEAD").splitlines()]
    blobs = [(sha, path) for _, kind, sha, path in entries if kind == "blob"]
    checked = subprocess.run(["git", "cat-file", "--batch-check"], cwd=root, capture_output=True, text=True,
                             input="".join(f"{sha}\n" for sha, _ in blobs), check=True).stdout
    absent = {line.split()[0] for line in checked.splitlines() if line.endswith(" missing")}
    missing = [path for sha, path in blobs if sha in absent]
    if missing:
        repo.git.sparse_checkout("set", "--no-cone", "/*", *(f"!/{path}" for path in missing))
    repo.git.checkout(repo.active_branch.name)
    repo.close()
    return missing


def _graph(root: Path) -> dict:  # type: ignore[type-arg]  # the graph export's JSON
    export = root / ".junitbot" / "fleet-graph.json"
    done = subprocess.run([sys.executable, "-m", "junitbot", "graph", "--repo", str(root), "--format", "json",
                           "--output", str(export)], capture_output=True, text=True, check=False, timeout=900)
    return json.loads(export.read_text()) if done.returncode == 0 and export.is_file() else {}


def _central_class(graph: dict) -> str | None:  # type: ignore[type-arg]
    """The main class most other classes depend on."""
    main = {n["fqn"] for n in graph.get("nodes", ()) if not n["is_test"] and n["outer"] is None}
    users = Counter(e["target"] for e in graph.get("edges", ()) if e["target"] in main and e["source"] != e["target"])
    return users.most_common(1)[0][0] if users else next(iter(sorted(main)), None)


def _test_files(graph: dict) -> list[str]:  # type: ignore[type-arg]
    """Five of the repository's own test files (`FooTest`, `FooTests`, `TestFoo`), spread over the tree."""
    stems = {n["file"]: Path(n["file"]).stem for n in graph.get("nodes", ()) if n["is_test"]}
    files = sorted(f for f, stem in stems.items() if stem.endswith(("Test", "Tests")) or stem.startswith("Test"))
    step = max(1, len(files) // 5)
    return files[::step][:5]


def _classes(out: str) -> list[tuple[str, str, str]]:
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        return []
    return [(r["target"], r["status"], r.get("reason") or "") for r in report.get("results", ())]


def _reason(text: str) -> str:
    """A reason without what differs per class (names, numbers, quoted values)."""
    first = text.splitlines()[0] if text else "no reason"
    first = re.sub(r"\(symbol: [^)]*\)|'[^']*'|\"[^\"]*\"|`[^`]*`", "…", first)
    return re.sub(r"\d+", "N", first.split(":")[0])[:90]


def report(outcomes: list[Outcome], console: Console) -> None:
    table = Table(title="junitbot on the fleet: exit code / seconds / peak MB per command")
    table.add_column("repository")
    table.add_column("files", justify="right")
    for command in COMMANDS:
        table.add_column(command, justify="right")
    table.add_column("classes (kept/run)", justify="right")
    for outcome in outcomes:
        cells = {s.command: f"{s.rc} / {s.seconds:.0f} / {s.peak_mb:.0f}" for s in outcome.steps}
        kept = sum(1 for _, status, _ in outcome.classes if status == "kept")
        table.add_row(outcome.repo, str(outcome.files), *(cells.get(c, "–") for c in COMMANDS),
                      f"{kept}/{len(outcome.classes)}")
    console.print(table)
    steps = [s for o in outcomes for s in o.steps]
    crashes = [(o.repo, s.command) for o in outcomes for s in o.steps if s.rc == 3 or s.traceback]
    console.print(f"tracebacks or exits with 3: {len(crashes)} {crashes if crashes else ''}", highlight=False)
    failing = [(o.repo, s.command, s.rc, s.note) for o in outcomes for s in o.steps if s.rc not in (0, None)]
    for repo, command, rc, note in failing:
        console.print(f"  {repo} {command}: exit {rc}: {note}", highlight=False)
    classes = [c for o in outcomes for c in o.classes]
    unexplained = [c for c in classes if c[1] != "kept" and not c[2]]
    console.print(f"classes: {len(classes)}, kept {sum(1 for c in classes if c[1] == 'kept')}, "
                  f"with no stated reason {len(unexplained)}; commands run {len(steps)}", highlight=False)
    for reason, count in Counter(_reason(c[2]) for c in classes if c[1] != "kept").most_common(15):
        console.print(f"  {count:3d}  {reason}", highlight=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"), help="where fetched repositories lie")
    parser.add_argument("--repos", nargs="*", help="names (or owner/name) of fleet.json to run; default: all")
    parser.add_argument("--skip", nargs="*", default=[], choices=[*COMMANDS, "embeddings"],
                        help="commands to leave out ('embeddings': index the graph only)")
    parser.add_argument("--out", type=Path, help="write the outcomes as JSON here too")
    args = parser.parse_args(argv)
    fleet = [r["repo"] for r in json.loads(FLEET.read_text())["repositories"]]
    chosen = [r for r in fleet if not args.repos or r in args.repos or r.split("/")[1] in args.repos]
    console = Console(width=200)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="bench-fleet-") as work:
        for repo in chosen:
            console.print(f"[bold]{repo}[/]", highlight=False)
            outcomes.append(measure(repo, args.mirror, Path(work), set(args.skip)))
            if args.out:
                args.out.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    report(outcomes, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())

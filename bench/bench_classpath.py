"""Benchmark of classpath discovery per Maven module: cold (online, empty local repository), offline, cached.

    .venv/bin/python bench/bench_classpath.py [REPO ...] [--keep]

For each Maven repository (default: the bundled examples that have a pom), on a copy in a temporary folder,
with a new, empty Maven local repository and a new state directory, measures in one run through
`discover_classpaths`:

1. cold: the first discovery — Maven resolves every dependency and plugin online into the empty local
   repository and compiles the modules' main code (the pinned Maven 3.9 itself is fetched beforehand and
   timed apart);
2. offline: after an edit to one main source file, discovery again — Maven runs offline (`-o`);
3. cached: discovery with nothing changed — no Maven runs at all.

Prints per repository the modules found, their releases, the seconds of each step, the ratios cold/cached
and offline/cached, and what Maven downloaded (files and MB in the local repository). Progress goes to
stderr, the report to stdout.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.table import Table

from junitbot.config import ValidationSettings
from junitbot.state import StateDir
from junitbot.validation import ProjectClasspath, discover_classpaths, ensure_tool

PROJECT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def timed(action: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    value = action()
    return time.perf_counter() - start, value


@dataclass
class Figures:
    repo: str
    modules: str
    tool_fetch: float
    cold: ProjectClasspath
    cold_s: float
    offline: ProjectClasspath
    offline_s: float
    cached: ProjectClasspath
    cached_s: float
    files: int
    megabytes: float


def _first_main_source(root: Path) -> Path:
    for path in sorted(root.rglob("src/main/java/**/*.java")):
        if "target" not in path.parts:
            return path
    raise SystemExit(f"no main Java source under {root}")


def measure(source: Path, scratch: Path) -> Figures:
    root = scratch / source.name
    shutil.copytree(source, root, ignore=shutil.ignore_patterns(".junitbot", "target", ".git"))
    local = scratch / f"m2-{source.name}"
    settings = ValidationSettings(maven_repo_local=local)
    state = StateDir(scratch / f"state-{source.name}")
    log(f"{source.name}: fetching the pinned Maven into an empty local repository")
    tool_fetch, _ = timed(lambda: ensure_tool("maven", tools_dir=state.tools, settings=settings))
    before = _files(local)
    log(f"{source.name}: cold discovery (online)")
    cold_s, cold = timed(lambda: discover_classpaths(root, settings, state=state))
    after = _files(local)
    edited = _first_main_source(root)
    edited.write_text(edited.read_text(encoding="utf-8") + "\n// edited by the benchmark\n", encoding="utf-8")
    log(f"{source.name}: discovery after an edit (offline)")
    offline_s, offline = timed(lambda: discover_classpaths(root, settings, state=state))
    log(f"{source.name}: discovery with nothing changed (cached)")
    cached_s, cached = timed(lambda: discover_classpaths(root, settings, state=state))
    modules = ", ".join(f"{m.module or '.'} (release {m.release or '?'}, {len(m.entries)} entries)"
                        for m in cold.modules)
    return Figures(repo=source.name, modules=modules, tool_fetch=tool_fetch, cold=cold, cold_s=cold_s,
                   offline=offline, offline_s=offline_s, cached=cached, cached_s=cached_s,
                   files=len(after - before), megabytes=sum(p.stat().st_size for p in after - before) / 1e6)


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()} if folder.is_dir() else set()


def report(figures: list[Figures]) -> None:
    console = Console(width=220)
    table = Table(title="Classpath discovery per Maven module: cold vs offline vs cached")
    for column in ("repository", "modules", "Maven fetch s", "cold s (how)", "offline s (how)", "cached s (how)",
                   "cold/cached", "offline/cached", "downloaded"):
        table.add_column(column, overflow="fold")
    for f in figures:
        table.add_row(
            f.repo, f.modules, f"{f.tool_fetch:.1f}", f"{f.cold_s:.2f} ({f.cold.resolution}, {f.cold.source})",
            f"{f.offline_s:.2f} ({f.offline.resolution})", f"{f.cached_s:.3f} ({f.cached.resolution})",
            f"{f.cold_s / f.cached_s:,.0f}x", f"{f.offline_s / f.cached_s:,.0f}x",
            f"{f.files} files, {f.megabytes:.1f} MB")
    console.print(table)
    for f in figures:
        for note in f.cold.notes:
            console.print(f"[dim]{f.repo}: {note}[/dim]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="*", type=Path, help="Maven repositories (default: the bundled examples)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    repos = args.repos or sorted(p.parent for p in (PROJECT / "examples").glob("*/pom.xml"))
    scratch = Path(tempfile.mkdtemp(prefix="bench-classpath-"))
    try:
        report([measure(repo.resolve(), scratch) for repo in repos])
    finally:
        if args.keep:
            log(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

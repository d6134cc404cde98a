"""Benchmark of the code graph on a generated repository: parse vs extraction, full vs incremental, memory.

    .venv/bin/python bench/bench_graph.py [--files 5000] [--classes-for-memory 10000] [--seed 0]

Prints a report (see bench/README.md for what each figure means) and exits 0 whatever the figures are.
Progress goes to stderr, the report to stdout.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate_repo import Plan, Spec, plan_repo, write_plan

from junitbot.analysis.extract import extract_file
from junitbot.analysis.impact import DependencyAnalyzer
from junitbot.analysis.indexer import update_graph
from junitbot.analysis.models import IndexSummary
from junitbot.analysis.parser import capture_nodes, parse_java
from junitbot.analysis.sources import is_test_path
from junitbot.config import load_config
from junitbot.state import StateDir

TARGET_EXTRACTION_RATIO = 1.0  # (extract - parse) / parse
TARGET_INCREMENTAL_PERCENT = 2.0  # incremental / full, in %
TARGET_RSS_MB = 500.0  # MB = 10^6 bytes
MB = 1_000_000


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def git(root: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false",
               "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false", *args]
    return subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout


def commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def _proc_status(field_name: str) -> int:
    """A `kB` field of /proc/self/status in bytes (0 where there is no /proc)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def current_rss_bytes() -> int:
    return _proc_status("VmRSS")


def hwm_rss_bytes() -> int:
    """Peak RSS of this process image since exec (VmHWM); unlike ru_maxrss it is not inherited from the parent."""
    return _proc_status("VmHWM")


# -- report ------------------------------------------------------------------------------------------------


@dataclass
class Report:
    """Tables in the order they were added: (title, header, rows); verdict columns get colours."""

    blocks: list[tuple[str, list[str], list[list[str]]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def section(self, title: str, rows: list[tuple[str, str, str, str]]) -> None:
        self.blocks.append((title, ["figure", "measured", "target", "verdict / note"], [list(r) for r in rows]))

    def table(self, title: str, header: list[str], rows: list[list[str]]) -> None:
        self.blocks.append((title, header, rows))

    def print(self) -> None:
        try:
            from rich.console import Console
            from rich.table import Table
        except ImportError:  # plain text
            for title, header, rows in self.blocks:
                print(f"\n== {title}")
                print("  " + " | ".join(header))
                for row in rows:
                    print("  " + " | ".join(row))
            for note in self.notes:
                print(note)
            return
        console = Console(width=140, soft_wrap=False)
        for title, header, rows in self.blocks:
            table = Table(title=title, title_justify="left")
            for i, name in enumerate(header):
                table.add_column(name, justify="left" if i == 0 or name in ("target", "verdict / note") else "right")
            for row in rows:
                styled = [f"[bold green]{c}[/]" if c == "PASS" else f"[bold red]{c}[/]" if c == "FAIL" else c
                          for c in row]
                table.add_row(*styled)
            console.print(table)
        for note in self.notes:
            console.print(note, highlight=False, markup=False)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# -- a. parse vs extraction -----------------------------------------------------------------------------


def measure_extraction(root: Path, paths: Sequence[str], report: Report, *, profile: str,
                       profile_files: int) -> None:
    sources = [(p, (root / p).read_bytes(), is_test_path(p)) for p in paths]
    total_mb = sum(len(data) for _, data, _ in sources) / MB
    lines = sum(data.count(b"\n") for _, data, _ in sources)
    log(f"a. parse vs extraction over {len(sources)} files ({total_mb:.1f} MB, {lines:,} lines)")
    # Indexing extracts declarations and usages only (members=False); full ClassInfo (members=True) is
    # built on demand for the classes generation asks about, and is timed separately below.
    extract_file(sources[0][1], sources[0][0])  # warm up: compile the queries, create the parser

    # Interleaved per chunk and best-of-N per chunk, so that a burst of load from other processes hits
    # parse and extraction alike and is then discarded: totals are sums of per-chunk minimums.
    chunk = 200
    best: dict[str, list[float]] = {"parse": [], "query": [], "extract": []}
    for offset in range(0, len(sources), chunk):
        part = sources[offset:offset + chunk]
        times = {"parse": float("inf"), "query": float("inf"), "extract": float("inf")}
        for _ in range(3):
            start = time.perf_counter()
            for _, data, _ in part:
                parse_java(data)
            middle = time.perf_counter()
            for _, data, _ in part:
                capture_nodes(parse_java(data))
            end = time.perf_counter()
            for path, data, is_test in part:
                extract_file(data, path, is_test=is_test, members=False)
            times["parse"] = min(times["parse"], middle - start)
            times["query"] = min(times["query"], end - middle)
            times["extract"] = min(times["extract"], time.perf_counter() - end)
        for key, value in times.items():
            best[key].append(value)
    parse_s, query_s, extract_s = (sum(best[k]) for k in ("parse", "query", "extract"))
    # As update_graph(full=True) does: every FileFacts stays alive until the end, so the heap grows and
    # the cyclic GC's full collections get slower as it does.
    gc.collect()
    rss_before = current_rss_bytes()
    start = time.perf_counter()
    kept = [extract_file(data, path, is_test=is_test, members=False) for path, data, is_test in sources]
    kept_s = time.perf_counter() - start
    kept_mb = (current_rss_bytes() - rss_before) / MB
    del kept
    gc.collect()
    start = time.perf_counter()
    for path, data, is_test in sources:
        extract_file(data, path, is_test=is_test, members=True)
    members_s = time.perf_counter() - start
    extraction_cost = extract_s - parse_s
    ratio = extraction_cost / parse_s
    report.section("a. parse vs extraction (same files; per 200-file chunk, best of 3 interleaved runs)", [
        ("files / MB / lines", f"{len(sources)} / {total_mb:.1f} / {lines:,}", "", ""),
        ("bare tree-sitter parse (parse_java)", f"{parse_s:.2f} s", "", f"{total_mb / parse_s:.1f} MB/s"),
        ("parse + query captures (capture_nodes)", f"{query_s:.2f} s", "", f"{total_mb / query_s:.1f} MB/s"),
        ("extract_file for the graph (parse included)", f"{extract_s:.2f} s", "", f"{total_mb / extract_s:.1f} MB/s"),
        ("  of which query captures (parse+query - parse)", f"{query_s - parse_s:.2f} s", "",
         f"{(query_s - parse_s) / parse_s:.2f}x parse"),
        ("  of which Python walk + models (extract - parse+query)", f"{extract_s - query_s:.2f} s", "",
         f"{(extract_s - query_s) / parse_s:.2f}x parse"),
        ("extract_file keeping every result alive (as the full build)", f"{kept_s:.2f} s", "",
         f"{kept_s / extract_s:.2f}x the loop above"),
        ("  RSS held by the kept FileFacts", f"{kept_mb:.0f} MB", "", f"{kept_mb * 1e3 / len(sources):.0f} kB/file"),
        ("full ClassInfo, members=True (on demand, not at indexing)", f"{members_s:.2f} s", "",
         f"{members_s / parse_s:.2f}x parse"),
        ("per file: parse / extract", f"{parse_s / len(sources) * 1e3:.2f} / {extract_s / len(sources) * 1e3:.2f} ms",
         "", ""),
        ("extraction_cost / parse_cost = (extract - parse) / parse", f"{ratio:.2f}",
         f"<= {TARGET_EXTRACTION_RATIO:.1f}", verdict(ratio <= TARGET_EXTRACTION_RATIO)),
        ("extract_total / parse_total", f"{extract_s / parse_s:.2f}", f"<= {1 + TARGET_EXTRACTION_RATIO:.1f}",
         verdict(extract_s / parse_s <= 1 + TARGET_EXTRACTION_RATIO)),
    ])
    if profile == "always" or (profile == "auto" and ratio > TARGET_EXTRACTION_RATIO):
        profile_extraction(sources[:profile_files], report)


def profile_extraction(sources: Sequence[tuple[str, bytes, bool]], report: Report, top: int = 18) -> None:
    log(f"a. profiling extract_file over {len(sources)} files with cProfile")
    profiler = cProfile.Profile()
    profiler.enable()
    for path, data, is_test in sources:
        extract_file(data, path, is_test=is_test, members=False)
    profiler.disable()
    stats = pstats.Stats(profiler)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for (_, _, tt, _, _) in raw.values())

    def label(key: tuple[str, int, str]) -> str:
        filename, line, name = key
        if filename == "~":
            return name
        short = filename.split("site-packages/")[-1].split("/work/main/")[-1]
        return f"{short}:{line}({name})"

    by_tottime = sorted(raw.items(), key=lambda item: item[1][2], reverse=True)[:top]
    rows = [[label(k), f"{nc:,}", f"{tt:.3f}", f"{tt / total:.0%}", f"{ct:.3f}"]
            for k, (_, nc, tt, ct, _) in by_tottime]
    report.table(f"cProfile of extract_file over {len(sources)} files: top {top} by own time "
                 f"(profiled total {total:.2f} s; profiler overhead inflates Python-heavy calls)",
                 ["function", "calls", "own s", "own %", "cumulative s"], rows)
    areas: dict[str, float] = {}
    for key, (_, _, tt, _, _) in raw.items():
        areas[_area(key)] = areas.get(_area(key), 0.0) + tt
    rows = [[area, f"{tt:.3f}", f"{tt / total:.0%}"] for area, tt in sorted(areas.items(), key=lambda a: -a[1])]
    report.table("cProfile: own time by area", ["area", "own s", "share"], rows)
    ours = [(k, v) for k, v in raw.items() if "junitbot" in k[0]]
    by_cum = sorted(ours, key=lambda item: item[1][3], reverse=True)[:12]
    rows = [[label(k), f"{nc:,}", f"{tt:.3f}", f"{ct:.3f}", f"{ct / total:.0%}"] for k, (_, nc, tt, ct, _) in by_cum]
    report.table("cProfile: junitbot functions by cumulative time",
                 ["function", "calls", "own s", "cumulative s", "cum %"], rows)


# The modules extract_file's Python walk runs in (extract.py and what it was split into).
_EXTRACTION_MODULES = ("extract", "source", "scopes", "typeref", "refs", "headers", "members", "literals")


def _area(key: tuple[str, int, str]) -> str:
    filename, _, name = key
    if "tree_sitter.Parser" in name:
        return "tree-sitter parse"
    if "tree_sitter.QueryCursor" in name:
        return "tree-sitter query captures"
    if "tree_sitter" in name:
        return "tree-sitter node methods (child_by_field_name, ...)"
    if "pydantic" in filename or "pydantic" in name:
        return "pydantic model construction / validation"
    if "junitbot/analysis/lombok" in filename:
        return "junitbot lombok.py"
    if any(f"junitbot/analysis/{module}.py" in filename for module in _EXTRACTION_MODULES):
        return "junitbot extraction modules (Python code)"
    if "junitbot" in filename:
        return "junitbot other modules"
    if name.startswith("<method 'decode'") or name.startswith("<method 'sub'"):
        return "bytes.decode / re.sub (node text)"
    return "other builtins (sort, bisect, dict, list, ...)"


# -- b. full build vs one-file commits ------------------------------------------------------------------


def _edit_method_body(path: Path, tag: str = "") -> None:
    """Insert one statement at the top of the first public method with a body: a one-line body change."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip()
        if (line.startswith("    public ") and "(" in line and stripped.endswith("{") and " class " not in line
                and " record " not in line and " enum " not in line and lines[i + 1].strip() != "}"):
            lines.insert(i + 1, f"        int benchEdit{tag} = 42; // a one-line change inside a method body")
            path.write_text("\n".join(lines), encoding="utf-8")
            return
    raise RuntimeError(f"no method body to edit in {path}")


def _new_class_source(package: str, name: str) -> str:
    return f"""package {package};

import java.util.List;
import java.util.Objects;

/** Added by bench_graph.py: a one-file commit that introduces a type. */
public final class {name} {{

    private final List<String> codes;

    public {name}(List<String> codes) {{
        this.codes = Objects.requireNonNull(codes, "codes");
    }}

    public boolean accepts(String code) {{
        if (code == null || code.isBlank()) {{
            return false;
        }}
        return codes.contains(code);
    }}
}}
"""


def _users(plan: Plan) -> dict[int, int]:
    users: dict[int, int] = {}
    for spec in plan.specs:
        for dep in {id(d): d for d in (*spec.collabs, *spec.uses)}.values():
            users[id(dep)] = users.get(id(dep), 0) + 1
    return users


def _pick_shadowed(plan: Plan) -> Spec:
    """A module-0 domain entity with a median number of users: its simple name gets a second declaration."""
    users = _users(plan)
    entities = [s for s in plan.specs if s.module == 0 and s.role == "entity" and users.get(id(s), 0) > 0]
    entities.sort(key=lambda s: (users.get(id(s), 0), s.fqn))
    if not entities:
        return plan.specs[0]
    return entities[len(entities) // 2]


def _seconds(summary: IndexSummary) -> str:
    return ", ".join(f"{k} {v:.3f}" for k, v in summary.seconds.items())


def measure_builds(root: Path, plan: Plan, state_root: Path, report: Report) -> None:
    log("b. git init + commit of the generated repository")
    git(root, "init", "-q")
    commit_all(root, "generated repository")
    state = StateDir(state_root)
    config = load_config(root, environ={})
    log("b. full build")
    start = time.perf_counter()
    full = update_graph(root, state, config, full=True)
    full_s = time.perf_counter() - start
    log(f"b. full build: {full_s:.1f} s, {full.files} files, {full.classes} types, {full.edges} edges")
    rows: list[tuple[str, str, str, str]] = [
        ("full build (update_graph full=True)", f"{full_s:.2f} s", "", ""),
        ("  graph: files / types / edges / problems",
         f"{full.files} / {full.classes} / {full.edges} / {len(full.problems)}", "", ""),
        ("  graph.sqlite size", f"{state.graph_db.stat().st_size / MB:.1f} MB", "", ""),
    ]
    breakdown: list[list[str]] = [["full build", f"{full.files_parsed}", f"{full.files_reresolved}", _seconds(full)]]

    scenarios: list[tuple[str, Callable[[], str]]] = []
    edited = next((s for s in plan.specs if s.role in ("usecase", "domain_service", "app_service")
                   and s.module == 0 and not s.is_test), next(s for s in plan.specs if s.kind == "class"))

    def edit_body() -> str:
        _edit_method_body(root / edited.path)
        return f"method body edit in {edited.name}"

    fresh_package = "com.gen.m0.domain.benchextra"
    fresh_dir = root / "module-0/src/main/java" / fresh_package.replace(".", "/")

    def add_fresh() -> str:
        fresh_dir.mkdir(parents=True, exist_ok=True)
        (fresh_dir / "BenchFreshPolicy.java").write_text(_new_class_source(fresh_package, "BenchFreshPolicy"))
        return "new class, unused name (BenchFreshPolicy)"

    shadowed = _pick_shadowed(plan)

    def add_shadowing() -> str:
        fresh_dir.mkdir(parents=True, exist_ok=True)
        (fresh_dir / f"{shadowed.name}.java").write_text(_new_class_source(fresh_package, shadowed.name))
        return f"new class named like an existing type ({shadowed.name})"

    scenarios = [("edit", edit_body), ("fresh", add_fresh), ("shadow", add_shadowing)]
    for key, change in scenarios:
        what = change()
        commit_all(root, what)
        start = time.perf_counter()
        summary = update_graph(root, state, config)
        took = time.perf_counter() - start
        percent = took / full_s * 100
        log(f"b. incremental ({what}): {took:.3f} s = {percent:.2f}% of full")
        if not summary.incremental:
            report.notes.append(f"[b] {what}: update_graph fell back to a full build ({summary.reason})")
        target = f"< {TARGET_INCREMENTAL_PERCENT:.0f}% of full"
        rows.append((f"one-file commit: {what}", f"{took:.3f} s", "", ""))
        rows.append((f"  incremental / full ({key})", f"{percent:.2f} %", target,
                     verdict(percent < TARGET_INCREMENTAL_PERCENT)))
        breakdown.append([f"incremental: {key}", f"{summary.files_parsed}", f"{summary.files_reresolved}",
                          _seconds(summary)])
    report.section("b. full build vs one-file commits (git, default config)", rows)
    report.table("b. IndexSummary.seconds breakdown", ["run", "parsed", "re-resolved", "seconds"], breakdown)
    profile_incremental(root, state, config, edited, report)


def profile_incremental(root: Path, state: StateDir, config: Any, edited: Spec, report: Report) -> None:
    """Where a one-file incremental update spends its time: one more body edit, under cProfile (not timed above)."""
    _edit_method_body(root / edited.path, tag="Profiled")
    commit_all(root, "profiled edit")
    profiler = cProfile.Profile()
    profiler.enable()
    update_graph(root, state, config)
    profiler.disable()
    raw: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = max(ct for (_, _, _, ct, _) in raw.values())

    def interesting(key: tuple[str, int, str]) -> bool:
        filename, _, name = key
        return ("junitbot" in filename or "sqlite3.Connection" in name or "fork_exec" in name
                or (filename.endswith("git/cmd.py") and name == "execute"))

    chosen = sorted(((k, v) for k, v in raw.items() if interesting(k)), key=lambda item: item[1][3], reverse=True)
    rows = []
    for (filename, line, name), (_, nc, tt, ct, _) in chosen[:16]:
        where = name if filename == "~" else f"{filename.split('site-packages/')[-1].split('/work/main/')[-1]}:{line}"
        rows.append([where if filename == "~" else f"{where}({name})", f"{nc}", f"{tt:.3f}", f"{ct:.3f}",
                     f"{ct / total:.0%}"])
    report.table(f"b. cProfile of one more one-file incremental update (profiled total {total:.3f} s)",
                 ["function", "calls", "own s", "cumulative s", "cum %"], rows)


# -- c. memory ----------------------------------------------------------------------------------------------


def _child(argv: list[str]) -> int:
    """Run in a fresh interpreter: `index ROOT STATE` or `query STATE FQN`; prints one JSON line."""
    mode = argv[0]
    baseline = current_rss_bytes()
    result: dict[str, Any] = {"rss_after_imports": baseline}
    start = time.perf_counter()
    if mode == "index":
        root, state_root = Path(argv[1]), Path(argv[2])
        summary = update_graph(root, StateDir(state_root), load_config(root, environ={}), full=True)
        result.update(files=summary.files, classes=summary.classes, edges=summary.edges,
                      seconds_breakdown=summary.seconds)
    else:
        from junitbot.analysis.graph import CodeGraph

        state_root, fqn = Path(argv[1]), argv[2]
        with CodeGraph.open(StateDir(state_root).graph_db) as graph:
            impact = DependencyAnalyzer(graph).impact_of([fqn], depth=3)
            result.update(dependents=len(impact.dependents), tests=len(impact.tests))
            result["rss_after_query"] = current_rss_bytes()
    result.update(seconds=time.perf_counter() - start, peak_rss=peak_rss_bytes(), hwm_rss=hwm_rss_bytes(),
                  rss_end=current_rss_bytes())
    print(json.dumps(result))
    return 0


def _run_child(*args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *args],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"child {args[0]} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _hub(db: Path) -> tuple[str, int]:
    """The type with the most distinct direct dependents (the heaviest impact query)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = connection.execute(
            "SELECT target, count(DISTINCT source) AS n FROM edges GROUP BY target ORDER BY n DESC, target LIMIT 1"
        ).fetchone()
    finally:
        connection.close()
    return str(row[0]), int(row[1])


def measure_memory(workdir: Path, types: int, seed: int, report: Report) -> None:
    root = workdir / "memory-repo"
    log(f"c. generating a repository with >= {types} types (in a subprocess, to keep this process small)")
    subprocess.run([sys.executable, str(Path(__file__).resolve().parent / "generate_repo.py"), str(root),
                    "--min-types", str(types), "--seed", str(seed)], check=True)
    git(root, "init", "-q")
    commit_all(root, "generated repository")
    state_root = workdir / "memory-state"
    parent_rss = current_rss_bytes()
    log(f"c. full build in a fresh process (this process: {parent_rss / MB:.0f} MB RSS)")
    index = _run_child("index", str(root), str(state_root))
    hub, direct = _hub(StateDir(state_root).graph_db)
    log(f"c. impact_of({hub}, depth=3) in a fresh process ({direct} direct dependents)")
    query = _run_child("query", str(state_root), hub)
    limit = f"< {TARGET_RSS_MB:.0f} MB"
    report.section(f"c. memory (fresh processes; {index['classes']:,} types in {index['files']:,} files)", [
        ("classes (top-level + nested) in the graph", f"{index['classes']:,}", f">= {types:,}",
         verdict(index["classes"] >= types)),
        ("indexing process: RSS after imports", f"{index['rss_after_imports'] / MB:.0f} MB", "", ""),
        ("indexing process: full build time", f"{index['seconds']:.1f} s", "", ""),
        ("indexing process: peak RSS (ru_maxrss)", f"{index['peak_rss'] / MB:.0f} MB", limit,
         verdict(index["peak_rss"] / MB < TARGET_RSS_MB)),
        ("indexing process: peak RSS (VmHWM)", f"{index['hwm_rss'] / MB:.0f} MB", limit,
         verdict(index["hwm_rss"] / MB < TARGET_RSS_MB)),
        ("graph.sqlite size", f"{StateDir(state_root).graph_db.stat().st_size / MB:.0f} MB", "", ""),
        (f"query process: impact_of({hub.rsplit('.', 1)[-1]}, depth=3)",
         f"{query['dependents']} dependents, {query['tests']} tests", "", f"{direct} direct dependents"),
        ("query process: open + query time", f"{query['seconds']:.2f} s", "", ""),
        ("query process: RSS after open + query (VmRSS)", f"{query['rss_after_query'] / MB:.0f} MB", limit,
         verdict(query["rss_after_query"] / MB < TARGET_RSS_MB)),
        ("query process: peak RSS (ru_maxrss)", f"{query['peak_rss'] / MB:.0f} MB", limit,
         verdict(query["peak_rss"] / MB < TARGET_RSS_MB)),
        ("query process: peak RSS (VmHWM)", f"{query['hwm_rss'] / MB:.0f} MB", limit,
         verdict(query["hwm_rss"] / MB < TARGET_RSS_MB)),
    ])
    report.notes.append(
        f"[c] the children were started from a {parent_rss / MB:.0f} MB process: on Linux a child's ru_maxrss "
        "starts at its parent's RSS at fork time (the kernel carries the old image's high-water mark across exec), "
        "VmHWM does not; both are shown.")


def _provenance() -> str:
    """Which junitbot was measured: its folder, and the git commit plus local changes when it is a checkout."""
    import junitbot

    package = Path(junitbot.__file__).resolve().parent
    try:
        head = git(package, "rev-parse", "--short", "HEAD").strip()
        top = Path(git(package, "rev-parse", "--show-toplevel").strip())
        if not package.is_relative_to(top):
            raise subprocess.CalledProcessError(1, "git")
        dirty = [line[3:] for line in git(package, "status", "--porcelain", "--", ".").splitlines()]
        state = f"commit {head}" + (f", {len(dirty)} changed files: {', '.join(dirty[:6])}" if dirty else ", clean")
    except (subprocess.CalledProcessError, OSError):
        state = "not a git checkout"
    return f"measured junitbot at {package} ({state})"


# -- main ---------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return _child(argv[1:])
    parser = argparse.ArgumentParser(description="Benchmark parse/extraction, full/incremental builds and memory.")
    parser.add_argument("--files", type=int, default=5000, help="Java files for parts a and b (default 5000)")
    parser.add_argument("--classes-for-memory", type=int, default=10000,
                        help="types (top-level + nested) in the repository of part c (default 10000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, help="where to generate (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories and graphs")
    parser.add_argument("--profile", choices=("auto", "always", "never"), default="auto",
                        help="cProfile the extraction: auto = when the extraction/parse ratio misses its target")
    parser.add_argument("--profile-files", type=int, default=600, help="files to profile (default 600)")
    parser.add_argument("--skip", action="append", default=[], choices=("a", "b", "c"), help="skip a part")
    args = parser.parse_args(argv)

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="junitbot-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    parts = {"a": Report(), "b": Report(), "c": Report()}
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    try:
        # c first, while this process is still small: its RSS is inherited by the children's ru_maxrss.
        if "c" not in args.skip:
            for name in ("memory-repo", "memory-state"):
                shutil.rmtree(workdir / name, ignore_errors=True)
            measure_memory(workdir, args.classes_for_memory, args.seed + 1, parts["c"])
        root = workdir / "repo"
        if root.exists():
            shutil.rmtree(root)
        plan = plan_repo(args.files, seed=args.seed)
        log(f"generating {args.files} files ({plan.type_count} types, {plan.modules} modules) in {root}")
        paths = write_plan(root, plan, seed=args.seed)
        if "a" not in args.skip:
            measure_extraction(root, paths, parts["a"], profile=args.profile, profile_files=args.profile_files)
        gc.collect()
        if "b" not in args.skip:
            state_root = workdir / "state"
            shutil.rmtree(state_root, ignore_errors=True)
            measure_builds(root, plan, state_root, parts["b"])
    finally:
        if not args.keep and args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    summary = Report()
    summary.notes.append(_provenance())
    summary.notes.append(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; total benchmark time "
        f"{time.perf_counter() - started:.0f} s; load average {load_before:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end (above the CPU count, timings include contention); "
        "MB = 10^6 bytes; exit code is 0 whatever the verdicts")
    for report in (*parts.values(), summary):
        report.print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

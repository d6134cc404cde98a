"""Children die with junitbot (issue 18): a SIGKILLed index or validation leaves no parser worker, git or JVM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from junitbot.processes import bind_to_parent
from tests.conftest import PROJECT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="a parent-death signal and /proc are Linux's")


def descendants(pid: int) -> set[int]:
    """Every process below `pid` now, from each thread's /proc children list."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                children = {int(c) for c in (task / "children").read_text().split()}
            except OSError:
                continue  # gone meanwhile
            todo += children - found
            found |= children
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@contextmanager
def started(argv: Sequence[str], cwd: Path) -> Iterator[tuple[subprocess.Popen[bytes], dict[int, str]]]:
    """A junitbot process and the descendants seen so far (pid -> command line); whatever survives the test is
    killed after it, so a failure leaves no orphans either."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(PROJECT), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen: dict[int, str] = {}
    try:
        yield proc, seen
    finally:
        for pid in [proc.pid, *seen]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


def watch_until(proc: subprocess.Popen[bytes], seen: dict[int, str], ready: Callable[[dict[int, str]], bool]) -> None:
    deadline = time.monotonic() + 120
    while not ready(seen):
        assert proc.poll() is None, f"ended before it was killed: {proc.stderr.read() if proc.stderr else ''!r}"
        assert time.monotonic() < deadline, f"never ready; seen {seen}"
        for pid in descendants(proc.pid):
            # Read again each time: a child caught between fork and exec has no command line of its own yet (seen
            # once under load: the JVM's pid stayed '' and the wait ran out); a process that is gone keeps its last.
            seen[pid] = command_line(pid) or seen.get(pid, "")
        time.sleep(0.01)


def kill_and_list_survivors(proc: subprocess.Popen[bytes], seen: dict[int, str]) -> dict[int, str]:
    """SIGKILL `proc` (nothing of it can clean up), then what of `seen` is still running after a few seconds."""
    seen.update((pid, command_line(pid)) for pid in descendants(proc.pid) if pid not in seen)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while any(alive(p) for p in seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    return {pid: command_line(pid) or command for pid, command in seen.items() if alive(pid)}


def _java_sources(count: int) -> dict[str, str]:
    """Enough Java to keep the parser pool busy for a while: `count` classes of 60 methods each."""
    files = {}
    for i in range(count):
        methods = "\n".join(
            f"    public int m{j}(int x) {{ if (x > {j}) {{ return x * {j} + helper(x); }} return {j}; }}"
            for j in range(60))
        files[f"src/main/java/big/p{i % 20}/C{i}.java"] = (
            f"package big.p{i % 20};\n\nimport java.util.List;\n\npublic class C{i} {{\n"
            f"    private final List<String> names;\n    public C{i}(List<String> names) {{ this.names = names; }}\n"
            f"{methods}\n    private int helper(int x) {{ return names.size() + x; }}\n}}\n")
    return files


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the parser pool starts only with two or more CPUs")
def test_a_killed_index_takes_its_parser_workers_and_git_along(make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo(_java_sources(2500))
    argv = [sys.executable, "-m", "junitbot", "index", "--repo", str(root), "--graph-only", "--json"]
    with started(argv, root) as (proc, seen):
        # Parsing has begun once two forked workers (same command line as their parent) run.
        watch_until(proc, seen, lambda seen: sum("junitbot index" in c for c in seen.values()) >= 2)
        survivors = kill_and_list_survivors(proc, seen)
        assert any("cat-file" in c for c in seen.values()), seen  # GitPython's persistent git, too
        assert survivors == {}


def test_a_killed_validation_takes_its_jvm_along(tmp_path: Path) -> None:
    (tmp_path / "Sleeper.java").write_text(
        "public class Sleeper { public static void main(String[] a) throws Exception { Thread.sleep(600_000); } }\n")
    validation = ("from pathlib import Path\nfrom junitbot.validation.process import run_process\n"
                  f"run_process(['java', 'Sleeper.java'], cwd=Path({str(tmp_path)!r}), timeout_s=600, "
                  "max_output_bytes=1000)\n")
    with started([sys.executable, "-c", validation], tmp_path) as (proc, seen):
        # The JVM itself, not `setpriv` before its exec: that one names Sleeper too, but the death signal it passes
        # on is set only as it execs (killed before, nothing would have bound the JVM yet).
        watch_until(proc, seen, lambda seen: any(c.startswith("java ") and "Sleeper" in c for c in seen.values()))
        assert kill_and_list_survivors(proc, seen) == {}


def test_a_program_that_cannot_be_found_is_left_for_popen_to_name(tmp_path: Path) -> None:
    assert bind_to_parent(["no-such-tool-xyz", "-v"]) == ["no-such-tool-xyz", "-v"]
    assert bind_to_parent(["./mvnw"], cwd=tmp_path) == ["./mvnw"]


def test_a_process_forks_python_workers_only_while_it_runs_one_thread_native_ones_included() -> None:
    # A pytest-xdist worker hung in a forked parser: one of its threads held a lock at the fork. Python's own count
    # misses native pools (FAISS, ONNX runtime); the kernel's list of the process's tasks does not.
    script = (
        "import ctypes, threading, time\n"
        "from junitbot.processes import only_thread\n"
        "alone = only_thread()\n"
        "libc = ctypes.CDLL(None)\n"
        "handle = ctypes.c_ulong()\n"
        "sleep = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(lambda _: libc.sleep(5))\n"
        "assert libc.pthread_create(ctypes.byref(handle), None, sleep, None) == 0\n"
        "time.sleep(0.2)\n"
        "print(alone, threading.active_count(), only_thread())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=PROJECT, timeout=60)
    # Alone it may fork; beside a thread Python never started (its count still 1) it may not.
    assert done.stdout.split() == ["True", "1", "False"], done.stderr

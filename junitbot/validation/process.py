"""Run one command with a timeout and capped output; the only place validation spawns processes.

The child starts in its own session, hence its own process group. When it finishes, times out or
leaves descendants behind (a test that forks `sleep 1000`), the whole group gets SIGKILL, so nothing
a test started outlives the run. The group is killed while the child is still an unreaped zombie,
so its id cannot have been reused by an unrelated process. Descendants that leave the group with
setsid() escape this; the sandbox's pid namespace (see `sandbox.py`) catches those.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Protocol

from junitbot.errors import JunitbotError
from junitbot.processes import bind_to_parent
from junitbot.records import Record

# After the child exits, descendants outside its group may still hold the pipes; stop reading then.
_DRAIN_S = 1.0
_READ_CHUNK = 65536


class ProcessResult(Record):
    """How a command ended: exit code (negative: killed by that signal), output, and whether it timed out."""

    argv: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    timed_out: bool = False
    seconds: float

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


class Runner(Protocol):
    """How a command runs: `run_process`, or a test's double speaking the same protocol."""

    def __call__(self, argv: Sequence[str], *, cwd: Path, timeout_s: float, max_output_bytes: int) -> ProcessResult:
        ...


class _Capture:
    """Keeps the first and the last `limit // 2` bytes of a stream and counts what lies between."""

    def __init__(self, limit: int) -> None:
        self._head_limit = limit - limit // 2
        self._tail_limit = limit // 2
        self._head = bytearray()
        self._tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self._head_limit - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if data and self._tail_limit:
            self._tail += data
            # Trim rarely: only once the tail holds twice what it keeps.
            if len(self._tail) > 2 * self._tail_limit:
                del self._tail[: len(self._tail) - self._tail_limit]

    @property
    def truncated(self) -> bool:
        return self.total > self._head_limit + self._tail_limit

    def text(self) -> str:
        tail = self._tail[-self._tail_limit :] if self._tail_limit else b""
        if not self.truncated:
            return (bytes(self._head) + bytes(tail)).decode("utf-8", errors="replace")
        omitted = self.total - len(self._head) - len(tail)
        marker = f"\n[... {omitted} bytes of output omitted ...]\n"
        return bytes(self._head).decode("utf-8", errors="replace") + marker + tail.decode("utf-8", errors="replace")


def run_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    max_output_bytes: int,
    stdin: str | bytes | None = None,
) -> ProcessResult:
    """Run `argv` in `cwd`; kill its whole process group at the timeout and again when it ends.

    stdout and stderr keep at most `max_output_bytes` each (head and tail, with a marker between).
    Raises JunitbotError when the command cannot be started (missing executable, bad cwd).
    """
    if not argv:
        raise JunitbotError("run_process: empty command")
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            bind_to_parent(argv, cwd=cwd, env=env),  # dies with junitbot, even a SIGKILLed one
            cwd=cwd,
            env=None if env is None else dict(env),
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as e:
        raise JunitbotError(_start_error(argv, cwd, e)) from e
    out, err = _Capture(max_output_bytes), _Capture(max_output_bytes)
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    try:
        timed_out = _pump(proc, out, err, data, deadline=started + timeout_s)
    finally:
        # Also on Ctrl-C: the child is not reaped yet, so its group id is still ours to kill.
        _kill_group(proc.pid)
        exit_code = proc.wait()
        seconds = time.monotonic() - started
        try:
            _drain(proc, out, err, deadline=time.monotonic() + _DRAIN_S)
        finally:
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
    return ProcessResult(
        argv=tuple(argv),
        exit_code=exit_code,
        stdout=out.text(),
        stderr=err.text(),
        stdout_truncated=out.truncated,
        stderr_truncated=err.truncated,
        timed_out=timed_out,
        seconds=round(seconds, 3),
    )


def _start_error(argv: Sequence[str], cwd: Path, error: OSError) -> str:
    if isinstance(error, FileNotFoundError) and error.filename == argv[0]:
        return f"cannot run {argv[0]!r}: no such executable (is it installed and on PATH?)"
    if not cwd.is_dir():
        return f"cannot run {argv[0]!r}: working directory {cwd} does not exist"
    return f"cannot run {argv[0]!r}: {error.strerror or error}"


def _pump(
    proc: subprocess.Popen[bytes], out: _Capture, err: _Capture, stdin: bytes | None, *, deadline: float
) -> bool:
    """Feed stdin and read output until the child exits (True when the deadline came first)."""
    with selectors.DefaultSelector() as selector:
        _register(selector, proc, out, err)
        if stdin and proc.stdin is not None:
            os.set_blocking(proc.stdin.fileno(), False)
            selector.register(proc.stdin, selectors.EVENT_WRITE, memoryview(stdin))
        elif proc.stdin is not None:
            proc.stdin.close()
        while not _exited(proc.pid):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return True
            # Wake up now and then: descendants may keep the pipes open after the child exited.
            for key, _ in selector.select(min(remaining, 0.05)):
                _service(selector, key)
        return False


def _drain(proc: subprocess.Popen[bytes], out: _Capture, err: _Capture, *, deadline: float) -> None:
    """Read what is left in the pipes once the group is dead, giving up on escaped holders at the deadline."""
    with selectors.DefaultSelector() as selector:
        _register(selector, proc, out, err)
        while selector.get_map() and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(remaining):
                _service(selector, key)


def _register(selector: selectors.BaseSelector, proc: subprocess.Popen[bytes], out: _Capture, err: _Capture) -> None:
    for stream, capture in ((proc.stdout, out), (proc.stderr, err)):
        if stream is not None and not stream.closed:
            selector.register(stream, selectors.EVENT_READ, capture)


def _service(selector: selectors.BaseSelector, key: selectors.SelectorKey) -> None:
    stream: IO[bytes] = key.fileobj  # type: ignore[assignment]  # we only register pipe file objects
    if isinstance(key.data, _Capture):
        chunk = os.read(stream.fileno(), _READ_CHUNK)
        if chunk:
            key.data.add(chunk)
        else:
            selector.unregister(stream)
            stream.close()
        return
    pending: memoryview = key.data
    try:
        written = os.write(stream.fileno(), pending[:_READ_CHUNK])
    except BlockingIOError:
        written = 0
    except BrokenPipeError:
        written = len(pending)  # the child stopped reading; the rest of its input does not matter
    if written >= len(pending):
        selector.unregister(stream)
        stream.close()
    else:
        selector.modify(stream, selectors.EVENT_WRITE, pending[written:])


def _exited(pid: int) -> bool:
    """Whether the child has exited, without reaping it (WNOWAIT keeps its pid, hence its group id, taken)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)

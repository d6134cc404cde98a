"""javac kept warm: one compiler JVM per process and JDK (`java/JavacServer.java`) serves a run's compiles.

A javac process spends most of a small compile starting its JVM and loading and compiling javac itself: about a
second of CPU for a test class, of which the compile proper is a tenth (measured on JDK 17: 0.9 s cold, 0.085 s
warm). A run compiles dozens of times (probes, candidates, repair rounds, the tidied classes, the kept files once
more), so the server answers the same command lines as the javac process would, with the same exit code and
diagnostics, and each compile gets a fresh file manager, as a process would.

The server is used only where it changes nothing: no annotation processors (they are the project's code and may
keep state between compiles; with them every compile is a process of its own), absolute paths only (the server's
working folder is not the compile's), and one compile at a time (a second caller meanwhile runs a javac process).
It ends when its stdin closes, so it never outlives junitbot; one that fails or times out is stopped, and the
next compile starts another. After `_MAX_COMPILES` it is replaced, so what javac caches never grows without end.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import logging
import os
import selectors
import shutil
import struct
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from junitbot.errors import JunitbotError
from junitbot.validation.build.class_data import cache_folder
from junitbot.validation.build.helpers import compiled_helper
from junitbot.validation.build.jdk import QUICK_JVM_OPTIONS
from junitbot.validation.process import ProcessResult

log = logging.getLogger(__name__)

_STACK_BYTES = 64 * 1024 * 1024  # as the javac process's -J-Xss64m
_MAX_COMPILES = 300
_PATH_OPTIONS = {"-d", "-cp", "-classpath", "--class-path", "-sourcepath", "--source-path", "-processorpath"}
_INT = struct.Struct(">i")
# A compile of a large module's main classes grows the heap by a gigabyte or more; a process that stays should give
# it back after the next collection rather than hold it for the rest of the run.
_GIVE_BACK = ("-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30")


class _Server:
    """One compiler JVM and the lock that gives it to one compile at a time."""

    def __init__(self, java: Path, classes: Path) -> None:
        self.lock = threading.Lock()
        self.compiles = 0
        self.process = subprocess.Popen(
            [str(java), *QUICK_JVM_OPTIONS, *_GIVE_BACK, "-Dfile.encoding=UTF-8", "-cp", str(classes), "JavacServer",
             str(_STACK_BYTES)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()

    def compile(self, args: Sequence[str], *, timeout_s: float) -> tuple[int, bytes, bytes] | None:
        """javac's exit code, output and diagnostics; None when the server died; TimeoutError when it did not answer
        in time."""
        assert self.process.stdin is not None and self.process.stdout is not None
        request = bytearray(_INT.pack(len(args)))
        for arg in args:
            encoded = arg.encode("utf-8")
            request += _INT.pack(len(encoded)) + encoded
        try:
            self.process.stdin.write(request)
            self.process.stdin.flush()
            reader = _Reader(self.process.stdout.fileno(), deadline=time.monotonic() + timeout_s)
            code = _INT.unpack(reader.read(4))[0]
            stdout = reader.read(_INT.unpack(reader.read(4))[0])
            stderr = reader.read(_INT.unpack(reader.read(4))[0])
        except (OSError, EOFError):
            return None
        self.compiles += 1
        return code, stdout, stderr


class _Reader:
    """Exactly `n` bytes from a pipe, or TimeoutError at the deadline, or EOFError when it closes."""

    def __init__(self, fd: int, *, deadline: float) -> None:
        self.fd, self.deadline = fd, deadline

    def read(self, n: int) -> bytes:
        chunks, left = [], n
        with selectors.DefaultSelector() as selector:
            selector.register(self.fd, selectors.EVENT_READ)
            while left:
                remaining = self.deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise TimeoutError
                chunk = os.read(self.fd, min(left, 1 << 20))
                if not chunk:
                    raise EOFError
                chunks.append(chunk)
                left -= len(chunk)
        return b"".join(chunks)


# Keyed by the process too: a forked child (the indexer's parse workers) inherits the dict and the pipes, and must
# never write into its parent's server.
_servers: dict[tuple[int, Path], _Server] = {}
_servers_lock = threading.Lock()
_unservable: set[Path] = set()


def warm_compile(command: Sequence[str], *, timeout_s: float, max_output_bytes: int) -> ProcessResult | None:
    """`command` (a javac command line) compiled by the warm server of its JDK; None when it cannot be (annotation
    processors, a relative path, the server busy, or one that cannot start on that JDK): the caller then runs the
    javac process."""
    args = _server_args(command)
    java = _java_beside(command[0]) if args is not None else None
    if args is None or java is None or java in _unservable:
        return None
    server = _server_for(java)
    if server is None or not server.lock.acquire(blocking=False):
        return None
    started = time.perf_counter()
    try:
        answer = server.compile(args, timeout_s=timeout_s)
    except TimeoutError:
        _retire(java, server)
        return ProcessResult(argv=tuple(command), exit_code=-9, stdout="", stderr="", timed_out=True,
                             seconds=round(time.perf_counter() - started, 3))
    finally:
        server.lock.release()
    if answer is None:
        if server.compiles == 0:  # it never answered: this JDK cannot run it (too old, no compiler module)
            _unservable.add(java)
            log.warning("the warm javac does not run on %s; each compile starts a javac process", java)
        _retire(java, server)
        return None
    if server.compiles >= _MAX_COMPILES:
        _retire(java, server)
    code, stdout, stderr = answer
    return ProcessResult(argv=tuple(command), exit_code=code, stdout=_text(stdout, max_output_bytes),
                         stderr=_text(stderr, max_output_bytes), stdout_truncated=len(stdout) > max_output_bytes,
                         stderr_truncated=len(stderr) > max_output_bytes,
                         seconds=round(time.perf_counter() - started, 3))


@functools.lru_cache(maxsize=16)
def _java_beside(javac: str) -> Path | None:
    """The `java` of the javac's own JDK (not the first on PATH), looked up once per javac."""
    found = shutil.which(javac)
    return Path(found).resolve().with_name("java") if found else None


def _server_args(command: Sequence[str]) -> list[str] | None:
    """javac's own arguments of a command (the launcher's `-J` options left out), or None when the server must not
    take it: annotation processors, or a path it would read relative to its own working folder."""
    args = [a for a in command[1:] if not a.startswith("-J")]
    if "-proc:none" not in args:
        return None
    for option, value in itertools.pairwise(args):
        if option in _PATH_OPTIONS and not all(os.path.isabs(p) for p in value.split(os.pathsep) if p):
            return None
    files = [a for a in args if a.endswith(".java")]
    return args if all(os.path.isabs(f) for f in files) else None


def _text(data: bytes, limit: int) -> str:
    return data[:limit].decode("utf-8", errors="replace")


def _server_for(java: Path) -> _Server | None:
    key = (os.getpid(), java)
    with _servers_lock:
        server = _servers.get(key)
        if server is not None and server.alive():
            return server
        classes = _server_classes(java)
        if classes is None:
            return None
        try:
            server = _servers[key] = _Server(java, classes)
        except OSError as e:
            log.debug("the warm javac did not start: %s", e)
            return None
        return server


def _retire(java: Path, server: _Server) -> None:
    key = (os.getpid(), java)
    with _servers_lock:
        if _servers.get(key) is server:
            del _servers[key]
    server.stop()


@atexit.register
def stop_servers() -> None:
    """Stop every warm javac of this process (they would also end with it: their stdin closes)."""
    with _servers_lock:
        servers = [server for (pid, _), server in _servers.items() if pid == os.getpid()]
        _servers.clear()
    for server in servers:
        server.stop()


def _server_classes(java: Path) -> Path | None:
    """The folder of the compiled server, compiled once by that JDK's javac into the user's cache (the class then
    loads on that JDK, however old); None when it cannot be compiled (the javac process is used then)."""
    try:
        return compiled_helper("JavacServer", classpath=[], cache_dir=cache_folder().parent / "javac-server",
                               folder_prefix="javac-server", javac=str(java.with_name("javac")))
    except (JunitbotError, OSError) as e:
        log.warning("the warm javac could not be compiled (%s); each compile starts a javac process", e)
        return None

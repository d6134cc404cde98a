"""Child processes die with junitbot: a killed run leaves no parser worker, git or JVM behind (issue 18).

Linux delivers a chosen signal to a process when its parent exits if the child asked for it with
`prctl(PR_SET_PDEATHSIG)`; junitbot asks for SIGKILL in every child it starts:
- a Python worker forked by junitbot calls `die_with_parent` first (a pool's `initializer`);
- a command (git, javac, java, mvn) runs under util-linux's `setpriv --pdeathsig KILL`, which asks and then
  execs it: `bind_to_parent(argv)`. A wrapper rather than `preexec_fn`, which runs Python between fork and
  exec (unsafe beside other threads) and forbids vfork, so each start from a process holding gigabytes
  (a loaded model) would copy its page tables: 2 ms became 120 ms per start at 3 GB here.

"Parent" means the thread that started the child: a command must be waited for by the thread that started
it (as `run_process` does), or be started from the main thread. Elsewhere (macOS; Linux without setpriv)
children start unbound, as before; a parent killed in the instant between a start and the prctl leaves that
one child unbound.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


# Looked up on import, in the parent: a forked child then only calls it (no dlopen after fork).
_PRCTL = _load_prctl()


def only_thread() -> bool:
    """Whether this process runs a single thread, native ones included (a FAISS or ONNX runtime's pool, which
    Python's `threading` does not count): only then may it fork a worker that runs Python, since a thread holding a
    lock at the fork leaves the child waiting for it forever. Linux's /proc/self/task; Python's count elsewhere."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return threading.active_count() == 1


def die_with_parent(parent_pid: int) -> None:
    """In a forked Python child: be killed when the parent (`parent_pid`, the pid before the fork) exits, and
    exit at once if it already has. Does nothing where Linux's prctl is missing."""
    if _PRCTL is None:
        return
    if _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        log.debug("prctl(PR_SET_PDEATHSIG) failed: %s", os.strerror(ctypes.get_errno()))
        return
    if os.getppid() != parent_pid:  # the parent died before the prctl: nobody will ever read our results
        os._exit(1)


def bind_to_parent(argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """`argv` run so that the command gets SIGKILL when the thread that starts it exits.

    Unchanged where setpriv is missing, and when `argv[0]` cannot be found (with `env`'s PATH, or relative to
    `cwd`), so that starting it still fails as it would have, naming the missing program.
    """
    setpriv = _setpriv()
    if setpriv is None or not argv or not _findable(argv[0], cwd=cwd, env=env):
        return list(argv)
    return [setpriv, "--pdeathsig", "KILL", "--", *argv]


@functools.cache
def _setpriv() -> str | None:
    if not sys.platform.startswith("linux"):
        return None
    found = shutil.which("setpriv")
    if found is None:
        log.info("setpriv (util-linux) not found: commands junitbot starts may outlive a killed junitbot")
    return found


def _findable(program: str, *, cwd: Path | None, env: Mapping[str, str] | None) -> bool:
    if os.sep in program:
        full = Path(program) if cwd is None else Path(cwd, program)
        return full.is_file() and os.access(full, os.X_OK)
    path = (env if env is not None else os.environ).get("PATH", os.defpath)
    return shutil.which(program, path=path) is not None

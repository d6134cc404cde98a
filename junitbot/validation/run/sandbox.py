"""Isolation for running generated tests: which kind works here, and the command line that applies it.

What each kind gives (the timeout and process-group kill of `process.py` apply to all):

- ``bwrap`` (bubblewrap): a read-only view of the whole filesystem, private size-capped tmpfs on
  /tmp and /dev/shm, only the work directory (and paths named writable) bound read-write, no
  network, private pid and IPC namespaces and --die-with-parent, so every process a test starts
  dies with the run.
- ``unshare`` (`unshare -rn --pid --fork --kill-child --mount-proc`): no network and a private pid
  namespace, but the filesystem is NOT read-only: the test runs as its (mapped) user and can write
  wherever that user can; as root that is everywhere.
- ``none``: timeouts and resource limits only.

Resource limits come from `prlimit` wrapped around the command (no preexec_fn: it is unsafe with
threads): RLIMIT_FSIZE caps each file a test writes, so it cannot fill the disk with one file
(the JVM ignores SIGXFSZ, so the write fails with an IOException), and RLIMIT_CORE=0 stops core dumps.
Deliberately not set: RLIMIT_NPROC counts every process of the real user on the machine (it cannot
be scoped to the sandbox, and root ignores it), so a fork bomb is bounded only by the timeout and
the kill of the process group and pid namespace; RLIMIT_AS breaks the JVM, which reserves far more
address space than it uses (heap is capped by -Xmx instead). The number of files is not capped.
"""

from __future__ import annotations

import functools
import logging
import shlex
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from junitbot.errors import JunitbotError
from junitbot.validation.process import run_process

logger = logging.getLogger(__name__)

ISOLATIONS = ("bwrap", "unshare", "none")
MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest file a sandboxed command may write (RLIMIT_FSIZE)."""
DEFAULT_TMP_BYTES = 256 * 1024 * 1024

Network = Literal["none", "loopback", "host"]
"""What network a sandboxed command keeps: none, a loopback of its own (PIT and its test JVMs talk over 127.0.0.1),
or the host's (only the build gate's one online Maven run, which must resolve what is missing)."""

_PROBE_TIMEOUT_S = 15.0
_UNSHARE = ("unshare", "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child", "--mount-proc")
_DESCRIPTIONS = {
    "bwrap": "bubblewrap: read-only filesystem except the work dir, private /tmp, no network, own pid namespace",
    "unshare": "unshare: no network, own pid namespace; the filesystem is NOT read-only",
    "none": "none: timeouts and resource limits only (neither bubblewrap nor unshare works here)",
}


def describe_isolation(isolation: str) -> str:
    """One line for reports: what the given isolation protects against."""
    if isolation not in _DESCRIPTIONS:
        raise JunitbotError(f"unknown isolation {isolation!r}; expected one of {', '.join(ISOLATIONS)}")
    return _DESCRIPTIONS[isolation]


@functools.cache
def detect_isolation(preferred: str = "auto") -> str:
    """The isolation to use: `preferred` if it works, or with "auto" the strongest that works.

    Probes by running `true` the way tests would run; the answer is cached for this process.
    Raises JunitbotError when an explicitly preferred isolation does not work here.
    """
    if preferred == "none":
        return "none"
    if preferred not in ("auto", "bwrap", "unshare"):
        raise JunitbotError(f"unknown isolation {preferred!r}; expected auto, {', '.join(ISOLATIONS)}")
    candidates = ("bwrap", "unshare") if preferred == "auto" else (preferred,)
    failures = []
    for kind in candidates:
        problem = _probe(kind)
        if problem is None:
            logger.info("test isolation: %s", describe_isolation(kind))
            return kind
        failures.append(f"{kind}: {problem}")
    if preferred != "auto":
        raise JunitbotError(f"isolation {preferred!r} does not work here ({failures[0]}); use 'auto' or 'none'")
    logger.warning("test isolation: none (%s)", "; ".join(failures))
    return "none"


def sandboxed(
    argv: Sequence[str],
    *,
    workdir: Path,
    isolation: str,
    readable: Sequence[Path] = (),
    writable: Sequence[Path] = (),
    network: Network = "none",
) -> list[str]:
    """`argv` wrapped in `isolation` and resource limits, to run with cwd `workdir`. Under bwrap, /tmp is private,
    so `readable` must name what the command reads (class dirs, jars; only those under /tmp get bound) and
    `writable` what it writes outside `workdir`. `network`: "loopback" brings unshare's own loopback up (bwrap's is
    up already), the host staying out of reach; "host" keeps the host's network.
    """
    host = network == "host"
    if isolation == "bwrap":
        wrapped = [*_bwrap_prefix(workdir.resolve(), readable, writable, network=host), *argv]
    elif isolation == "unshare":
        if network == "loopback":
            argv = _with_loopback_up(argv)
        wrapped = [*(part for part in _UNSHARE if not (host and part == "--net")), *argv]
    elif isolation == "none":
        wrapped = list(argv)
    else:
        raise JunitbotError(f"unknown isolation {isolation!r}; expected one of {', '.join(ISOLATIONS)}")
    return [*_limits(), *wrapped]


def _bwrap_prefix(workdir: Path, readable: Sequence[Path], writable: Sequence[Path], *,
                  network: bool = False) -> list[str]:
    size = ["--size", str(DEFAULT_TMP_BYTES)] if _bwrap_has_size() else []
    # The private /tmp and /dev/shm are RAM: capped, so a test cannot fill memory through them.
    args = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", *size, "--tmpfs", "/dev/shm", "--proc", "/proc"]
    args += [*size, "--tmpfs", "/tmp"]
    # Later mounts win: read-only paths first, so the work dir stays writable even inside one of them.
    # Only what the private /tmp hides needs binding; the rest of the root is visible read-only already.
    for path in readable:
        if path.exists():
            target = path.resolve()
            for name in dict.fromkeys((path.absolute(), target)):
                if name.is_relative_to("/tmp") and not name.is_relative_to(workdir):
                    args += ["--ro-bind", str(target), str(name)]  # symlinks under /tmp keep working
    for path in (workdir, *writable):
        args += ["--bind", str(path.resolve()), str(path.resolve())]
    return [
        *args,
        *([] if network else ["--unshare-net"]),
        "--unshare-pid",
        "--unshare-ipc",
        "--die-with-parent",
        "--chdir",
        str(workdir),
        "--",
    ]


def _with_loopback_up(argv: Sequence[str]) -> list[str]:
    """`argv` run once the namespace's loopback is up (as its mapped root, the namespace is ours to configure)."""
    ip = shutil.which("ip")
    if ip is None:
        raise JunitbotError("the command needs a loopback interface, which unshare leaves down and which only "
                            "`ip` (iproute2) can bring up: install iproute2, or bubblewrap")
    return ["sh", "-c", f'{shlex.quote(ip)} link set lo up && exec "$@"', "sh", *argv]


def _limits() -> list[str]:
    if shutil.which("prlimit") is None:
        _warn_no_prlimit()
        return []
    return ["prlimit", f"--fsize={MAX_FILE_BYTES}", "--core=0", "--"]


@functools.cache
def _warn_no_prlimit() -> None:
    logger.warning("prlimit (util-linux) is not installed: test runs get no file-size limit")


@functools.cache
def _bwrap_has_size() -> bool:
    """Whether bwrap can cap the size of its /tmp (--size came in bubblewrap 0.8; older ones reject it)."""
    if shutil.which("bwrap") is None:
        return False
    result = run_process(["bwrap", "--help"], cwd=Path("/"), timeout_s=_PROBE_TIMEOUT_S, max_output_bytes=65536)
    return "--size" in result.stdout + result.stderr


def _probe(kind: str) -> str | None:
    """None when `kind` runs `true` here, else why not."""
    executable = "bwrap" if kind == "bwrap" else "unshare"
    if shutil.which(executable) is None:
        return f"{executable} is not installed"
    with tempfile.TemporaryDirectory(prefix="junitbot-probe-") as tmp:
        workdir = Path(tmp).resolve()
        argv = [*_bwrap_prefix(workdir, (), ()), "true"] if kind == "bwrap" else [*_UNSHARE, "true"]
        result = run_process(argv, cwd=workdir, timeout_s=_PROBE_TIMEOUT_S, max_output_bytes=65536)
    if result.ok:
        return None
    reason = (result.stderr.strip() or result.stdout.strip()).splitlines()
    return reason[-1] if reason else f"exit code {result.exit_code}"

"""Isolation probing and what bwrap, unshare and the resource limits actually prevent, run for real."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.errors import JunitbotError
from junitbot.validation.process import ProcessResult, run_process
from junitbot.validation.run import sandbox
from junitbot.validation.run.sandbox import ISOLATIONS, describe_isolation, detect_isolation, sandboxed
from tests.validation.test_process import pids_with, unique_marker


@pytest.fixture
def server() -> Iterator[int]:
    """A TCP port on 127.0.0.1 that accepts connections."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.fixture(params=["bwrap", "unshare"])
def isolation(request: pytest.FixtureRequest) -> str:
    try:
        return detect_isolation(request.param)
    except JunitbotError as e:
        pytest.skip(f"isolation {request.param} is not usable here: {e}")


def _run(argv: list[str], workdir: Path, isolation: str, **options: object) -> ProcessResult:
    wrapped = sandboxed(argv, workdir=workdir, isolation=isolation, **options)  # type: ignore[arg-type]
    return run_process(wrapped, cwd=workdir, timeout_s=30, max_output_bytes=10_000)


def _connect(port: int) -> list[str]:
    # The interpreter itself, not the venv's link to it: a checkout under /tmp is hidden by the private /tmp.
    python = os.path.realpath(sys.executable)
    return [python, "-c", f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=5)"]


def test_auto_picks_the_strongest_isolation_that_works() -> None:
    chosen = detect_isolation()
    assert chosen in ISOLATIONS
    usable = []
    for kind in ("bwrap", "unshare"):
        with contextlib.suppress(JunitbotError):
            usable.append(detect_isolation(kind))
    assert chosen == (usable[0] if usable else "none")
    assert detect_isolation("none") == "none"


def test_unknown_isolation_is_an_error() -> None:
    with pytest.raises(JunitbotError, match="unknown isolation 'docker'"):
        detect_isolation("docker")
    with pytest.raises(JunitbotError, match="unknown isolation 'docker'"):
        sandboxed(["true"], workdir=Path("/"), isolation="docker")
    with pytest.raises(JunitbotError, match="unknown isolation 'docker'"):
        describe_isolation("docker")
    assert "NOT read-only" in describe_isolation("unshare")


def test_requested_isolation_that_is_not_installed_fails_fast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    detect_isolation.cache_clear()
    try:
        with pytest.raises(JunitbotError, match=r"isolation 'bwrap' does not work here .*bwrap is not installed"):
            detect_isolation("bwrap")
        assert detect_isolation("auto") == "none"
    finally:
        detect_isolation.cache_clear()


def test_server_is_reachable_without_isolation(tmp_path: Path, server: int) -> None:
    # The control for the test below: the connection fails because of the sandbox, not the server.
    assert _run(_connect(server), tmp_path, "none").ok


def test_isolated_command_has_no_network(tmp_path: Path, server: int, isolation: str) -> None:
    # bwrap brings up a loopback of its own (nothing listens there); unshare leaves it down.
    result = _run(_connect(server), tmp_path, isolation)
    assert result.exit_code != 0
    assert re.search(r"Connection refused|Network is unreachable", result.stderr)


def test_a_loopback_of_its_own_leaves_the_host_out_of_reach(tmp_path: Path, server: int, isolation: str) -> None:
    # PIT talks to its test JVMs over 127.0.0.1: the sandbox's own loopback works, the host's server stays away.
    script = ("import socket\nwith socket.socket() as own:\n    own.bind(('127.0.0.1', 0)); own.listen()\n"
              "    socket.create_connection(own.getsockname(), timeout=5).close()\nprint('own loopback', flush=True)\n"
              f"socket.create_connection(('127.0.0.1', {server}), timeout=5)\n")
    result = _run([os.path.realpath(sys.executable), "-c", script], tmp_path, isolation, network="loopback")
    assert result.stdout == "own loopback\n", result.stderr
    assert result.exit_code != 0 and "Connection refused" in result.stderr


def test_isolated_command_cannot_leave_processes_behind(tmp_path: Path, isolation: str) -> None:
    # setsid escapes the process-group kill; the private pid namespace still takes it down.
    marker = unique_marker()
    result = _run(["sh", "-c", f"setsid sleep {marker} & echo started"], tmp_path, isolation)
    assert result.ok and result.stdout == "started\n"
    assert pids_with(marker) == []


def test_bwrap_filesystem_is_read_only_except_the_work_dir(tmp_path: Path) -> None:
    try:
        detect_isolation("bwrap")
    except JunitbotError as e:
        pytest.skip(f"bwrap is not usable here: {e}")
    workdir, shared = tmp_path / "work", tmp_path / "classes"
    workdir.mkdir()
    shared.mkdir()
    private = f"/tmp/junitbot-sandbox-{secrets.token_hex(4)}"
    script = f"echo in > inside.txt; echo tmp > {private} && cat {private}; echo out > {shared}/escape.txt"
    result = _run(["sh", "-c", script], workdir, "bwrap", readable=[shared])
    assert (workdir / "inside.txt").read_text() == "in\n"
    assert result.stdout == "tmp\n"  # /tmp is writable inside, and private
    assert not Path(private).exists()
    assert "Read-only file system" in result.stderr
    assert not (shared / "escape.txt").exists()


def test_unshare_does_not_make_the_filesystem_read_only(tmp_path: Path) -> None:
    # Documents the weaker guarantee: under unshare a test writes wherever its user may.
    try:
        detect_isolation("unshare")
    except JunitbotError as e:
        pytest.skip(f"unshare is not usable here: {e}")
    outside = tmp_path / "outside"
    outside.mkdir()
    workdir = tmp_path / "work"
    workdir.mkdir()
    result = _run(["sh", "-c", f"echo out > {outside}/escape.txt"], workdir, "unshare", readable=[outside])
    assert result.ok
    assert (outside / "escape.txt").read_text() == "out\n"


def test_file_size_limit_stops_a_runaway_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "MAX_FILE_BYTES", 1_000_000)  # the limit is 256 MB: too much to write in a test
    result = _run(["sh", "-c", "head -c 5000000 /dev/zero > big.bin"], tmp_path, "none")
    assert not result.ok
    assert os.path.getsize(tmp_path / "big.bin") == 1_000_000

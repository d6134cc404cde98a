"""run_process: exit codes, output caps, stdin, timeouts, and no process outliving its run."""

from __future__ import annotations

import os
import secrets
import signal
import sys
import time
from pathlib import Path

import pytest

from junitbot.errors import JunitbotError
from junitbot.validation.process import run_process


def pids_with(marker: str) -> list[int]:
    """Processes whose command line contains `marker` (a unique sleep duration)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
            except (OSError, IndexError):
                continue  # gone meanwhile
            if marker.encode() in cmdline and state != "Z":
                pids.append(int(entry.name))
    return pids


def unique_marker() -> str:
    """A sleep duration no other process on the machine uses."""
    return f"1000.{secrets.randbelow(10**6):06d}"


def test_reports_exit_code_and_both_streams(tmp_path: Path) -> None:
    result = run_process(
        ["sh", "-c", "echo out; echo err >&2; pwd; exit 3"], cwd=tmp_path, timeout_s=10, max_output_bytes=1000
    )
    assert result.exit_code == 3
    assert result.stdout == f"out\n{tmp_path}\n"
    assert result.stderr == "err\n"
    assert not result.timed_out and not result.ok
    assert not result.stdout_truncated


def test_passes_env_and_stdin(tmp_path: Path) -> None:
    data = "line\n" * 100_000  # larger than a pipe buffer: stdin must be fed while output is read
    result = run_process(
        ["sh", "-c", 'echo "$GREETING"; wc -l'],
        cwd=tmp_path,
        timeout_s=10,
        env={"GREETING": "hello", "PATH": os.environ["PATH"]},
        max_output_bytes=1000,
        stdin=data,
    )
    assert result.ok
    assert result.stdout.split() == ["hello", "100000"]


def test_caps_output_keeping_head_and_tail(tmp_path: Path) -> None:
    script = "import sys; sys.stdout.write('H' * 10 + 'x' * 100_000 + 'T' * 10)"
    result = run_process([sys.executable, "-c", script], cwd=tmp_path, timeout_s=10, max_output_bytes=100)
    assert result.stdout_truncated
    assert result.stdout.startswith("H" * 10)
    assert result.stdout.endswith("T" * 10)
    assert "[... 99920 bytes of output omitted ...]" in result.stdout
    assert len(result.stdout) < 200


def test_timeout_kills_the_whole_process_tree(tmp_path: Path) -> None:
    child, grandchild = unique_marker(), unique_marker()
    started = time.monotonic()
    result = run_process(
        ["sh", "-c", f"sleep {grandchild} & sleep {child}; echo never"],
        cwd=tmp_path,
        timeout_s=1.0,
        max_output_bytes=1000,
    )
    assert result.timed_out
    assert result.exit_code == -signal.SIGKILL
    assert time.monotonic() - started < 5
    assert result.stdout == ""
    assert pids_with(child) == [] and pids_with(grandchild) == []


def test_background_children_die_when_the_command_ends(tmp_path: Path) -> None:
    # The orphan keeps stdout open: without the group kill, reading would wait for it for 1000 s.
    marker = unique_marker()
    started = time.monotonic()
    result = run_process(
        ["sh", "-c", f"sleep {marker} & echo started"], cwd=tmp_path, timeout_s=30, max_output_bytes=1000
    )
    assert result.ok and result.stdout == "started\n"
    assert time.monotonic() - started < 5
    assert pids_with(marker) == []


def test_a_descendant_that_leaves_the_group_does_not_block_the_result(tmp_path: Path) -> None:
    # setsid moves it out of reach of the group kill (the sandbox's pid namespace handles that case);
    # run_process still returns promptly instead of waiting for the pipe it holds.
    marker = unique_marker()
    started = time.monotonic()
    result = run_process(
        ["sh", "-c", f"setsid sleep {marker} & echo started"], cwd=tmp_path, timeout_s=30, max_output_bytes=1000
    )
    try:
        assert result.ok and result.stdout == "started\n"
        assert time.monotonic() - started < 5
    finally:
        for pid in pids_with(marker):
            os.kill(pid, signal.SIGKILL)


def test_missing_executable_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(JunitbotError, match=r"cannot run 'no-such-tool-xyz': no such executable"):
        run_process(["no-such-tool-xyz", "--version"], cwd=tmp_path, timeout_s=5, max_output_bytes=100)


def test_missing_working_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(JunitbotError, match=r"working directory .*/gone does not exist"):
        run_process(["true"], cwd=tmp_path / "gone", timeout_s=5, max_output_bytes=100)

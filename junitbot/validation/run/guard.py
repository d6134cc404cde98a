"""The test JVM's recording guard (java/SandboxGuard.java): its folder, options and configuration, and its log.

The OS sandbox (sandbox.py) contains a run, but a test kept because the sandbox contained it later runs without one
in the user's own CI (issue 18). The guard, a SecurityManager installed by a JUnit listener when the test plan
starts, refuses and records what a test tries: starting a process, exiting the JVM, connecting anywhere but
loopback, writing or deleting outside the run's work directory, its java.io.tmpdir and the paths it is allowed to
write, and removing the guard. It checks the operation, not its spelling, so reflection (`Class.forName("java.lang.Run"
+ "time")`) and libraries are caught alike; `read_guard_log` says which test tried what, and which was running when a
JVM died of something no guard stops (a crash, a kill). A refused exit fails that test, and the JVM goes on.

JDKs: 12 to 23 let a program install a SecurityManager only with `-Djava.security.manager=allow` (17 allows it by
default, with a warning the guard keeps off stderr); JDK 24 removed it, and `allow` would stop such a JVM from
starting. There the guard is unavailable: its log says so, the report says so, and the OS sandbox alone contains
the run (an exit then ends the JVM, and validate reruns what it took down).

Only validation's runs are guarded (`run_junit(guard=True)` from validate.py): the repository's own tests measured
for the baseline, the template generator's probes and PIT's minion JVMs (started by PIT's own launcher) run without it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import get_args

from junitbot.validation.build.helpers import compiled_helper
from junitbot.validation.run.models import GuardAction, GuardAttempt, GuardLog

log = logging.getLogger(__name__)

SECURITY_MANAGER_REMOVED = 24
"""The first JDK without a SecurityManager (JEP 486): no guard there."""

LOG_PARAMETER = "junitbot.guard.log"
ROOTS_PARAMETER = "junitbot.guard.roots"
_ALLOW_OPTION_FROM = 12  # older JVMs read java.security.manager=allow as the class name of a manager to install
_LISTENER = "SandboxGuard"
_OUT_OF_MEMORY_EXTENSION = "SandboxGuard$OutOfMemoryAsError"
_SERVICES = {"org.junit.platform.launcher.TestExecutionListener": _LISTENER,
             "org.junit.jupiter.api.extension.Extension": _OUT_OF_MEMORY_EXTENSION}
_ACTIONS = frozenset(get_args(GuardAction))


def guard_folder(launcher: Path, *, cache_dir: Path) -> Path:
    """The folder to add to a test run's class path for the guard, compiled once per cache dir and launcher."""
    return compiled_helper(_LISTENER, classpath=[launcher], cache_dir=cache_dir, folder_prefix="sandbox-guard",
                           services=_SERVICES)


def guard_jvm_options(java_version: int | None, *, tmpdir: Path) -> list[str]:
    """JVM options of a guarded run whose java is `java_version` (None: unknown) and whose temporary files go to
    `tmpdir` (inside the work dir, so that /tmp stays outside what tests may write).

    Every run allows Mockito's self-attach (`jdk.SELF_ATTACH`): without it Byte Buddy starts a helper `java`
    process, which the guard refuses.
    """
    allow = java_version is not None and _ALLOW_OPTION_FROM <= java_version < SECURITY_MANAGER_REMOVED
    return [*(["-Djava.security.manager=allow"] if allow else []), f"-Djava.io.tmpdir={tmpdir}"]


def guard_config(log_file: Path, roots: Sequence[Path], *, out_of_memory_extension: bool) -> dict[str, str]:
    """JUnit configuration of a guarded run: its log, the roots tests may write under, one test at a time (the
    guard attributes what any thread tries to the test running), and, with `out_of_memory_extension` (Jupiter 5.11
    and later, which can restrict autodetection to it), the extension that makes an OutOfMemoryError fail one test
    instead of ending the run."""
    config = {LOG_PARAMETER: str(log_file), ROOTS_PARAMETER: os.pathsep.join(str(root) for root in roots),
              "junit.jupiter.execution.parallel.enabled": "false"}
    if out_of_memory_extension:
        config |= {"junit.jupiter.extensions.autodetection.enabled": "true",
                   "junit.jupiter.extensions.autodetection.include": _OUT_OF_MEMORY_EXTENSION}
    return config


def guard_note(java_version: int | None) -> str:
    """For reports: what the guard does on that JDK, or that it is unavailable there."""
    if java_version is not None and java_version >= SECURITY_MANAGER_REMOVED:
        return (f"the recording guard is unavailable on JDK {java_version} (it has no SecurityManager): what a test "
                "tries is contained by the sandbox but not recorded, and not refused")
    return ("a recording guard in the test JVM refuses and reports process starts, exits, non-loopback connections "
            "and writes outside the work directory")


def read_guard_log(path: Path) -> GuardLog:
    """What the guard's log says: whether it was installed, what tests tried, and what was still running.

    A missing log means the listener never ran (the JVM did not start, or the guard was not on the class path). A line
    cut off by a JVM that died while writing it is left out.
    """
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return GuardLog(guarded=False, note="the guard left no log: the test JVM did not get as far as the tests")
    guarded, note = False, ""
    attempts: list[GuardAttempt] = []
    running: list[str] = []
    for line in text.split("\n")[:-1]:
        action, _, rest = line.partition("\t")
        owner, _, detail = rest.partition("\t")
        if action == "guarded":
            guarded = True
        elif action == "unavailable":
            note = f"the recording guard is unavailable: {detail}"
        elif action == "started":
            running.append(owner)
        elif action == "finished" and owner in running:
            del running[len(running) - 1 - running[::-1].index(owner)]
        elif action in _ACTIONS:
            attempts.append(GuardAttempt(owner=owner, action=action, detail=detail))
        else:
            log.debug("guard log %s: unknown line %r", path, line[:200])
    return GuardLog(guarded=guarded, note=note, attempts=tuple(attempts), running=tuple(running))

"""Records of test runs: how a test JVM launches, each test's outcome, the run's conditions, the guard's log."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field

from junitbot.config import ValidationSettings
from junitbot.records import Record

WHOLE_CLASS = "*"
"""The method of a case that stands for a whole class whose tests left no individual results."""

TestStatus = Literal["passed", "failed", "error", "skipped", "timeout", "refused"]


class TestCaseResult(Record):
    """One test method's outcome in one run."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    test_class: str
    method: str
    status: TestStatus
    message: str | None = None
    seconds: float = 0.0
    line: int | None = Field(default=None, description="the test file's line it failed at: the first stack frame "
                                                       "of the test class itself")
    detail: str | None = Field(default=None, description="the failure's or exception's whole message, uncut "
                                                         "(`message` is its short form)")


class JavaAgent(Record):
    """A Java agent beside JaCoCo's (the carver): its jar and options, the folder it reads its dependencies from
    and the files it writes, bound in the sandbox and allowed by the guard."""

    jar: Path
    options: str = ""
    reads: tuple[Path, ...] = ()
    writes: tuple[Path, ...] = ()

    @property
    def option(self) -> str:
        """The JVM option that attaches it."""
        return f"-javaagent:{self.jar}" + (f"={self.options}" if self.options else "")


class JvmLaunch(Record):
    """How a test JVM starts: its limits (the settings' heap, timeouts and output), isolation, JDK and pinned tools;
    for a JUnit run also a JaCoCo agent, more JUnit configuration, the paths it may write, the module folder it runs
    in (as Surefire's `basedir`) and whether the recording guard watches it."""

    settings: ValidationSettings
    isolation: str
    java_home: str | None = Field(default=None, description="the JDK of a module whose release is above the "
                                                            "default JDK's (`jdk.java_home_for`); None: the default")
    tools_dir: Path | None = Field(default=None, description="the pinned tools' cache (`StateDir.tools`) to take the "
                                                             "launcher from; None: the classpath's or Debian's")
    agent: str | None = Field(default=None, description="a `-javaagent:<jar>[=options]` option (JaCoCo's)")
    agents: tuple[JavaAgent, ...] = Field(default=(), description="more agents, after JaCoCo's (the carver)")
    junit_config: dict[str, str] = Field(default_factory=dict, description="more JUnit configuration parameters "
                                                                           "(`--config`), over junitbot's own")
    writable: tuple[Path, ...] = Field(default=(), description="paths outside the working directory it writes (the "
                                                               "agent's jar and destfile are bound by themselves)")
    basedir: Path | None = Field(default=None, description="the module's folder: its entries are seen, read-only, "
                                                           "from the working directory, and it is `basedir`")
    guard: bool = Field(default=False, description="run under the recording guard (guard.py)")


class RunConditions(Record):
    """The environment one repetition ran under; repetitions differ so that flakes show."""

    order: Literal["default", "name", "reversed", "random"] = "default"
    order_seed: int | None = None  # the seed of a random order
    timezone: str = "UTC"
    locale: str = "en-US"
    charset: str = "UTF-8"


class TestRunResult(Record):
    """One JVM run over a batch of test classes."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    conditions: RunConditions
    cases: tuple[TestCaseResult, ...]
    exit_code: int | None
    timed_out: bool = False
    output_tail: str = ""
    isolation: str = "none"
    seconds: float = 0.0
    launcher: str = Field(default="", description="the console launcher that ran it (ToolChoice.summary)")
    running: str | None = Field(
        default=None, description="the test ('pkg.FooTest#method') or class the guard saw running when the JVM ended "
                                  "before writing its report; None when it did not, or the run was not guarded")


GuardAction = Literal["exec", "exit", "connect", "accept", "write", "delete", "guard"]


_GUARD_WORDS: dict[str, str] = {
    "exec": "start a process: {}", "exit": "exit the JVM (status {})", "connect": "connect to {}",
    "accept": "accept a connection from {}", "write": "write outside its working directory: {}",
    "delete": "delete outside its working directory: {}", "guard": "{}",
}


class GuardAttempt(Record):
    """Something a test tried that the test JVM's guard (java/SandboxGuard.java) refused."""

    owner: str = Field(description="'pkg.FooTest#method', the class 'pkg.FooTest' for its own work (@BeforeAll, "
                                   "construction), or '' outside any test")
    action: GuardAction
    detail: str

    def describe(self) -> str:
        """What the test tried, as a verdict says it: "tried to start a process: /bin/sh"."""
        return "tried to " + _GUARD_WORDS[self.action].format(self.detail)


class GuardLog(Record):
    """What the guard's log of one test JVM says."""

    guarded: bool = Field(description="the guard was installed; False where the JVM has no SecurityManager (JDK 24+) "
                                      "or its log is missing")
    note: str = Field(default="", description="why the guard was not installed")
    attempts: tuple[GuardAttempt, ...] = ()
    running: tuple[str, ...] = Field(default=(), description="tests and classes started and not finished, "
                                                             "outermost first")

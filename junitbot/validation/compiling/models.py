"""Records of compiling: how javac runs for a module, its verdict per file and a class after the compile rounds."""

from __future__ import annotations

from pydantic import Field

from junitbot.records import Record
from junitbot.validation.models import ValidationIssue


class JavacOptions(Record):
    """How javac compiles a module's classes: its JDK, `--release`, annotation processors, the test sources a class
    may use (`-sourcepath`), and the limits of one javac call."""

    release: int | None = None
    processor_path: tuple[str, ...] = ()
    java_home: str | None = None
    source_path: tuple[str, ...] = Field(default=(), description="the module's test source folders: a class the "
                                                                 "files use that is found there is compiled with them")
    timeout_s: float = 600.0
    max_output_bytes: int = 2_000_000


class CompileResult(Record):
    """javac's verdict on one candidate file."""

    path: str
    compiled: bool
    issues: tuple[ValidationIssue, ...] = ()


class CompileOutcome(Record):
    """One test class after the compile rounds: the source that compiled (repaired, the test methods that did not
    compile removed), or why nothing of it did."""

    path: str
    source: str
    compiled: bool
    repairs: tuple[str, ...] = Field(default=(), description="deterministic repairs, one line each, round by round")
    dropped: dict[str, str] = Field(default_factory=dict, description="test method → why it was removed")
    issues: tuple[ValidationIssue, ...] = Field(
        default=(), description="javac's warnings of the class that compiled, and the errors that cost a method or it")
    failure: str | None = None

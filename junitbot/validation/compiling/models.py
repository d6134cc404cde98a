"""Records of compiling: javac's verdict per file and a class after the compile rounds."""

from __future__ import annotations

from pydantic import Field

from junitbot.records import Record
from junitbot.validation.models import ValidationIssue


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

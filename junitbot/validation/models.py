"""Records every room shares: a candidate test and the issues found in it."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import Field

from junitbot.records import Record


class Severity(StrEnum):
    ERROR = "ERROR"
    WARNING = "WARNING"
    INFO = "INFO"


class ValidationIssue(Record):
    """One finding about a candidate test; ERROR means the test cannot be kept as it is."""

    severity: Severity
    pass_name: str = Field(description="the pass or stage that found it: syntax, structure, mocking, javac, junit, ...")
    category: str = Field(description="a stable machine-readable kind, e.g. 'missing-import', 'mocked-value-type'")
    message: str
    suggestion: str | None = None
    line: int | None = None
    method: str | None = Field(default=None, description="the test method it concerns, when it concerns one")


class TestCandidate(Record):
    """A generated test class to validate: where it would live in the repo, its source and the class it tests."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    path: str
    source: str
    target: str | None = None  # None: the test names no class of the repository (validated all the same)
    written_by: Literal["junitbot", "person"] = Field(
        default="junitbot",
        description="junitbot's tests lose methods the reviewer lint condemns or that add nothing to the existing "
                    "suite; a person's tests are judged (compile, pass, findings reported) but never pruned for that")

"""Records of the reviewer lint: its rules, findings and the summary a report shows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from pydantic import Field

from junitbot.records import Record

ReviewRule = Literal[
    "npe-from-mock-default", "null-from-unstubbed-mock", "asserts-mock-return", "weak-oracle", "duplicate-body",
    "unused-variable", "unread-thrown", "unused-mock", "unused-import", "numbered-sibling", "placeholder-inputs",
]


REVIEW_RULES: tuple[ReviewRule, ...] = get_args(ReviewRule)


class ReviewFinding(Record):
    """What a maintainer would reject in review of one generated test class, at a line."""

    rule: ReviewRule
    method: str | None = Field(description="the method it concerns; None for the class (a field, an import)")
    line: int
    message: str
    drops_method: bool = Field(default=False, description="the method pins an accident or repeats another: "
                                                          "drop it rather than fix it")


class ReviewSummary(Record):
    """Findings counted per rule over one or more test classes (every rule listed, zeros included)."""

    counts: dict[ReviewRule, int]
    classes: int = Field(default=1, description="how many test classes were reviewed")

    @property
    def total(self) -> int:
        """All findings, every rule together."""
        return sum(self.counts.values())

    @property
    def line(self) -> str:
        """One line for logs and job summaries: `lint: 0 npe-from-mock-default, 2 duplicate-body, ...`."""
        return "lint: " + ", ".join(f"{self.counts.get(rule, 0)} {rule}" for rule in REVIEW_RULES)

    def markdown_rows(self) -> list[str]:
        """A markdown table of the counts, one row per rule, with its header."""
        return ["| rule | findings |", "|---|---:|",
                *(f"| `{rule}` | {self.counts.get(rule, 0)} |" for rule in REVIEW_RULES)]

    @classmethod
    def merged(cls, summaries: Iterable[ReviewSummary]) -> ReviewSummary:
        """The counts of several classes added up (a run's kept files)."""
        counts = dict.fromkeys(REVIEW_RULES, 0)
        classes = 0
        for summary in summaries:
            classes += summary.classes
            for rule, count in summary.counts.items():
                counts[rule] += count
        return cls(counts=counts, classes=classes)

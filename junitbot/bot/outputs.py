"""GitHub Actions plumbing: step outputs (GITHUB_OUTPUT), the job summary and `::warning` annotations."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath

from junitbot.runs import ChangeCheck, ClassResult

MAX_ANNOTATIONS = 50  # GitHub shows at most 10 warnings per step in the UI and 50 per job


def escape_data(text: str) -> str:
    """A workflow command's message: %, CR and LF escaped (GitHub's toolkit `escapeData`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: also `:` and `,` (the toolkit's `escapeProperty`)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, message: str, *, file: str | None = None, line: int | None = None,
               title: str | None = None) -> str:
    """`::warning file=F,line=L,title=T::message` with every part escaped."""
    properties = [f"{key}={escape_property(str(value))}"
                  for key, value in (("file", file), ("line", line), ("title", title)) if value is not None]
    return f"::{level} {','.join(properties)}::{escape_data(message)}" if properties else \
        f"::{level}::{escape_data(message)}"


def annotations_for(results: Sequence[ClassResult], *, changes: ChangeCheck | None = None,
                    limit: int = MAX_ANNOTATIONS) -> list[str]:
    """Behaviour changes first, on the changed lines of the code (else the failing test's line); then one warning
    per validation problem and per dropped test, on the generated test file."""
    lines = [*(_change_annotations(changes) if changes else ()), *_annotations(results)]
    if len(lines) > limit:
        lines = [*lines[:limit - 1], annotation("warning", f"{len(lines) - limit + 1} more validation warnings: "
                                                "see the job summary", title="junitbot")]
    return lines


def _change_annotations(check: ChangeCheck) -> Iterator[str]:
    at = f" ({check.head[:12]})" if check.head else ""
    for change in check.behaviour_changes:
        test = f"{change.test_class.rsplit('.', 1)[-1]}.{change.method}"
        message = f"{test} passed before and fails now{at}: {change.outcome}"
        title = f"junitbot: behaviour change in {change.target.rsplit('.', 1)[-1]}"
        places = change.at or ((change.test_path, change.line),)
        for file, line in places:
            yield annotation("warning", message, file=file, line=line, title=title)
    for catching in check.catching:
        yield annotation("notice", f"{PurePosixPath(catching.test_path).stem}.{catching.method} fails before this "
                         f"change ({catching.base_commit[:12]}: {catching.base_failure}) and passes after it",
                         file=catching.test_path, title="junitbot: a test that catches this change")


def _annotations(results: Sequence[ClassResult]) -> Iterator[str]:
    for result in results:
        title = f"junitbot: {result.target.rsplit('.', 1)[-1]}"
        for issue in result.issues:
            yield annotation("warning", issue, file=result.test_path, line=_line_of(issue), title=title)
        for name, why in result.dropped:
            yield annotation("warning", f"test {name} dropped: {why}", file=result.test_path, title=title)


def _line_of(issue: str) -> int | None:
    """`... line 12: ...` → 12; validation messages name a line that way when they know it."""
    marker = "line "
    at = issue.find(marker)
    if at < 0:
        return None
    digits = ""
    for char in issue[at + len(marker):]:
        if not char.isdigit():
            break
        digits += char
    return int(digits) if digits else None


def write_outputs(path: Path, values: Mapping[str, str]) -> None:
    """Append `name<<DELIMITER` blocks to GITHUB_OUTPUT: safe for any value, multiline included."""
    with path.open("a", encoding="utf-8") as out:
        for name, value in values.items():
            delimiter = f"junitbot_{uuid.uuid4().hex}"
            while delimiter in value:
                delimiter = f"junitbot_{uuid.uuid4().hex}"
            out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def append_summary(path: Path, markdown: str) -> None:
    """Append markdown to the job summary (GITHUB_STEP_SUMMARY)."""
    with path.open("a", encoding="utf-8") as out:
        out.write(markdown.rstrip() + "\n\n")

"""PR bodies, titles and comment replies, rendered from jinja2 templates; the hidden markers the bot finds itself by.

Templates ship in `junitbot/bot/templates/`; a file of the same name in the target repository's
`.junitbot/templates/` wins. They render in jinja2's sandbox: a template from a repository can format
text but cannot reach into Python.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, FileSystemLoader, PackageLoader, StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from junitbot.bot.commands import COMMANDS
from junitbot.errors import JunitbotError
from junitbot.quoting import fit_body, inline_code, markdown_cell, printable
from junitbot.records import Record
from junitbot.runs import ClassResult, RunReport, change_lines, expectation_lines

OVERRIDE_DIR = Path(".junitbot") / "templates"
FULL_REPORT = "the full report is in the job summary of the workflow run"
_PR_MARKER = re.compile(r"<!-- junitbot:pr (?P<json>\{.*?\}) -->", re.DOTALL)
_REPLY_MARKER = re.compile(r"<!-- junitbot:reply command=(?P<command>\w+) outcome=(?P<outcome>[\w-]+) -->")


class PullMarker(BaseModel):
    """What the bot writes into its PR body, hidden: the base branch and the classes with their source hashes."""

    model_config = ConfigDict(frozen=True)

    base: str
    classes: dict[str, str] = Field(default_factory=dict)


class PullRequestView(Record):
    """Everything the PR body shows; optional parts (impacts, coverage before, model) come from the caller."""

    report: RunReport
    repository: str
    base: str
    head_sha: str
    trigger: str
    command_prefix: str = "/junitbot"
    model: str | None = None
    impacts: dict[str, str] = Field(default_factory=dict)  # class → why it was chosen
    coverage_before: dict[str, float] = Field(default_factory=dict)  # class → line coverage before this PR
    files: tuple[str, ...] = ()  # test files this PR changes
    carried: tuple[str, ...] = ()  # of those, kept from earlier runs of the same PR
    declined: dict[str, int] = Field(default_factory=dict)  # class → the closed PR that declined it
    marker: PullMarker
    run_url: str | None = None  # the workflow run, whose job summary has the full report


# -- markers ------------------------------------------------------------------------------------------------


def pull_marker_text(marker: PullMarker) -> str:
    """The hidden first line of a bot PR body."""
    text = json.dumps(marker.model_dump(), sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e")
    return f"<!-- junitbot:pr {text} -->"  # a `>` only in strings (a branch `a-->b`): escaped, the comment holds


def parse_pull_marker(body: str) -> PullMarker | None:
    """The marker of a body the bot wrote, or None (a person's PR, or a body someone rewrote)."""
    match = _PR_MARKER.search(body or "")
    if match is None:
        return None
    try:
        return PullMarker.model_validate_json(match["json"])
    except ValidationError:
        return None


def reply_marker(command: str, outcome: str) -> str:
    """The hidden last line of a reply: which command, and what came of it."""
    return f"<!-- junitbot:reply command={command} outcome={outcome} -->"


def parse_reply_marker(body: str) -> tuple[str, str] | None:
    """(command, outcome) of a reply the bot wrote, or None."""
    match = _REPLY_MARKER.search(body or "")
    return (match["command"], match["outcome"]) if match else None


# -- rendering ----------------------------------------------------------------------------------------------


def template_environment(repo_root: Path | None = None) -> SandboxedEnvironment:
    """Templates from `<repo>/.junitbot/templates/` first, then the package's."""
    loaders: list[Any] = []
    if repo_root is not None and (repo_root / OVERRIDE_DIR).is_dir():
        loaders.append(FileSystemLoader(repo_root / OVERRIDE_DIR))
    loaders.append(PackageLoader("junitbot.bot", "templates"))
    env = SandboxedEnvironment(loader=ChoiceLoader(loaders), undefined=StrictUndefined, autoescape=False,
                               keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(cell=markdown_cell, percent=percent, short=short_name, code=inline_code)
    return env


def render(env: SandboxedEnvironment, name: str, **values: object) -> str:
    """Render one template; template errors (an override's too) become JunitbotErrors naming the file."""
    try:
        return env.get_template(name).render(**values)
    except TemplateError as e:
        raise JunitbotError(f"template {name}: {e}") from e


def render_pull_request(env: SandboxedEnvironment, view: PullRequestView) -> tuple[str, str]:
    """(title, body) of the bot PR; the body stays under GitHub's limit and always keeps its marker."""
    results = view.report.results
    values = {
        "view": view,
        "report": view.report,
        "results": results,
        "with_tests": [r for r in results if r.status == "kept"],
        "impacted": [(r, view.impacts.get(r.target, r.reason)) for r in results if _is_impacted(r, view.impacts)],
        "warnings": warnings_of(results),
        "dropped": [(r.target, name, why) for r in results for name, why in r.dropped],
        "timings": _timings(view.report.seconds),
        "commands": COMMANDS,
        "marker": pull_marker_text(view.marker),
        "changes": "\n".join(change_lines(view.report.changes, heading="###")) if view.report.changes else "",
        "expectations": "\n".join(expectation_lines(results, heading="###")).strip(),
    }
    title, _ = printable(render(env, "pr_title.txt.j2", **values), limit=250)
    marker = pull_marker_text(view.marker)
    body = render(env, "pr_body.md.j2", **values)
    if not body.startswith(marker):  # an override may leave it out or move it: it goes first, where no cut reaches
        body = f"{marker}\n{body.replace(marker, '')}"
    return title, fit_body(body, where=f"{FULL_REPORT} ({view.run_url})" if view.run_url else FULL_REPORT)


def render_reply(env: SandboxedEnvironment, name: str, *, command: str, outcome: str, **values: object) -> str:
    """A comment reply from `comment_<name>.md.j2`, ending with the reply marker (rate limits count those)."""
    text = render(env, f"comment_{name}.md.j2", commands=COMMANDS, **values).rstrip()
    return fit_body(text, suffix=f"\n\n{reply_marker(command, outcome)}\n")


def warnings_of(results: Sequence[ClassResult]) -> list[tuple[ClassResult, str]]:
    """Validation problems worth a reviewer's eye: error findings and dropped tests."""
    found = [(r, issue) for r in results for issue in r.issues]
    found += [(r, f"test {name} dropped: {why}") for r in results for name, why in r.dropped]
    return found


def _is_impacted(result: ClassResult, impacts: Mapping[str, str]) -> bool:
    return result.target in impacts or result.reason.startswith(("depends on", "uses "))


def _timings(seconds: Mapping[str, float]) -> str:
    return " · ".join(f"{stage} {value:.1f} s" for stage, value in seconds.items())


# -- filters -----------------------------------------------------------------------------------------------


def percent(value: float | None) -> str:
    """0.8 → `80%`; None → `–`."""
    return "–" if value is None else f"{value:.0%}"


def short_name(fqn: str) -> str:
    """`com.acme.Money` → `Money`."""
    return fqn.rsplit(".", 1)[-1]

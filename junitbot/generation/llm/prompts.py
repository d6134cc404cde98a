"""Prompt rendering: jinja2 templates shipped with junitbot, overridable per repository, rendered to chat turns.

Templates are looked up in the target repository's `.junitbot/templates/` first, then in the package's
`templates/` (`system.j2`, `generate.j2`, `repair.j2`, and the `_context.j2` macros they share). Undefined
variables are errors, so a broken override fails at once with the template's name. The result is chat
messages; a backend with a tokenizer applies its chat template (`render_chat`), a server applies its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import jinja2

from junitbot.errors import ConfigError
from junitbot.generation.llm.backends.base import ChatMessage
from junitbot.generation.llm.context import TargetContext
from junitbot.generation.output import without_file_header
from junitbot.records import Record
from junitbot.validation import ValidationIssue

OVERRIDE_DIR = Path(".junitbot") / "templates"
MAX_INSTRUCTION_CHARS = 2000  # the bot allows 500; other callers (Dagster run config) are bounded here


class RepairInput(Record):
    """What a repair prompt shows: the previous code and everything validation said about it."""

    previous_code: str
    issues: tuple[ValidationIssue, ...] = ()
    compiler: tuple[str, ...] = ()
    failures: tuple[tuple[str, str], ...] = ()
    round: int = 1
    symbols: tuple[str, ...] = ()  # outlines of the types the compile errors are about (what does exist)
    more_problems: int = 0  # problems and failing tests left out of the prompt (it must fit the model's window)
    wrong_values: bool = False  # a failing test's message states the value it expected and the one the code returned


class MissingInput(Record):
    """What a coverage round shows: the class as kept, and what it leaves untested (issue 17: TestGen-LLM's and
    Meta ACH's prompts carry the uncovered lines and the surviving mutants)."""

    kept_code: str
    uncovered: tuple[str, ...] = ()  # `line N: <source line>`, not covered or with branches missed
    mutants: tuple[str, ...] = ()  # `line N: <what PIT changed>`, mutants no test kills
    round: int = 1


def prompt_environment(repo: Path | None = None) -> jinja2.Environment:
    """The template environment: `<repo>/.junitbot/templates/` first, then the package's templates."""
    loaders: list[jinja2.BaseLoader] = []
    if repo is not None and (repo / OVERRIDE_DIR).is_dir():
        loaders.append(jinja2.FileSystemLoader(repo / OVERRIDE_DIR))
    loaders.append(jinja2.PackageLoader("junitbot.generation.llm", "templates"))
    return jinja2.Environment(loader=jinja2.ChoiceLoader(loaders), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
                              autoescape=False)  # prompts are plain text, not HTML


def generation_messages(env: jinja2.Environment, context: TargetContext, *, test_class: str,
                        skeleton: str | None, instructions: str | None = None) -> tuple[ChatMessage, ...]:
    """System rules and the generation request for one target, as chat turns."""
    user = _render(env, "generate.j2", ctx=context, test_class=test_class, skeleton=_shown(skeleton),
                   instructions=quoted_instructions(instructions))
    return (_system(env, context), ChatMessage(role="user", content=user))


def repair_messages(env: jinja2.Environment, context: TargetContext, repair: RepairInput, *, test_class: str,
                    skeleton: str | None, instructions: str | None = None) -> tuple[ChatMessage, ...]:
    """System rules and a repair request (previous code, issues, diagnostics, failures) as chat turns."""
    user = _render(env, "repair.j2", ctx=context, test_class=test_class, skeleton=_shown(skeleton),
                   previous_code=repair.previous_code, issues=repair.issues, compiler=repair.compiler,
                   failures=repair.failures, round=repair.round, symbols=repair.symbols,
                   more_problems=repair.more_problems, wrong_values=repair.wrong_values,
                   instructions=quoted_instructions(instructions))
    return (_system(env, context), ChatMessage(role="user", content=user))


def missing_messages(env: jinja2.Environment, context: TargetContext, missing: MissingInput, *, test_class: str,
                     instructions: str | None = None) -> tuple[ChatMessage, ...]:
    """System rules and a request for more tests: what the kept tests leave uncovered or let survive."""
    user = _render(env, "missing.j2", ctx=context, test_class=test_class,
                   kept_code=without_file_header(missing.kept_code), uncovered=missing.uncovered,
                   mutants=missing.mutants, round=missing.round, instructions=quoted_instructions(instructions))
    return (_system(env, context), ChatMessage(role="user", content=user))


def quoted_instructions(text: str | None) -> str | None:
    """A maintainer's free text as data for the prompt: at most MAX_INSTRUCTION_CHARS, each line quoted, no fence it
    could close, no control characters."""
    if not text or not text.strip():
        return None
    cleaned = "".join(c if c.isprintable() or c == "\n" else " " for c in text.replace("`", "'"))
    return "\n".join(f"> {line}" for line in cleaned.strip()[:MAX_INSTRUCTION_CHARS].splitlines())


def compiler_lines(issues: Sequence[ValidationIssue]) -> tuple[str, ...]:
    """javac's diagnostics among validation issues, as `line N: message` lines."""
    return tuple(f"line {i.line}: {i.message}" if i.line else i.message for i in issues if i.pass_name == "javac")


def _shown(skeleton: str | None) -> str | None:
    """The skeleton as the model sees it: without the licence and junitbot's marker (the file keeps them)."""
    return without_file_header(skeleton) if skeleton else skeleton


def _system(env: jinja2.Environment, context: TargetContext) -> ChatMessage:
    return ChatMessage(role="system", content=_render(env, "system.j2", conventions=context.conventions))


def _render(env: jinja2.Environment, name: str, **values: object) -> str:
    try:
        text = env.get_template(name).render(**values)
    except jinja2.TemplateError as e:
        where = getattr(e, "filename", None) or name
        raise ConfigError(f"prompt template {where}: {type(e).__name__}: {e}") from e
    return _tidy(text)


def _tidy(text: str) -> str:
    """At most one blank line in a row, no trailing spaces: templates stay readable, prompts stay short."""
    lines = [line.rstrip() for line in text.strip().splitlines()]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out) + "\n"

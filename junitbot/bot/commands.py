"""`/junitbot ...` commands in PR comments: parsing (quotes and code are not commands) and class-name checks."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from pydantic import Field

from junitbot.bot.models import Command, CommandName
from junitbot.errors import UnknownClassError
from junitbot.quoting import fence_after
from junitbot.records import Record

COMMANDS: dict[CommandName, str] = {
    "regenerate": "generate tests again, for the named classes or for the pull request's changes (text after `--` "
                  "guides the model)",
    "recreate": "rebuild the bot's branch from scratch, dropping commits people pushed onto it",
    "status": "show the bot's pull request for this branch and what it holds",
    "help": "list these commands",
}
MAX_COMMAND_CHARS = 4_000  # a longer command line is refused unread (issue 18: a 1.25 MB one was echoed whole)
MAX_INSTRUCTION_CHARS = 500  # instructions after `--`, cleaned; longer ones are refused, never cut (issue 17)
_QUOTE = re.compile(r"^ {0,3}>")
_CLASS_NAME = re.compile(r"^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$")
_SEPARATOR = re.compile(r"(?:^|\s)--(?:\s|$)")  # `--` as a word of its own: `Foo--bar` is no separator


def find_command(body: str, *, prefix: str = "/junitbot") -> Command | None:
    """The first command line of a comment, or None.

    A command starts a line (after at most three spaces). Lines inside fenced code blocks, indented code,
    quotes (`>`) and HTML comments are text, and so is a prefix inside inline code or mid-sentence. A command
    line longer than MAX_COMMAND_CHARS is `oversized`: its words are not read. The rest of the line after a `--`
    word is instructions (cleaned by `clean_instructions`, never split into class names); any command may
    carry them here, the conversation decides which accept them.
    """
    for line in _text_lines(body):
        words = line.split(maxsplit=2)
        if not words or words[0] != prefix:
            continue
        if len(line.strip()) > MAX_COMMAND_CHARS:
            return Command(name="oversized", line=line.strip())
        name = words[1].lower() if len(words) > 1 else "help"
        names, instructions = _split_instructions(words[2] if len(words) > 2 else "")
        return Command(name=_command_name(name), args=tuple(_split_args(names.split())), line=line.strip(),
                       instructions=instructions)
    return None


def _command_name(word: str) -> CommandName:
    for name in COMMANDS:
        if name == word:
            return name
    return "unknown"


def _text_lines(body: str) -> Iterator[str]:
    """Lines of a markdown comment that are prose: not code, not quoted, not inside an HTML comment."""
    fence: str | None = None
    in_html_comment = False
    for raw in body.replace("\r\n", "\n").split("\n"):
        before, fence = fence, fence_after(raw, fence)
        if before is not None or fence is not None:
            continue
        if in_html_comment:
            in_html_comment = "-->" not in raw
            continue
        if raw.lstrip().startswith("<!--"):
            in_html_comment = "-->" not in raw
            continue
        if _QUOTE.match(raw) or raw.startswith(("    ", "\t")):
            continue
        yield raw


def clean_instructions(text: str) -> str:
    """Free text as the model and the replies get it: invisible characters (controls, bidi overrides, zero-width
    ones) dropped, whitespace runs collapsed to one space, no space at the ends."""
    kept = "".join(char for char in text if char.isprintable() or char.isspace())
    return " ".join(kept.split())


def _split_instructions(rest: str) -> tuple[str, str | None]:
    """(the class names before a `--` word, the cleaned text after it: None without a `--`, "" with nothing)."""
    match = _SEPARATOR.search(rest)
    if match is None:
        return rest, None
    return rest[:match.start()], clean_instructions(rest[match.end():])


def _split_args(words: Iterable[str]) -> Iterator[str]:
    for word in words:
        for part in word.split(","):
            part = part.strip().strip("`")
            if part:
                yield part


class ClassCheck(Record):
    """Class names of a command, checked against the graph."""

    resolved: tuple[str, ...] = ()
    unknown: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # name -> closest matches
    ambiguous: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # name -> the classes it could mean
    invalid: tuple[str, ...] = ()  # not a Java class name at all
    too_many: bool = False

    @property
    def ok(self) -> bool:
        return not (self.unknown or self.ambiguous or self.invalid or self.too_many)


def check_classes(names: Sequence[str], lookup: Callable[[str], str], *, limit: int) -> ClassCheck:
    """Resolve each name with `lookup` (DependencyAnalyzer.lookup); a list past `limit` is refused unread."""
    if len(names) > limit:
        return ClassCheck(too_many=True)
    resolved: list[str] = []
    unknown: dict[str, tuple[str, ...]] = {}
    ambiguous: dict[str, tuple[str, ...]] = {}
    invalid = [name for name in names if not _CLASS_NAME.match(name)]
    for name in dict.fromkeys(names):
        if name in invalid:
            continue
        try:
            resolved.append(lookup(name))
        except UnknownClassError as e:
            (ambiguous if e.ambiguous else unknown)[name] = tuple(e.candidates)
    return ClassCheck(resolved=tuple(dict.fromkeys(resolved)), unknown=unknown, ambiguous=ambiguous,
                      invalid=tuple(invalid))

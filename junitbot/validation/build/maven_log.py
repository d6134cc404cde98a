"""Reading Maven's console output (pure): compiler errors per file, the first error lines, offline misses.

Maven prints each javac error twice (in the compiler's block and again in the failure summary), prefixes
lines with `[ERROR]`, sometimes doubled, and ends with boilerplate (`-> [Help 1]`, "re-run with -e") that
says nothing about this build.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from junitbot.records import Record

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_LEVEL = re.compile(r"^(?:\[(?:ERROR|FATAL)\]\s*)+")
# javac's errors as maven-compiler-plugin prints them: `[ERROR] /abs/Foo.java:[12,8] cannot find symbol`.
_COMPILER_ERROR = re.compile(r"^\[ERROR\]\s+(?P<file>\S.*?\.java):\[(?P<line>\d+)(?:,\d+)?\]\s*(?P<message>.*)$")
_BOILERPLATE = re.compile(
    r"^(?:-> \[Help \d+\]|To see the full stack trace|Re-run Maven using|For more information about the errors"
    r"|\[Help \d+\]|After correcting the problems|See dump files|COMPILATION ERROR\s*:?$"
    r"|See .*surefire-reports for the individual test results)")
# What Maven says when `-o` lacks an artifact or plugin (and the wrapper when it cannot download Maven).
_MISSING_OFFLINE = re.compile(r"in offline mode|has not been downloaded from it before|Could not resolve host"
                              r"|Temporary failure in name resolution|Network is unreachable", re.IGNORECASE)


class CompilerError(Record):
    """One javac error from a Maven build: the file as Maven named it, the line and the message."""

    file: str
    line: int
    message: str


def compiler_errors(output: str) -> tuple[CompilerError, ...]:
    """javac's errors in Maven's output, each once, in order of appearance."""
    seen: dict[tuple[str, int, str], CompilerError] = {}
    for line in _lines(output):
        match = _COMPILER_ERROR.match(line)
        if match:
            error = CompilerError(file=match["file"], line=int(match["line"]), message=match["message"].strip())
            seen.setdefault((error.file, error.line, error.message), error)
    return tuple(seen.values())


def error_lines(output: str, *, limit: int = 6) -> tuple[str, ...]:
    """Maven's first `[ERROR]` lines, without the prefix, blank lines, repeats and Maven's boilerplate."""
    found: list[str] = []
    for line in _lines(output):
        if not _LEVEL.match(line):
            continue
        text = _LEVEL.sub("", line).strip()
        if text and not _BOILERPLATE.match(text) and text not in found:
            found.append(text[:400])
            if len(found) == limit:
                break
    return tuple(found)


def missing_offline(output: str) -> str | None:
    """The line saying that an offline build lacks something it must download, or None."""
    return next((_LEVEL.sub("", line).strip()[:400] for line in _lines(output) if _MISSING_OFFLINE.search(line)),
                None)


def _lines(output: str) -> Iterator[str]:
    for line in _ANSI.sub("", output).splitlines():
        yield line.rstrip()

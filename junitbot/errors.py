"""The one exception family junitbot raises, each with a message a user can act on.

    JunitbotError                 anything the user can fix: bad input, bad state, bad arguments
    ├── ConfigError               an invalid `.junitbot.yml`, environment variable or flag (names the key)
    ├── UnknownClassError         a class name that matches no type, or several (lists the closest)
    ├── GitError                  git could not answer (not a repository, a missing commit, ...)
    ├── ToolUnavailableError      a pinned Java tool could not be fetched (no Maven, no network); callers fall back
    ├── StoreCorrupt              a SQLite state file turned out corrupt in use: set aside; writers rebuild it
    └── ClassEditError            a test class's source cannot take an edit (no complete class); also a ValueError
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class JunitbotError(Exception):
    """An error the user can act on; the CLI prints its message and exits with 1."""


class ConfigError(JunitbotError):
    """Configuration that does not validate; the message names the key and where it came from."""


class GitError(JunitbotError):
    """A git operation failed; raised from the GitPython exception that caused it."""


class ToolUnavailableError(JunitbotError):
    """A pinned Java tool (launcher, JaCoCo, PIT, Maven 3.9) is neither cached nor fetchable.

    The message says what is missing and how to provide it; callers that have a fallback (Debian's jars,
    the system Maven) catch it and say so in the report, with `reason`: why, in a line.
    """

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else (message.splitlines() or [""])[0]


class StoreCorrupt(JunitbotError):
    """A SQLite state file (graph, chunk store) that SQLite finds corrupt while using it (issue 18).

    The file is moved aside as `<name>.corrupt` when its connection closes; the writer that owns the store
    (`update_graph`, `update_index`) catches this and rebuilds from scratch, a reader's run ends with this message.
    """

    def __init__(self, message: str, *, path: Path) -> None:
        super().__init__(message)
        self.path = path


class ClassEditError(JunitbotError, ValueError):
    """An edit of a test class's source that the source cannot take, e.g. no complete top-level class.

    Callers that build the source themselves treat it as a bug; callers merging foreign code catch it and
    report the class as not merged.
    """


class UnknownClassError(JunitbotError):
    """A class name that is unknown or ambiguous; carries the closest matches."""

    def __init__(self, name: str, *, candidates: Sequence[str], ambiguous: bool = False) -> None:
        self.name = name
        self.candidates = list(candidates)
        self.ambiguous = ambiguous
        what = "is ambiguous" if ambiguous else "matches no class in the graph"
        hint = f"; did you mean: {', '.join(self.candidates)}" if self.candidates else ""
        super().__init__(f"{name!r} {what}{hint}")

"""A candidate test's file: the path it may be written to, and the class it declares (pure)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from junitbot.errors import JunitbotError
from junitbot.validation.models import TestCandidate

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)


def safe_test_path(path: str) -> PurePosixPath:
    """A candidate's repo-relative path, refused when it could escape the repo or is not a Java file."""
    candidate = PurePosixPath(path)
    if candidate.is_absolute() or ".." in candidate.parts or not path.endswith(".java") or "\\" in path:
        raise JunitbotError(f"refusing test path {path!r}: it must be a relative .java path inside the repository")
    return candidate


def test_class_name(candidate: TestCandidate) -> str:
    """The FQN of the candidate's top-level class: its package and file name."""
    match = _PACKAGE.search(candidate.source)
    stem = PurePosixPath(candidate.path).stem
    return f"{match.group(1)}.{stem}" if match else stem

"""Where generated tests live, who owns them, and how they start: the repository's licence header, then a
marker line saying junitbot wrote the file.

A file without the marker belongs to a person and is never touched. A file with it is regenerated, and
deleted when its class is gone (a renamed class gets a new test under its new name). The marker follows
the licence header that most of the repository's files carry (Apache RAT fails a build on a file without
it), so it is looked for in the comments before the first line of code, never further.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

from junitbot import __version__
from junitbot.analysis import CodeGraph
from junitbot.analysis.marker import MARKER, MARKER_LINE, MAX_HEADER_LINES, generated_target, opening_comments
from junitbot.atomic import write_atomically
from junitbot.errors import JunitbotError
from junitbot.records import Record

# A header is a licence or copyright notice when it says so; a plain comment is not put on every file.
_LICENCE_WORDS = re.compile(r"licen[cs]e|copyright|\(c\)|©|SPDX-License-Identifier|all rights reserved", re.I)
_YEARS = re.compile(r"\b(?:19|20)\d\d\b")
_CODE = re.compile(r"^\s*(?:package|import)\b")
_SAMPLE_FILES = 400


class WriteOutcome(Record):
    """What happened to one test file: written, unchanged, refused (a person's file) or deleted."""

    path: str
    action: str
    reason: str | None = None


def marker_line(target: str, commit: str | None) -> str:
    """The first line of every generated test; removing it hands the file over to a person."""
    at = f" at {commit[:12]}" if commit else ""
    return (f"// {MARKER} {__version__} for {target}{at}. Edits are overwritten; "
            "delete this line to keep the file as your own.")


def file_header(target: str, commit: str | None, licence: str | None) -> str:
    """How every generated test starts: the repository's licence header (if any), then the marker line."""
    marker = marker_line(target, commit)
    return f"{licence.rstrip()}\n{marker}" if licence else marker


def with_file_header(source: str, header: str) -> str:
    """`source` starting with `header` instead of the comments it opened with (a model's own header)."""
    return f"{header.rstrip()}\n{without_file_header(source)}"


def without_file_header(source: str) -> str:
    """`source` without the comments it opens with (a licence, junitbot's marker): tokens a prompt need not spend."""
    skip = sum(1 for _ in opening_comments(source))
    return "".join(source.splitlines(keepends=True)[skip:]).lstrip("\n")


def leading_comment(text: str) -> str | None:
    """The comment block a Java file opens with before its package or imports (its licence header, mostly).

    Lines keep their text without trailing spaces; junitbot's marker and what follows it are not part of
    it. None when the file opens with code, or the comments are not followed by `package` or `import`.
    """
    lines: list[str] = []
    for line, in_block in opening_comments(text):
        if not in_block and MARKER_LINE.match(line.strip()):
            break
        lines.append(line.rstrip())
    while lines and not lines[-1]:
        lines.pop()
    body = text.lstrip("\ufeff").splitlines()
    after = body[sum(1 for _ in opening_comments(text)):]
    follows = next((line for line in after if line.strip() and not MARKER_LINE.match(line.strip())), "")
    if not lines or len(lines) > MAX_HEADER_LINES or not _CODE.match(follows):
        return None
    return "\n".join(lines)


def common_header(texts: Iterable[str]) -> str | None:
    """The licence header most of `texts` open with, the same modulo years and spacing (pure).

    None when no header is shared by more than half the files, or the shared one is no licence or
    copyright notice. Of the variants (years differ) the most common is returned.
    """
    counted = 0
    groups: dict[str, Counter[str]] = {}
    for text in texts:
        counted += 1
        header = leading_comment(text)
        if header is not None:
            groups.setdefault(_normal(header), Counter())[header] += 1
    if not groups:
        return None
    key, variants = max(groups.items(), key=lambda item: (item[1].total(), item[0]))
    if variants.total() * 2 <= counted or not _LICENCE_WORDS.search(key):
        return None
    return max(variants.items(), key=lambda item: (item[1], item[0]))[0]


def licence_header(graph: CodeGraph) -> str | None:
    """The licence header of the repository's Java files (main and test, as indexed), once per run.

    junitbot's own tests are left out: they say nothing about the team's files. Large repositories are
    sampled evenly (a header is on nearly every file or it is not the rule).
    """
    paths = [path for test in (False, True) for path, _ in graph.source_files(test=test)]
    step = max(1, len(paths) // _SAMPLE_FILES)
    texts = (text for text in ((graph.source(p) or b"").decode("utf-8", "replace") for p in paths[::step])
             if generated_target(text) is None)
    return common_header(texts)


def _normal(header: str) -> str:
    """A header without its years and with single spaces, so files of different years compare equal."""
    return "\n".join(" ".join(_YEARS.sub("YEAR", line).split()) for line in header.splitlines())


def test_path(target: str, package: str, source_file: str, *, suffix: str) -> str:
    """`src/main/java/a/b/Foo.java` → `src/test/java/a/b/FooGeneratedTest.java` (nested: `OuterInner...`)."""
    source = PurePosixPath(source_file)
    package_path = package.replace(".", "/")
    root = str(source.parent)
    if package_path and root.endswith(package_path):
        root = root[: -len(package_path)].rstrip("/")
    if "/main/" in f"/{root}/":
        test_root = ("/" + root + "/").replace("/main/", "/test/", 1).strip("/")
    else:
        test_root = str(PurePosixPath(root).parent / "test" / "java") if root else "src/test/java"
    simple = target[len(package) + 1:] if package and target.startswith(package + ".") else target
    name = simple.replace(".", "") + suffix
    return str(PurePosixPath(test_root) / package_path / f"{name}.java")


PERSON_S_FILE = "a test without junitbot's marker exists there"


def person_s_file(root: Path, relative: str) -> bool:
    """Whether a file without junitbot's marker (a person's) is at `relative`: junitbot never writes over it."""
    return _is_person_s(_existing(_inside(root, relative)))


def _existing(path: Path) -> str | None:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else None


def _is_person_s(existing: str | None) -> bool:
    return existing is not None and generated_target(existing) is None


def write_tests(root: Path, files: Mapping[str, str]) -> list[WriteOutcome]:
    """Write each generated test unless a person owns that path; atomically, so no file is half-written."""
    outcomes = []
    for relative, source in sorted(files.items()):
        path = _inside(root, relative)
        existing = _existing(path)  # read once: whose it is, and whether it would change
        if _is_person_s(existing):
            outcomes.append(WriteOutcome(path=relative, action="refused", reason=PERSON_S_FILE))
            continue
        if existing is not None and _same_tests(existing, source):
            # Only the marker's commit differs: rewriting would churn the pull request for nothing.
            outcomes.append(WriteOutcome(path=relative, action="unchanged"))
            continue
        write_atomically(path, source)
        outcomes.append(WriteOutcome(path=relative, action="written"))
    return outcomes


def _same_tests(existing: str, source: str) -> bool:
    """The same file but for the commit the marker line names."""
    def unmarked(text: str) -> list[str]:
        return [f"marker {match['target']}" if (match := MARKER_LINE.match(line.strip())) else line
                for line in text.splitlines()]
    return existing == source or unmarked(existing) == unmarked(source)


def remove_orphans(root: Path, test_files: Iterable[str], existing_classes: set[str]) -> list[WriteOutcome]:
    """Delete generated tests whose class no longer exists (deleted or renamed)."""
    outcomes = []
    for relative in sorted(test_files):
        path = _inside(root, relative)
        if not path.is_file():
            continue
        target = generated_target(path.read_text(encoding="utf-8", errors="replace"))
        if target is not None and target not in existing_classes:
            path.unlink()
            outcomes.append(WriteOutcome(path=relative, action="deleted", reason=f"{target} no longer exists"))
    return outcomes


def _inside(root: Path, relative: str) -> Path:
    candidate = PurePosixPath(relative)
    if candidate.is_absolute() or ".." in candidate.parts:
        raise JunitbotError(f"refusing to write {relative!r}: outside the repository")
    return root / candidate



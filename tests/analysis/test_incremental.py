"""Incremental indexing leaves the same graph as a full rebuild: after any commits, work-tree edits or crashes.

The invariant under test: whatever happened to a repository since the last `update_graph`, the graph that
an incremental update leaves equals the graph `update_graph(..., full=True)` builds into a fresh state
directory at the same moment. Equal means the same node-link document, the same `ClassInfo` for every
node, the same counts and problems, and the same rows in every table of graph.sqlite (files with their
facts, types, edges and the bookkeeping later updates rely on), apart from run metadata and stat data.

Three kinds of tests check it:
  * a hypothesis property test over generated commit histories of the bundled example repository;
  * specific histories where name resolution changes (a class shadows a wildcard import, a class moves
    or disappears), history is rewritten, analysis settings change, or there is no git at all;
  * kill safety: a run that dies halfway (an exception, or SIGKILL in a subprocess) leaves the previous
    graph intact and usable, and the next run catches up to the full-rebuild result.

Several specific tests began as reproductions of bugs this invariant exposed (a tracked file deleted
from the work tree, gitignored and racily-clean files, nondeterministic call order, a leaked scratch file).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import junitbot.analysis.graph as graph_module
import junitbot.analysis.indexer as indexer
from junitbot.analysis import (
    ClassInfo,
    CodeGraph,
    GraphDocument,
    IndexSummary,
    extract_file,
    graph_document,
    update_graph,
)
from junitbot.analysis.changes import open_checkout
from junitbot.config import JunitbotConfig, load_config
from junitbot.state import StateDir
from tests.conftest import EXAMPLE, PROJECT

MAIN = "src/main/java/com/acme/shop"
APPLICATION_ORDER = "package com.acme.shop.application;\n\npublic class Order {\n}\n"

# -- git and file helpers -------------------------------------------------------------------------------


def git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run git in `root` (identity and config come from conftest's isolated environment)."""
    return subprocess.run(["git", *args], cwd=root, check=check, capture_output=True, text=True)


def commit_everything(root: Path, message: str) -> str:
    """Stage everything, deletions included, and commit; returns the new HEAD."""
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").stdout.strip()


def make_shop_repo(root: Path) -> Path:
    """A copy of examples/shop as a git repository with one commit."""
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    git(root, "init", "-q", "--initial-branch=main")
    commit_everything(root, "shop: initial import")
    return root


def config_of(root: Path) -> JunitbotConfig:
    return load_config(root, environ={})


def read_text(path: Path) -> str:
    """File text that round-trips any bytes (latin-1 sources included) through `write_text`."""
    return path.read_bytes().decode("utf-8", "surrogateescape")


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


def java_files(root: Path) -> list[str]:
    """Every regular .java file in the work tree, repo-relative, sorted (what operations pick targets from)."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.java")
                  if ".git" not in p.parts and p.is_file() and not p.is_symlink())


# -- comparing graphs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GraphSnapshot:
    """Everything a graph holds that must not depend on how it was built, as comparable text."""

    document: str
    class_infos: dict[str, str]
    samples: dict[str, str]
    counts: tuple[int, int, int]
    problems: tuple[str, ...]
    tables: dict[str, list[str]]
    commit: str | None


# Where the two builds may rightly differ: run metadata (start time, ...), and the stat data of a file
# whose content an incremental run hashed and found unchanged (it keeps the stat data of its last parse).
_SKIPPED_TABLES = {"meta"}
_SKIPPED_COLUMNS = {"files": {"size", "mtime_ns"}}


def _comparable(value: object) -> object:
    """A column value as JSON can hold it (blobs by their hash)."""
    return f"blob sha256 {hashlib.sha256(value).hexdigest()}" if isinstance(value, bytes) else value


def _table_rows(db: Path) -> dict[str, list[str]]:
    """Every row of every table (whatever the schema), sorted, without the run-specific columns."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables: dict[str, list[str]] = {}
        names = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in sorted(set(names) - _SKIPPED_TABLES):
            skipped = _SKIPPED_COLUMNS.get(table, set())
            columns = [r[1] for r in connection.execute(f"PRAGMA table_info({table})") if r[1] not in skipped]
            rows = connection.execute(f"SELECT {', '.join(columns)} FROM {table}")
            tables[table] = sorted(json.dumps(dict(zip(columns, map(_comparable, row), strict=True)))
                                   for row in rows)
        return tables
    finally:
        connection.close()


def _call_samples(graph: CodeGraph, info: ClassInfo) -> str:
    """Every call sample of the type's constructors and methods, accepted and rejected, as the query gives them."""
    members = {("<init>" if m.kind == "constructor" else m.name, len(m.parameters))
               for m in (*info.constructors, *info.methods)}
    return json.dumps([[s.model_dump(mode="json") for s in graph.call_samples(info.fqn, name, arity, throws=throws)]
                       for name, arity in sorted(members) for throws in (False, True)])


def snapshot(db: Path) -> GraphSnapshot:
    with CodeGraph.open(db) as graph:
        document = graph_document(graph)
        class_infos: dict[str, str] = {}
        samples: dict[str, str] = {}
        for node in document.nodes:
            info = graph.class_info(node.fqn)
            assert info is not None, f"node {node.fqn} has no ClassInfo"
            class_infos[node.fqn] = info.model_dump_json()
            samples[node.fqn] = _call_samples(graph, info)
        counts = graph.counts()
        problems = tuple(p.model_dump_json() for p in graph.problems())
        commit = graph.commit
    return GraphSnapshot(document.model_dump_json(), class_infos, samples, counts, problems, _table_rows(db),
                         commit)


def _document_difference(actual: str, expected: str) -> str:
    got = GraphDocument.model_validate_json(actual)
    want = GraphDocument.model_validate_json(expected)
    lines = []
    if got.commit != want.commit:
        lines.append(f"commit {got.commit} != {want.commit}")
    for label, mine, theirs in (("nodes", set(got.nodes), set(want.nodes)), ("edges", set(got.edges), set(want.edges))):
        lines += [f"  {label} only incremental: {x}" for x in sorted(mine - theirs, key=repr)[:20]]
        lines += [f"  {label} only full rebuild: {x}" for x in sorted(theirs - mine, key=repr)[:20]]
    return "\n".join(lines)


def _text_difference(key: str, mine: str, theirs: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), min(len(mine), len(theirs)))
    window = slice(max(0, at - 300), at + 300)
    return f"{key}, from character {at}:\n  incremental: ...{mine[window]}\n  full:        ...{theirs[window]}"


def _table_difference(actual: dict[str, list[str]], expected: dict[str, list[str]]) -> str:
    if actual.keys() != expected.keys():
        return f"tables {sorted(actual)} != {sorted(expected)}"
    table = next(t for t in sorted(actual) if actual[t] != expected[t])
    mine, theirs = set(actual[table]), set(expected[table])
    lines = [f"table {table!r}:"]
    lines += [f"  only incremental: {row[:400]}" for row in sorted(mine - theirs)[:8]]
    lines += [f"  only full rebuild: {row[:400]}" for row in sorted(theirs - mine)[:8]]
    return "\n".join(lines)


def assert_same_graph(actual: GraphSnapshot, expected: GraphSnapshot, context: str) -> None:
    """Raise AssertionError with a readable account of the first way the two graphs differ."""
    if actual.document != expected.document:
        raise AssertionError(f"{context}: graph documents differ\n"
                             f"{_document_difference(actual.document, expected.document)}")
    if actual.class_infos != expected.class_infos:
        fqn = next(k for k in sorted(actual.class_infos) if actual.class_infos[k] != expected.class_infos[k])
        raise AssertionError(f"{context}: ClassInfo differs for "
                             f"{_text_difference(fqn, actual.class_infos[fqn], expected.class_infos[fqn])}")
    if actual.samples != expected.samples:
        fqn = next(k for k in sorted(actual.samples) if actual.samples[k] != expected.samples.get(k))
        raise AssertionError(f"{context}: call samples differ for "
                             f"{_text_difference(fqn, actual.samples[fqn], expected.samples.get(fqn, ''))}")
    if actual.counts != expected.counts:
        raise AssertionError(f"{context}: counts {actual.counts} != full rebuild's {expected.counts}")
    if actual.problems != expected.problems:
        raise AssertionError(f"{context}: problems differ\n  incremental: {actual.problems}\n"
                             f"  full:        {expected.problems}")
    if actual.tables != expected.tables:
        raise AssertionError(f"{context}: stored rows differ; {_table_difference(actual.tables, expected.tables)}")
    if actual.commit != expected.commit:
        raise AssertionError(f"{context}: commit {actual.commit} != {expected.commit}")


def summary_counts(summary: IndexSummary) -> tuple[int, int, int]:
    return summary.files, summary.classes, summary.edges


def full_rebuild_snapshot(root: Path, config: JunitbotConfig) -> tuple[IndexSummary, GraphSnapshot]:
    """A full rebuild of the work tree as it is now, into a throw-away state directory."""
    with tempfile.TemporaryDirectory(prefix="junitbot-full-") as scratch:
        state = StateDir(Path(scratch) / "state")
        summary = update_graph(root, state, config, full=True)
        return summary, snapshot(state.graph_db)


def update_and_compare(
    root: Path, state: StateDir, config: JunitbotConfig | None = None, *, context: str = ""
) -> IndexSummary:
    """Run `update_graph` into `state`, then check its graph against a full rebuild at the same moment."""
    config = config or config_of(root)
    summary = update_graph(root, state, config)
    full_summary, expected = full_rebuild_snapshot(root, config)
    assert_same_graph(snapshot(state.graph_db), expected, context or summary.reason)
    assert summary_counts(summary) == summary_counts(full_summary), context
    assert summary.problems == full_summary.problems, context
    assert summary.source_roots == full_summary.source_roots, context
    return summary


def dependencies_of(state: StateDir, fqn: str) -> set[str]:
    with CodeGraph.open(state.graph_db) as graph:
        return {target for target, _ in graph.dependencies(fqn)}


def edge_targets(state: StateDir) -> set[str]:
    with CodeGraph.open(state.graph_db) as graph:
        return {edge.target for edge in graph.edges()}


# -- generated histories ----------------------------------------------------------------------------------

PACKAGES = ("com.acme.shop.domain", "com.acme.shop.domain.port", "com.acme.shop.application",
            "com.acme.shop.infrastructure")
# Money, Order, Customer and OrderId exist in com.acme.shop.domain: a new one elsewhere shadows or competes.
CLASS_NAMES = ("Money", "Order", "Customer", "OrderId", "Ledger", "Coupon")
# Member types: Money.Builder exists; new classes may declare Entry or Builder, which subclasses inherit.
MEMBER_NAMES = ("Entry", "Builder")
SUPERTYPES = ("Money", "Order", "Ledger", "Coupon", "Customer", "DomainException", "Ledger.Entry",
              "com.acme.shop.application.Ledger")
TYPE_NAMES = ("Money", "Order", "Customer", "OrderId", "Ledger", "Coupon", "Entry", "Builder", "Ledger.Entry",
              "Money.Builder", "com.acme.shop.domain.Money", "com.acme.shop.application.Money",
              "java.util.List<Order>", "Optional<Coupon>", "Money[]")
IMPORTS = ("com.acme.shop.domain.*", "com.acme.shop.application.*", "com.acme.shop.infrastructure.*",
           "com.acme.shop.domain.Order", "com.acme.shop.application.Order", "com.acme.shop.infrastructure.Ledger")


@dataclass(frozen=True)
class AddClass:
    """Write src/main/java/<package>/<name>.java (replacing it if it exists)."""

    package: str
    name: str
    superclass: str | None
    member: str | None  # a static member type
    field_types: tuple[str, ...]
    imports: tuple[str, ...]
    latin1: bool  # ISO-8859-1 bytes in a comment, so the file is not valid UTF-8
    declared_package: str | None  # another package than the folder's (a misplaced type), or "" for none


@dataclass(frozen=True)
class AddField:
    target: int  # an index into the sorted list of .java files, modulo its length
    type_name: str


@dataclass(frozen=True)
class AddMethod:
    target: int
    type_name: str
    static_call_on: str | None


@dataclass(frozen=True)
class RemoveMethod:
    target: int
    which: int


@dataclass(frozen=True)
class AddImport:
    target: int
    name: str


@dataclass(frozen=True)
class AddLiteralCall:
    """A method calling `owner` with literal-only arguments (mined as call samples): a constructor, a static
    call, an instance call on a local, with a constant and a nested call of `other`."""

    target: int
    owner: str
    other: str
    rejected: bool  # inside `assertThrows(.., () -> ..)`


@dataclass(frozen=True)
class SetSuperclass:
    """Replace (or drop) the `extends` clause of the file's first class declaration."""

    target: int
    superclass: str | None


@dataclass(frozen=True)
class AddLocalClass:
    """A method declaring a local class, which hides any repo type of that name inside the method."""

    target: int
    name: str


@dataclass(frozen=True)
class MoveFile:
    """Move to another package (package line updated) and/or another class name; with git mv or plain mv."""

    target: int
    package: str | None
    new_name: str | None
    staged: bool


@dataclass(frozen=True)
class DeleteFile:
    """git rm, or a plain rm that leaves the deletion unstaged."""

    target: int
    staged: bool


@dataclass(frozen=True)
class BreakSyntax:
    target: int
    variant: int


@dataclass(frozen=True)
class IgnoreFile:
    """Add the file's name to .gitignore (which hides it only while it is untracked)."""

    target: int


@dataclass(frozen=True)
class AddSymlink:
    """A .java symlink to another source file (recorded as skipped, never parsed)."""

    target: int


Operation = (AddClass | AddField | AddMethod | RemoveMethod | AddImport | SetSuperclass | AddLocalClass | MoveFile
             | DeleteFile | BreakSyntax | IgnoreFile | AddSymlink | AddLiteralCall)
StepKind = Literal["commit", "worktree", "stage", "discard"]


@dataclass(frozen=True)
class Step:
    """Operations, then: commit them; leave them in the work tree; stage them; or index and then discard them."""

    kind: StepKind
    operations: tuple[Operation, ...]


_targets = st.integers(min_value=0, max_value=10_000)
_operations: st.SearchStrategy[Operation] = st.one_of(
    st.builds(
        AddClass,
        package=st.sampled_from(PACKAGES),
        name=st.sampled_from(CLASS_NAMES),
        superclass=st.none() | st.sampled_from(SUPERTYPES),
        member=st.none() | st.sampled_from(MEMBER_NAMES),
        field_types=st.lists(st.sampled_from(TYPE_NAMES), max_size=3).map(tuple),
        imports=st.lists(st.sampled_from(IMPORTS), max_size=2, unique=True).map(tuple),
        latin1=st.booleans(),
        declared_package=st.none() | st.none() | st.sampled_from(("", *PACKAGES)),
    ),
    st.builds(AddField, target=_targets, type_name=st.sampled_from(TYPE_NAMES)),
    st.builds(AddMethod, target=_targets, type_name=st.sampled_from(TYPE_NAMES),
              static_call_on=st.none() | st.sampled_from(CLASS_NAMES)),
    st.builds(RemoveMethod, target=_targets, which=st.integers(min_value=0, max_value=50)),
    st.builds(AddImport, target=_targets, name=st.sampled_from(IMPORTS)),
    st.builds(AddLiteralCall, target=_targets, owner=st.sampled_from(CLASS_NAMES), other=st.sampled_from(CLASS_NAMES),
              rejected=st.booleans()),
    st.builds(SetSuperclass, target=_targets, superclass=st.none() | st.sampled_from(SUPERTYPES)),
    st.builds(AddLocalClass, target=_targets, name=st.sampled_from(CLASS_NAMES)),
    st.builds(MoveFile, target=_targets, package=st.none() | st.sampled_from(PACKAGES),
              new_name=st.none() | st.sampled_from(CLASS_NAMES), staged=st.booleans()),
    st.builds(DeleteFile, target=_targets, staged=st.booleans()),
    st.builds(BreakSyntax, target=_targets, variant=st.integers(min_value=0, max_value=2)),
    st.builds(IgnoreFile, target=_targets),
    st.builds(AddSymlink, target=_targets),
)
_operation_lists = st.lists(_operations, min_size=1, max_size=3).map(tuple)


@st.composite
def histories(draw: st.DrawFn) -> list[Step]:
    """1-4 commits, some preceded by indexed work-tree edits (left unstaged, staged, or discarded)."""
    steps: list[Step] = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        if draw(st.integers(min_value=0, max_value=2)) == 0:
            kind: StepKind = draw(st.sampled_from(("worktree", "stage", "discard")))
            steps.append(Step(kind, draw(_operation_lists)))
        steps.append(Step("commit", draw(_operation_lists)))
    if draw(st.booleans()):
        steps.append(Step("worktree", draw(_operation_lists)))
    return steps


def _pick(root: Path, target: int) -> str:
    files = java_files(root)
    return files[target % len(files)]


def _insert_member(text: str, member: str) -> str:
    """Add a member before the last closing brace (the top-level type's, in a well-formed file)."""
    end = text.rfind("}")
    return text + member if end < 0 else text[:end] + member + text[end:]


def _class_source(op: AddClass) -> str:
    package = op.package if op.declared_package is None else op.declared_package
    imports = "".join(f"import {name};\n" for name in op.imports)
    extends = f" extends {op.superclass}" if op.superclass else ""
    fields = "".join(f"    private {t} field{i};\n" for i, t in enumerate(op.field_types))
    inner = op.field_types[0] if op.field_types else "Money"
    member = f"    public static class {op.member} {{\n        private {inner} inner;\n    }}\n" if op.member else ""
    comment = "// Prix en \u00e9uros, r\u00e9sum\u00e9 \u00e0 la caisse\n" if op.latin1 else ""
    package_line = f"package {package};\n\n" if package else ""
    return (f"{package_line}{imports}\n{comment}public class {op.name}{extends} {{\n{fields}{member}"
            f"    public static {op.name} of() {{\n        return new {op.name}();\n    }}\n}}\n")


_CLASS_HEADER = re.compile(
    r"^[ \t]*(?:(?:public|protected|private|abstract|final|static|sealed|non-sealed)\s+)*class\s+\w+(?:\s*<[^{}]*?>)?",
    re.MULTILINE)


def _set_superclass(text: str, superclass: str | None) -> str:
    header = _CLASS_HEADER.search(text)
    brace = text.find("{", header.end()) if header else -1
    if header is None or brace < 0:
        return text
    rest = re.sub(r"\s+extends\s+[\w.]+(?:\s*<[^{}]*?>)?", "", text[header.end():brace], count=1)
    extends = f" extends {superclass}" if superclass else ""
    return text[:header.end()] + extends + rest + text[brace:]


def _remove_method(path: Path, which: int) -> None:
    data = path.read_bytes()
    facts = extract_file(data, path.name)
    spans = sorted({(m.span.start_byte, m.span.end_byte) for c in facts.classes for m in (*c.methods, *c.constructors)
                    if m.span is not None and m.synthetic is None})
    if spans:
        start, end = spans[which % len(spans)]
        path.write_bytes(data[:start] + data[end:])


def _move(root: Path, rel: str, package: str | None, new_name: str | None, *, staged: bool) -> None:
    old_name = rel.rsplit("/", 1)[-1].removesuffix(".java")
    source_root = rel.split("/java/", 1)[0] + "/java" if "/java/" in rel else rel.rsplit("/", 1)[0]
    folder = f"{source_root}/{package.replace('.', '/')}" if package else rel.rsplit("/", 1)[0]
    name = new_name or old_name
    if package is None and name == old_name:
        name = f"{old_name}Renamed"
    while (root / folder / f"{name}.java").exists():
        name += "2"
    dest = f"{folder}/{name}.java"
    text = read_text(root / rel)
    if package is not None:
        text = re.sub(r"^package\s+[\w.]+\s*;", f"package {package};", text, count=1, flags=re.MULTILINE)
    text = re.sub(rf"\b{re.escape(old_name)}\b", name, text)
    (root / dest).parent.mkdir(parents=True, exist_ok=True)
    if not staged or git(root, "mv", rel, dest, check=False).returncode != 0:  # plain mv, or an untracked file
        os.replace(root / rel, root / dest)
    write_text(root / dest, text)


def apply_operation(root: Path, op: Operation, serial: Iterator[int]) -> None:
    match op:
        case AddClass():
            path = root / "src/main/java" / op.package.replace(".", "/") / f"{op.name}.java"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(_class_source(op).encode("latin-1" if op.latin1 else "utf-8"))
        case AddField(target=target, type_name=type_name):
            path = root / _pick(root, target)
            write_text(path, _insert_member(read_text(path), f"\n    private {type_name} added{next(serial)};\n"))
        case AddMethod(target=target, type_name=t, static_call_on=owner):
            path = root / _pick(root, target)
            call = f"        {owner}.of();\n" if owner else ""
            method = (f"\n    public {t} added{next(serial)}({t} value) {{\n{call}        {t} local = value;\n"
                      f"        return local;\n    }}\n")
            write_text(path, _insert_member(read_text(path), method))
        case AddLiteralCall(target=target, owner=owner, other=other, rejected=rejected):
            path = root / _pick(root, target)
            n = next(serial)
            static = f"{owner}.of(\"v{n}\", -{n}L, {other}.DEFAULT, new {other}(\"n{n}\"))"
            call = f"assertThrows(IllegalArgumentException.class, () -> {static})" if rejected else static
            method = (f"\n    void literal{n}() {{\n        new {owner}(\"c{n}\", {n});\n        {call};\n"
                      f"        {owner} local = null;\n        local.apply('x', 2.5);\n    }}\n")
            write_text(path, _insert_member(read_text(path), method))
        case SetSuperclass(target=target, superclass=superclass):
            path = root / _pick(root, target)
            write_text(path, _set_superclass(read_text(path), superclass))
        case AddImport(target=target, name=name):
            path = root / _pick(root, target)
            text, found = re.subn(r"^(package\s+[\w.]+\s*;)", rf"\1\nimport {name};", read_text(path), count=1,
                                  flags=re.MULTILINE)
            write_text(path, text if found else f"import {name};\n{text}")
        case RemoveMethod(target=target, which=which):
            _remove_method(root / _pick(root, target), which)
        case AddLocalClass(target=target, name=name):
            path = root / _pick(root, target)
            method = (f"\n    void local{next(serial)}() {{\n        class {name} {{\n        }}\n"
                      f"        Object made = new {name}();\n    }}\n")
            write_text(path, _insert_member(read_text(path), method))
        case MoveFile(target=target, package=package, new_name=new_name, staged=staged):
            _move(root, _pick(root, target), package, new_name, staged=staged)
        case DeleteFile(target=target, staged=staged):
            rel = _pick(root, target)
            if not staged or git(root, "rm", "-q", "-f", rel, check=False).returncode != 0:  # or untracked
                (root / rel).unlink()
        case IgnoreFile(target=target):
            with (root / ".gitignore").open("a", encoding="utf-8") as ignore:
                ignore.write(_pick(root, target).rsplit("/", 1)[-1] + "\n")
        case AddSymlink(target=target):
            rel = _pick(root, target)
            link = root / f"{rel.removesuffix('.java')}Link{next(serial)}.java"
            link.symlink_to((root / rel).name)
        case BreakSyntax(target=target, variant=variant):
            path = root / _pick(root, target)
            text = read_text(path)
            broken = (_insert_member(text, "\n    int broken = ;\n"), text[: text.rfind("}")],
                      text + "\n@@ class {\n")[variant]
            write_text(path, broken)


def run_history(steps: Sequence[Step], workdir: Path) -> None:
    root = make_shop_repo(workdir / "shop")
    state = StateDir(workdir / "state")
    config = config_of(root)
    assert not update_graph(root, state, config).incremental
    serial = itertools.count()
    for number, step in enumerate(steps):
        for op in step.operations:
            apply_operation(root, op, serial)
        if step.kind == "commit":
            commit_everything(root, f"step {number}")
        elif step.kind == "stage":
            git(root, "add", "-A")
        context = f"after step {number} ({step.kind})"
        summary = update_and_compare(root, state, config, context=context)
        assert summary.incremental, f"{context}: {summary.reason}"
        if step.kind == "discard":
            git(root, "reset", "-q", "--hard")
            git(root, "clean", "-q", "-f", "-d")
            summary = update_and_compare(root, state, config, context=f"{context}, discarded")
            assert summary.incremental, summary.reason


# The snapshots' class infos re-extract every file's members from its stored source, twice a step (the incremental
# graph and the full rebuild); extraction is a pure function of the bytes, so the property test asks it once per
# content. The indexing under test extracts as it always does.
_extracted_members = functools.lru_cache(maxsize=2048)(extract_file)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=histories())
def test_incremental_update_equals_full_rebuild_after_any_history(steps: list[Step]) -> None:
    with tempfile.TemporaryDirectory(prefix="junitbot-history-") as workdir, \
            mock.patch.object(graph_module, "extract_file", _extracted_members):
        run_history(steps, Path(workdir))


# -- specific histories ---------------------------------------------------------------------------------


@pytest.fixture
def indexed_shop(shop_repo: Path, tmp_path: Path) -> tuple[Path, StateDir]:
    """The example repository with its graph built (fully) into a state directory outside it."""
    state = StateDir(tmp_path / "state")
    assert not update_graph(shop_repo, state, config_of(shop_repo)).incremental
    return shop_repo, state


def test_same_package_class_shadows_a_wildcard_import(indexed_shop: tuple[Path, StateDir]) -> None:
    root, state = indexed_shop
    query_service = "com.acme.shop.application.OrderQueryService"
    assert "com.acme.shop.domain.Order" in dependencies_of(state, query_service)  # via `import ...domain.*;`
    assert "com.acme.shop.domain.Order" in dependencies_of(state, "com.acme.shop.application.OrderSummary")
    write_text(root / MAIN / "application/Order.java", APPLICATION_ORDER)
    commit_everything(root, "an application-level Order")

    summary = update_and_compare(root, state)

    assert summary.incremental
    assert (summary.files_parsed, summary.files_removed) == (1, 0)
    assert summary.files_reresolved >= 1  # OrderQueryService.java itself was not touched
    targets = dependencies_of(state, query_service)
    assert "com.acme.shop.application.Order" in targets  # the same package beats a wildcard import
    assert "com.acme.shop.domain.Order" not in targets
    # A single-type import beats the same package: OrderSummary imports com.acme.shop.domain.Order.
    summary_targets = dependencies_of(state, "com.acme.shop.application.OrderSummary")
    assert "com.acme.shop.domain.Order" in summary_targets
    assert "com.acme.shop.application.Order" not in summary_targets


def test_call_samples_follow_a_class_that_shadows_a_wildcard_import(indexed_shop: tuple[Path, StateDir]) -> None:
    """A file that is not touched still has its samples re-resolved when the type it calls changes."""
    root, state = indexed_shop
    caller = root / MAIN / "application/Checkout.java"
    write_text(caller, "package com.acme.shop.application;\n\nimport com.acme.shop.domain.*;\n\n"
                       "class Checkout {\n    Object start() {\n        return Order.draft(\"o-1\", 2);\n    }\n}\n")
    commit_everything(root, "a caller of Order.draft")
    update_and_compare(root, state)
    with CodeGraph.open(state.graph_db) as graph:
        (sample,) = graph.call_samples("com.acme.shop.domain.Order", "draft", 2)
    assert [a.text for a in sample.arguments] == ['"o-1"', "2"]
    write_text(root / MAIN / "application/Order.java", APPLICATION_ORDER)
    commit_everything(root, "an application-level Order")

    summary = update_and_compare(root, state)

    assert summary.files_parsed == 1  # only the new Order: Checkout.java is re-resolved, not re-parsed
    with CodeGraph.open(state.graph_db) as graph:
        assert graph.call_samples("com.acme.shop.domain.Order", "draft", 2) == []
        (moved,) = graph.call_samples("com.acme.shop.application.Order", "draft", 2)
    assert moved.file.endswith("application/Checkout.java") and not moved.in_test


def test_deleted_class_leaves_no_edges_pointing_to_it(indexed_shop: tuple[Path, StateDir]) -> None:
    root, state = indexed_shop
    order_id = "com.acme.shop.domain.OrderId"
    assert order_id in edge_targets(state)
    git(root, "rm", "-q", f"{MAIN}/domain/OrderId.java")
    commit_everything(root, "drop OrderId")

    summary = update_and_compare(root, state)

    assert summary.incremental
    assert (summary.files_parsed, summary.files_removed) == (0, 1)
    assert summary.files_reresolved >= 1
    assert order_id not in edge_targets(state)
    with CodeGraph.open(state.graph_db) as graph:
        assert graph.class_info(order_id) is None
        assert graph.dependents(order_id) == []


def test_moved_class_keeps_edges_pointing_to_its_new_fqn(indexed_shop: tuple[Path, StateDir]) -> None:
    """OrderSummary moves to the domain package; OrderQueryService, untouched, finds it via its wildcard import."""
    root, state = indexed_shop
    old, new = "com.acme.shop.application.OrderSummary", "com.acme.shop.domain.OrderSummary"
    query_service = "com.acme.shop.application.OrderQueryService"
    assert old in dependencies_of(state, query_service)
    git(root, "mv", f"{MAIN}/application/OrderSummary.java", f"{MAIN}/domain/OrderSummary.java")
    moved = root / MAIN / "domain/OrderSummary.java"
    write_text(moved, read_text(moved).replace("package com.acme.shop.application;", "package com.acme.shop.domain;"))
    commit_everything(root, "move OrderSummary to the domain")

    summary = update_and_compare(root, state)

    assert summary.incremental
    assert (summary.files_parsed, summary.files_removed) == (1, 1)
    assert summary.files_reresolved >= 1
    targets = dependencies_of(state, query_service)
    assert new in targets
    assert old not in targets
    assert old not in edge_targets(state)
    with CodeGraph.open(state.graph_db) as graph:
        info = graph.class_info(query_service)
    assert info is not None
    find_summary = next(m for m in info.methods if m.name == "findSummary")
    assert find_summary.return_type is not None
    assert find_summary.return_type.arguments[0].fqn == new


def _touch_money(root: Path, marker: str) -> None:
    money = root / MAIN / "domain/Money.java"
    method = f"\n    public Order {marker}() {{\n        return null;\n    }}\n"
    write_text(money, _insert_member(read_text(money), method))


@pytest.mark.parametrize("rewrite", ["amend", "reset"])
def test_rewritten_history_triggers_a_full_rebuild(indexed_shop: tuple[Path, StateDir], rewrite: str) -> None:
    root, state = indexed_shop
    _touch_money(root, "first")
    commit_everything(root, "Money knows an Order")
    assert update_and_compare(root, state).incremental
    if rewrite == "amend":
        _touch_money(root, "second")
        git(root, "add", "-A")
        git(root, "commit", "-q", "--amend", "-m", "Money knows an Order, twice")
    else:
        git(root, "reset", "-q", "--hard", "HEAD~1")

    summary = update_and_compare(root, state)

    assert not summary.incremental
    assert "ancestor" in summary.reason
    with CodeGraph.open(state.graph_db) as graph:
        info = graph.class_info("com.acme.shop.domain.Money")
    assert info is not None
    names = {m.name for m in info.methods}
    assert ("first" in names, "second" in names) == ((True, True) if rewrite == "amend" else (False, False))
    assert update_and_compare(root, state).incremental  # and back to incremental updates afterwards


def test_changed_ignore_setting_triggers_a_full_rebuild(indexed_shop: tuple[Path, StateDir]) -> None:
    root, state = indexed_shop
    with CodeGraph.open(state.graph_db) as graph:
        assert any(row.is_test for row in graph.types())
    (root / ".junitbot.yml").write_text('ignore: ["src/test/**"]\n', encoding="utf-8")
    commit_everything(root, "ignore tests")
    config = config_of(root)
    assert config.ignore == ("src/test/**",)

    summary = update_and_compare(root, state, config)

    assert not summary.incremental
    assert "settings changed" in summary.reason
    with CodeGraph.open(state.graph_db) as graph:
        assert not any(row.is_test for row in graph.types())
        assert not any(path.startswith("src/test/") for path in graph.file_records())
    again = update_and_compare(root, state, config)
    assert again.incremental
    assert (again.files_parsed, again.files_removed, again.files_reresolved) == (0, 0, 0)


def test_folder_without_git_is_indexed_and_updated_by_comparing_the_work_tree(tmp_path: Path) -> None:
    root = tmp_path / "plain-shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    state = StateDir(tmp_path / "state")

    first = update_and_compare(root, state)
    assert first.git is False
    assert not first.incremental
    assert first.files >= 45

    _touch_money(root, "plainEdit")
    second = update_and_compare(root, state)

    assert second.git is False
    assert second.incremental
    assert (second.files_parsed, second.files_removed) == (1, 0)
    with CodeGraph.open(state.graph_db) as graph:
        info = graph.class_info("com.acme.shop.domain.Money")
    assert info is not None and "plainEdit" in {m.name for m in info.methods}


def test_superclass_change_reresolves_inherited_member_types(indexed_shop: tuple[Path, StateDir]) -> None:
    """Ledger's `Entry` is inherited through Base; only Base.java changes, yet Ledger's edges must follow."""
    root, state = indexed_shop
    domain = root / MAIN / "domain"
    for top in ("TopOne", "TopTwo"):
        write_text(domain / f"{top}.java", f"package com.acme.shop.domain;\n\npublic class {top} {{\n"
                                           f"    public static class Entry {{\n    }}\n}}\n")
    write_text(domain / "Base.java", "package com.acme.shop.domain;\n\npublic class Base extends TopOne {\n}\n")
    write_text(domain / "Ledger.java",
               "package com.acme.shop.domain;\n\npublic class Ledger extends Base {\n    private Entry entry;\n}\n")
    commit_everything(root, "a ledger with inherited entries")
    assert update_and_compare(root, state).incremental
    assert "com.acme.shop.domain.TopOne.Entry" in dependencies_of(state, "com.acme.shop.domain.Ledger")

    write_text(domain / "Base.java", _set_superclass(read_text(domain / "Base.java"), "TopTwo"))
    commit_everything(root, "Base extends TopTwo")
    summary = update_and_compare(root, state)

    assert summary.incremental
    assert (summary.files_parsed, summary.files_reresolved) == (1, 1)  # Base parsed, Ledger resolved again
    targets = dependencies_of(state, "com.acme.shop.domain.Ledger")
    assert "com.acme.shop.domain.TopTwo.Entry" in targets
    assert "com.acme.shop.domain.TopOne.Entry" not in targets

    git(root, "rm", "-q", f"{MAIN}/domain/TopTwo.java")
    commit_everything(root, "no TopTwo")
    assert update_and_compare(root, state).incremental
    targets = dependencies_of(state, "com.acme.shop.domain.Ledger")
    assert not any(t.startswith("com.acme.shop.domain.Top") for t in targets)


def test_untracked_file_that_becomes_gitignored_leaves_the_graph(indexed_shop: tuple[Path, StateDir]) -> None:
    root, state = indexed_shop
    scratch = "package com.acme.shop.domain;\n\nclass Scratch {\n    Money m;\n}\n"
    write_text(root / MAIN / "domain/Scratch.java", scratch)
    assert update_and_compare(root, state).incremental
    with CodeGraph.open(state.graph_db) as graph:
        assert graph.class_info("com.acme.shop.domain.Scratch") is not None
    (root / ".gitignore").write_text("Scratch.java\n", encoding="utf-8")

    summary = update_and_compare(root, state)

    assert summary.files_removed == 1
    with CodeGraph.open(state.graph_db) as graph:
        assert graph.class_info("com.acme.shop.domain.Scratch") is None


def test_same_size_edit_with_the_recorded_mtime_is_reparsed(indexed_shop: tuple[Path, StateDir]) -> None:
    """An edit that keeps size and mtime (as a racy same-tick write or a restored mtime does) is still seen."""
    root, state = indexed_shop
    path = root / MAIN / "application/OrderSummary.java"
    before = path.stat()
    text = read_text(path)
    edited = text.replace("int itemCount, Money total", "int itemCount, Order total")
    assert edited != text and len(edited) == len(text)
    write_text(path, edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    git(root, "read-tree", "HEAD")  # drop git's own cached stat data, or git would not see the edit either
    commit_everything(root, "OrderSummary totals an Order")

    summary = update_and_compare(root, state)

    assert summary.files_parsed == 1
    with CodeGraph.open(state.graph_db) as graph:
        info = graph.class_info("com.acme.shop.application.OrderSummary")
    assert info is not None
    assert [c.type.fqn for c in info.record_components if c.name == "total"] == ["com.acme.shop.domain.Order"]


def test_racily_clean_file_without_git_is_hashed(tmp_path: Path) -> None:
    """Without git, (size, mtime) decide; but not for a file whose mtime is not older than the last run."""
    root = tmp_path / "plain-shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    path = root / MAIN / "application/OrderSummary.java"
    future = time.time_ns() + 3600 * 10**9  # as if written in the same clock tick as the run below
    os.utime(path, ns=(future, future))
    state = StateDir(tmp_path / "state")
    update_and_compare(root, state)
    text = read_text(path)
    write_text(path, text.replace("int itemCount, Money total", "int itemCount, Order total"))
    os.utime(path, ns=(future, future))

    summary = update_and_compare(root, state)

    assert summary.incremental
    assert summary.files_parsed == 1


def test_extraction_is_deterministic_for_chained_calls() -> None:
    """`a.b().c()` has two calls starting at one byte; their order must not vary (it once did, at random)."""
    path = "src/main/java/com/acme/shop/application/CancelOrderUseCase.java"
    source = (EXAMPLE / path).read_bytes()
    assert b"order.paymentReference().ifPresent(" in source
    assert len({extract_file(source, path).model_dump_json() for _ in range(50)}) == 1


def test_local_class_named_like_a_new_repo_type(indexed_shop: tuple[Path, StateDir]) -> None:
    """A local class hides the name from the file's references, yet the file's ClassInfo must stay current."""
    root, state = indexed_shop
    service = root / MAIN / "application/InventoryService.java"
    local = "\n    void withLocal() {\n        class Voucher {\n        }\n        Object v = new Voucher();\n    }\n"
    write_text(service, _insert_member(read_text(service), local))
    commit_everything(root, "a local Voucher")
    assert update_and_compare(root, state).incremental
    write_text(root / MAIN / "application/Voucher.java",
               "package com.acme.shop.application;\n\npublic class Voucher {\n}\n")
    commit_everything(root, "a repo Voucher")
    update_and_compare(root, state)


def test_untracked_non_ascii_file_that_becomes_gitignored_leaves_the_graph(
    indexed_shop: tuple[Path, StateDir]
) -> None:
    """git quotes non-ASCII paths unless told not to; the ignore check must still recognise them."""
    root, state = indexed_shop
    write_text(root / MAIN / "domain/Größe.java", "package com.acme.shop.domain;\n\nclass Größe {\n    Money m;\n}\n")
    assert update_and_compare(root, state).incremental
    (root / ".gitignore").write_text("Größe.java\n", encoding="utf-8")
    assert update_and_compare(root, state).files_removed == 1


def test_ignored_check_copes_with_a_huge_change_set(shop_repo: Path) -> None:
    """40,000 candidate paths (a repo-wide change) are more than one command line can carry."""
    checkout = open_checkout(shop_repo)
    assert checkout is not None
    paths = [f"src/main/java/com/example/generated/deeply/nested/Generated{i}.java" for i in range(40_000)]
    assert checkout.ignored(paths) == set()


def test_unstaged_deletion_leaves_the_same_file_count(indexed_shop: tuple[Path, StateDir]) -> None:
    """git's index still lists a file deleted without `git rm`; neither build may keep a record of it."""
    root, state = indexed_shop
    (root / MAIN / "domain/OrderId.java").unlink()  # deleted, but not staged

    summary = update_and_compare(root, state)

    assert summary.incremental
    assert summary.files_removed == 1
    assert not any("OrderId.java" in p.path for p in summary.problems)


# -- kill safety -------------------------------------------------------------------------------------------


class InjectedFailure(RuntimeError):
    """Stands in for anything that kills a run halfway."""


# The per-file resolution step of the indexer (`resolve_file` in earlier versions, `resolve_edges` now).
_RESOLVE_STEP = next(name for name in ("resolve_edges", "resolve_file") if hasattr(indexer, name))


def _fail_after(monkeypatch: pytest.MonkeyPatch, calls: int) -> list[int]:
    """Make the indexer's per-file resolution raise on call number `calls + 1`; returns the call counter."""
    real = getattr(indexer, _RESOLVE_STEP)
    counter = [0]

    def resolve_or_fail(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        if counter[0] > calls:
            raise InjectedFailure(f"{_RESOLVE_STEP} call {counter[0]}")
        return real(*args, **kwargs)

    monkeypatch.setattr(indexer, _RESOLVE_STEP, resolve_or_fail)
    return counter


def _shadow_order_and_touch_money(root: Path) -> None:
    """A commit whose incremental update resolves many files: a new Order and an edited Money."""
    write_text(root / MAIN / "application/Order.java", APPLICATION_ORDER)
    _touch_money(root, "killed")
    commit_everything(root, "new Order, edited Money")


def _state_files(state: StateDir) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(state.root.iterdir())}


@pytest.mark.parametrize("fail_after", [0, 2, 5])
def test_incremental_update_that_dies_leaves_the_previous_graph(
    indexed_shop: tuple[Path, StateDir], monkeypatch: pytest.MonkeyPatch, fail_after: int
) -> None:
    root, state = indexed_shop
    before = snapshot(state.graph_db)
    _shadow_order_and_touch_money(root)

    with monkeypatch.context() as patch:
        counter = _fail_after(patch, fail_after)
        with pytest.raises(InjectedFailure):
            update_graph(root, state, config_of(root))
    assert counter[0] == fail_after + 1

    assert snapshot(state.graph_db) == before
    assert not [p.name for p in state.root.iterdir() if p.name.endswith((".tmp", "-journal"))]
    summary = update_and_compare(root, state)
    assert summary.incremental
    assert summary.files_parsed == 2
    assert "com.acme.shop.application.Order" in dependencies_of(state, "com.acme.shop.application.OrderQueryService")


@pytest.mark.parametrize("fail_after", [0, 30])
def test_full_rebuild_that_dies_leaves_the_previous_graph_file(
    indexed_shop: tuple[Path, StateDir], monkeypatch: pytest.MonkeyPatch, fail_after: int
) -> None:
    root, state = indexed_shop
    files_before = _state_files(state)
    assert "graph.sqlite" in files_before
    _shadow_order_and_touch_money(root)

    with monkeypatch.context() as patch:
        counter = _fail_after(patch, fail_after)
        with pytest.raises(InjectedFailure):
            update_graph(root, state, config_of(root), full=True)
    assert counter[0] == fail_after + 1

    assert _state_files(state) == files_before  # the old graph byte for byte, and no *.tmp left behind
    summary = update_and_compare(root, state)
    assert summary.incremental  # the surviving graph is still usable as a base
    assert "com.acme.shop.application.Order" in dependencies_of(state, "com.acme.shop.application.OrderQueryService")


def test_first_full_build_that_dies_leaves_no_graph(shop_repo: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    state = StateDir(tmp_path / "state")
    with monkeypatch.context() as patch:
        _fail_after(patch, 3)
        with pytest.raises(InjectedFailure):
            update_graph(shop_repo, state, config_of(shop_repo))
    assert sorted(p.name for p in state.root.iterdir()) == [".gitignore"]
    summary = update_and_compare(shop_repo, state)
    assert not summary.incremental


_CHILD = textwrap.dedent("""
    import os
    import signal
    import sys
    from pathlib import Path

    import junitbot.analysis.graph as graph_module
    import junitbot.analysis.indexer as indexer
    from junitbot.analysis import update_graph
    from junitbot.config import load_config
    from junitbot.state import StateDir

    root, state, mode, hook = Path(sys.argv[1]), StateDir(Path(sys.argv[2])), sys.argv[3], sys.argv[4]

    def die(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    if hook.startswith("edges:"):  # halfway through writing edges (put_edges, or put_resolved before it)
        method = "put_edges" if hasattr(graph_module.CodeGraph, "put_edges") else "put_resolved"
        limit, calls, real_put = int(hook.split(":")[1]), [0], getattr(graph_module.CodeGraph, method)
        def put(self, *args):
            real_put(self, *args)
            calls[0] += 1
            if calls[0] >= limit:
                die()
        setattr(graph_module.CodeGraph, method, put)
    elif hook == "before_commit":  # every write done, the transaction not yet committed
        real_finish = indexer._Build._finish
        def finish(self, graph):
            real_finish(self, graph)
            die()
        indexer._Build._finish = finish
    elif hook == "before_replace":  # the new graph file complete and fsynced, not yet renamed into place
        graph_module.os.replace = die

    config = load_config(root, environ={})
    print("ready", flush=True)
    update_graph(root, state, config, full=mode == "full")
    print("done", flush=True)
""")


def _generated_source(index: int, count: int, *, variant: str = "") -> tuple[str, str]:
    """One of `count` classes in ten packages, each using three others through wildcard imports."""
    package = f"com.gen.p{index % 10}"
    imports = f"import com.gen.p{(index + 1) % 10}.*;\nimport com.gen.p{(index * 3) % 10}.*;\n"
    members = []
    for k in range(1, 4):
        other = f"C{(index * 7 + k) % count}"
        members.append(f"    private {other} f{k};\n\n    public {other} get{k}({other} x) {{\n"
                       f"        {other} y = x;\n        return new {other}();\n    }}\n")
    if variant:
        members.append(f"    public Shared {variant}() {{\n        return Shared.of();\n    }}\n")
    source = f"package {package};\n\n{imports}\npublic class C{index} {{\n\n{''.join(members)}}}\n"
    return f"src/main/java/{package.replace('.', '/')}/C{index}.java", source


def _change_generated_repo(root: Path, count: int) -> None:
    """Rewrite every other class, add classes that other packages' wildcard imports now find, delete a few."""
    for index in range(0, count, 2):
        path, source = _generated_source(index, count, variant=f"changed{index}")
        write_text(root / path, source)
    for package in range(10):
        write_text(root / f"src/main/java/com/gen/p{package}/Shared.java",
                   f"package com.gen.p{package};\n\npublic class Shared {{\n    public static Shared of() {{\n"
                   f"        return new Shared();\n    }}\n}}\n")
    for k in range(10):  # a second C<k>, in a package other classes import with a wildcard
        package = f"com.gen.p{(k + 5) % 10}"
        write_text(root / f"src/main/java/{package.replace('.', '/')}/C{k}.java",
                   f"package {package};\n\npublic class C{k} {{\n}}\n")
    for index in range(11, count, 25):
        (root / _generated_source(index, count)[0]).unlink()
    commit_everything(root, "changed")


@dataclass(frozen=True)
class GeneratedRepo:
    """~300 generated classes; `base` holds the graph of the first commit, HEAD is a large change later."""

    root: Path
    base: StateDir
    expected: GraphSnapshot  # a full rebuild at HEAD


@pytest.fixture(scope="module")
def generated_repo(tmp_path_factory: pytest.TempPathFactory) -> GeneratedRepo:
    folder = tmp_path_factory.mktemp("generated")
    root = folder / "repo"
    count = 300
    with pytest.MonkeyPatch.context() as env:  # conftest's isolated environment is per test, this is per module
        for name in ("AUTHOR", "COMMITTER"):
            env.setenv(f"GIT_{name}_NAME", "Test Author")
            env.setenv(f"GIT_{name}_EMAIL", "author@example.com")
        env.setenv("GIT_CONFIG_GLOBAL", str(folder / "gitconfig"))
        env.setenv("GIT_CONFIG_NOSYSTEM", "1")
        for index in range(count):
            path, source = _generated_source(index, count)
            write_text(root / path, source)
        git(root, "init", "-q", "--initial-branch=main")
        commit_everything(root, "generated")
        base = StateDir(folder / "base")
        assert update_graph(root, base, config_of(root)).files == count
        _change_generated_repo(root, count)
        _, expected = full_rebuild_snapshot(root, config_of(root))
    return GeneratedRepo(root, base, expected)


def _sqlite_integrity(db: Path) -> str:
    connection = sqlite3.connect(db)
    try:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        connection.close()


def _run_child(root: Path, state: StateDir, mode: str, *, hook: str = "", kill_after: float | None = None) -> bool:
    """update_graph in a child process, SIGKILLed `kill_after` s after it is ready or by its own `hook`.

    Returns whether it died before finishing.
    """
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(root), str(state.root), mode, hook],
        cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None
        ready = child.stdout.readline()
        assert ready == "ready\n", (ready, child.stderr.read() if child.stderr else "")
        if kill_after is not None:
            time.sleep(kill_after)
            child.send_signal(signal.SIGKILL)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode in (0, -signal.SIGKILL), err
    return child.returncode == -signal.SIGKILL and "done" not in out


def _prepare_state(repo: GeneratedRepo, folder: Path, mode: str) -> StateDir:
    """A state directory holding the base graph ('incremental', 'full') or nothing yet ('first')."""
    state = StateDir(folder / "state")
    if mode == "first":
        state.ensure()
    else:
        shutil.copytree(repo.base.root, state.root)
    return state


def _assert_recovers(repo: GeneratedRepo, state: StateDir, mode: str, context: str) -> None:
    """The graph file (if any) is sound and whole, and the next ordinary run equals a full rebuild."""
    if state.graph_db.exists():
        assert _sqlite_integrity(state.graph_db) == "ok", context
        with CodeGraph.open(state.graph_db) as graph:
            assert graph.commit is not None, context  # a complete graph of some commit, never a partial one
    else:
        assert mode == "first", f"{context}: the previous graph is gone"
    summary = update_graph(repo.root, state, config_of(repo.root))
    assert_same_graph(snapshot(state.graph_db), repo.expected, context)
    if mode != "first":
        assert summary.incremental, f"{context}: the previous graph did not survive ({summary.reason})"


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["incremental", "full", "first"])
def test_update_sigkilled_after_a_delay_leaves_a_sound_graph(
    generated_repo: GeneratedRepo, tmp_path: Path, mode: str
) -> None:
    """Kill a child process at a few moments after it starts indexing ~300 files."""
    interrupted = 0
    for delay in (0.0, 0.1, 0.2, 0.3):
        state = _prepare_state(generated_repo, tmp_path / f"after-{delay}", mode)
        interrupted += _run_child(generated_repo.root, state, "full" if mode == "full" else "incremental",
                                  kill_after=delay)
        _assert_recovers(generated_repo, state, mode, f"{mode} run killed {delay} s after it started")
    assert interrupted >= 1, "no kill landed while update_graph was running; the test proves nothing"


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "hook"), [
    ("incremental", "edges:5"),
    ("incremental", "before_commit"),
    ("full", "edges:100"),
    ("full", "before_commit"),
    ("full", "before_replace"),
    ("first", "before_replace"),
])
def test_update_sigkilled_at_a_chosen_point_leaves_a_sound_graph(
    generated_repo: GeneratedRepo, tmp_path: Path, mode: str, hook: str
) -> None:
    """The child kills itself at a chosen point of writing, so every critical moment is certainly covered."""
    state = _prepare_state(generated_repo, tmp_path, mode)
    before = _state_files(state)
    assert _run_child(generated_repo.root, state, "full" if mode == "full" else "incremental", hook=hook)
    if mode != "incremental":  # a rebuild never touches the graph file before its final rename
        assert _state_files(state).get("graph.sqlite") == before.get("graph.sqlite")
    _assert_recovers(generated_repo, state, mode, f"{mode} run killed at {hook}")


def test_a_later_rebuild_removes_the_temporary_file_of_a_killed_rebuild(
    indexed_shop: tuple[Path, StateDir]
) -> None:
    """A rebuild killed before its rename leaves graph.sqlite.<pid>.tmp behind; the next rebuild removes it."""
    root, state = indexed_shop
    if not _run_child(root, state, "full", hook="before_replace"):
        pytest.fail("the child was not killed")
    if not list(state.root.glob("*.tmp")):
        pytest.fail("the killed rebuild left no temporary file; nothing to check")
    update_graph(root, state, config_of(root), full=True)
    assert sorted(p.name for p in state.root.iterdir()) == [".gitignore", "graph.sqlite"]

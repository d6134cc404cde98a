"""CodeGraph: the repo's types, their facts and typed edges in SQLite (the one owner of graph.sqlite).

Every write happens in one transaction, and a full rebuild writes a new file that replaces the old one
atomically, so a killed run leaves the previous graph intact.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sqlite3
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from junitbot.analysis.extract import extract_file
from junitbot.analysis.models import (
    CallSample,
    ClassInfo,
    Edge,
    EdgeKind,
    FileFacts,
    MethodInfo,
    ParseProblem,
    SampleArgument,
)
from junitbot.analysis.resolve import resolve_classes
from junitbot.analysis.sqlite import open_store, write_transaction
from junitbot.errors import JunitbotError, StoreCorrupt

SCHEMA_VERSION = "8"  # 8: a project's assert<Exception> helpers expect a throw (7: Javadoc examples among the
# call samples; 6: type parameter bounds)

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
    path TEXT PRIMARY KEY, blob_sha TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    parsed INTEGER NOT NULL, facts TEXT, problems TEXT NOT NULL, source_root TEXT, is_test INTEGER NOT NULL,
    source BLOB);
CREATE TABLE types(
    fqn TEXT NOT NULL, path TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, layer TEXT,
    is_test INTEGER NOT NULL, outer TEXT, line INTEGER NOT NULL, PRIMARY KEY(fqn, path));
CREATE INDEX types_name ON types(name);
CREATE INDEX types_path ON types(path);
CREATE TABLE edges(
    source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL, path TEXT NOT NULL,
    PRIMARY KEY(source, target, kind, path)) WITHOUT ROWID;
CREATE INDEX edges_target ON edges(target);
CREATE INDEX edges_path ON edges(path);
CREATE TABLE supertypes(fqn TEXT NOT NULL, path TEXT NOT NULL, supers TEXT NOT NULL, PRIMARY KEY(fqn, path));
CREATE INDEX supertypes_path ON supertypes(path);
CREATE TABLE consults(fqn TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY(fqn, path)) WITHOUT ROWID;
CREATE INDEX consults_path ON consults(path);
CREATE TABLE ref_names(name TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY(name, path)) WITHOUT ROWID;
CREATE INDEX ref_names_path ON ref_names(path);
CREATE TABLE samples(
    callee TEXT NOT NULL, member TEXT NOT NULL, arity INTEGER NOT NULL, arguments TEXT NOT NULL,
    path TEXT NOT NULL, line INTEGER NOT NULL, in_test INTEGER NOT NULL, throws INTEGER NOT NULL);
CREATE INDEX samples_callee ON samples(callee, member, arity);
CREATE INDEX samples_path ON samples(path);
"""
# Mined samples a ClassInfo carries per member (and as many rejected ones): the most frequent are enough.
_SAMPLES_PER_MEMBER = 5


@dataclass(frozen=True)
class FileRecord:
    """What the graph knows of one file without loading its facts."""

    path: str
    blob_sha: str
    size: int
    mtime_ns: int
    parsed: bool
    problems: tuple[ParseProblem, ...]
    source_root: str | None
    is_test: bool


@dataclass(frozen=True)
class TypeRow:
    """One node of the graph, as listed by `types()`."""

    fqn: str
    path: str
    name: str
    kind: str
    layer: str | None
    is_test: bool
    outer: str | None
    line: int


class GraphUnavailable(JunitbotError):
    """No graph has been built yet, or the file is not a junitbot graph."""


class CodeGraph:
    """Read and write access to one graph database; use as a context manager."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._classes: dict[str, list[ClassInfo]] = {}
        self._symbols: set[str] | None = None
        self._supertypes: dict[str, tuple[str, ...]] | None = None

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path) -> CodeGraph:
        """Open an existing graph; GraphUnavailable if there is none or it is not ours."""
        if not path.is_file():
            raise GraphUnavailable(f"no code graph at {path}: run `junitbot index` first")
        # A corrupt file is set aside here and an empty one takes its place: "no graph", rebuilt by update_graph.
        connection = open_store(path, what="code graph")
        try:
            connection.execute("PRAGMA synchronous = FULL")
            version = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except StoreCorrupt:
            connection.close()  # which sets the file aside
            raise
        except sqlite3.OperationalError as e:
            connection.close()
            raise GraphUnavailable(f"{path} holds no junitbot graph ({e}): `junitbot index` builds one") from e
        if version is None or version[0] != SCHEMA_VERSION:
            connection.close()
            raise GraphUnavailable(f"{path} has schema {version and version[0]}, expected {SCHEMA_VERSION}")
        return cls(connection, path)

    @classmethod
    @contextlib.contextmanager
    def rebuild(cls, path: Path) -> Iterator[CodeGraph]:
        """A new, empty graph written beside `path`, which replaces it only if the block succeeds."""
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_abandoned_scratch(path)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.unlink(missing_ok=True)
        # A scratch file needs no journal nor a corruption check: on failure it is deleted, on success fsynced
        # and renamed. isolation_level=None: transactions are explicit.
        connection = sqlite3.connect(temporary, isolation_level=None)
        connection.execute("PRAGMA journal_mode = OFF")
        connection.execute("PRAGMA synchronous = OFF")
        graph = cls(connection, path)
        try:
            connection.executescript(_SCHEMA)
            connection.execute("BEGIN")
            graph.set_meta(schema=SCHEMA_VERSION)
            yield graph
            connection.execute("COMMIT")
        except BaseException:
            connection.close()
            temporary.unlink(missing_ok=True)
            raise
        connection.close()
        _fsync_file(temporary)
        os.replace(temporary, path)
        _fsync_dir(path.parent)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> CodeGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """All writes inside commit together or not at all; a rollback also drops cached reads."""
        return write_transaction(self._db, on_rollback=self._forget)

    # -- meta ------------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, **values: str | None) -> None:
        for key, value in values.items():
            if value is None:
                self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    @property
    def commit(self) -> str | None:
        """The commit the graph describes (None for a work tree without git)."""
        return self.meta("commit")

    # -- files -------------------------------------------------------------------------------------

    def file_records(self, paths: Iterable[str] | None = None) -> dict[str, FileRecord]:
        query = "SELECT path, blob_sha, size, mtime_ns, parsed, problems, source_root, is_test FROM files"
        if paths is None:
            rows = self._db.execute(query).fetchall()
        else:
            rows = [row for chunk in _chunks(list(paths)) for row in self._db.execute(
                f"{query} WHERE path IN ({','.join('?' * len(chunk))})", chunk)]
        return {
            row[0]: FileRecord(
                path=row[0], blob_sha=row[1], size=row[2], mtime_ns=row[3], parsed=bool(row[4]),
                problems=tuple(ParseProblem.model_validate(p) for p in json.loads(row[5])),
                source_root=row[6], is_test=bool(row[7]),
            )
            for row in rows
        }

    def facts(self, path: str) -> FileFacts | None:
        row = self._db.execute("SELECT facts FROM files WHERE path = ? AND parsed = 1", (path,)).fetchone()
        return None if row is None else FileFacts.model_validate_json(row[0])

    def put_file(self, record: FileRecord, facts: FileFacts | None, source: bytes | None = None) -> None:
        """One file's record, its graph facts and the source they came from (kept for on-demand detail)."""
        problems = json.dumps([p.model_dump(mode="json") for p in record.problems])
        self._db.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record.path, record.blob_sha, record.size, record.mtime_ns, int(record.parsed),
             facts.model_dump_json(exclude_defaults=True) if facts is not None else None, problems,
             record.source_root, int(record.is_test), zlib.compress(source, 1) if source is not None else None),
        )

    def source(self, path: str) -> bytes | None:
        """The source as it was indexed (UTF-8), which may differ from the work tree since."""
        row = self._db.execute("SELECT source FROM files WHERE path = ? AND parsed = 1", (path,)).fetchone()
        return None if row is None or row[0] is None else zlib.decompress(row[0])

    def remove_files(self, paths: Sequence[str]) -> None:
        """Forget files and everything derived from them."""
        self._forget()
        for chunk in _chunks(list(paths)):
            marks = ",".join("?" * len(chunk))
            for table in ("files", "ref_names", "types", "edges", "consults", "supertypes", "samples"):
                self._db.execute(f"DELETE FROM {table} WHERE path IN ({marks})", chunk)

    def put_types(self, path: str, classes: Sequence[ClassInfo], layers: Mapping[str, str | None]) -> None:
        """The graph's nodes declared in one file (replacing what it declared before)."""
        self._forget()
        self._db.execute("DELETE FROM types WHERE path = ?", (path,))
        self._db.executemany(
            "INSERT OR REPLACE INTO types VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ((c.fqn, path, c.name, c.kind.value, layers.get(c.fqn), int(c.is_test), c.outer,
              c.span.start_line if c.span else 0) for c in classes),
        )

    def put_ref_names(self, path: str, names: Iterable[str]) -> None:
        self._db.execute("DELETE FROM ref_names WHERE path = ?", (path,))
        self._db.executemany("INSERT INTO ref_names VALUES (?, ?)", ((n, path) for n in sorted(set(names))))

    def paths_using(self, names: Iterable[str]) -> set[str]:
        """Files whose type names mention one of `names` (so their resolution may change)."""
        found: set[str] = set()
        for chunk in _chunks(sorted(set(names))):
            found.update(row[0] for row in self._db.execute(
                f"SELECT DISTINCT path FROM ref_names WHERE name IN ({','.join('?' * len(chunk))})", chunk))
        return found

    # -- resolved types and edges ----------------------------------------------------------------

    def clear_resolved(self, paths: Sequence[str]) -> None:
        for chunk in _chunks(list(paths)):
            marks = ",".join("?" * len(chunk))
            for table in ("edges", "consults", "samples"):
                self._db.execute(f"DELETE FROM {table} WHERE path IN ({marks})", chunk)

    def clear_supertypes(self, paths: Sequence[str]) -> None:
        for chunk in _chunks(list(paths)):
            self._db.execute(f"DELETE FROM supertypes WHERE path IN ({','.join('?' * len(chunk))})", chunk)

    def put_supertypes(self, path: str, supertypes: Mapping[str, Sequence[str]]) -> None:
        self._forget()
        self._db.executemany("INSERT OR REPLACE INTO supertypes VALUES (?, ?, ?)",
                             ((fqn, path, json.dumps(list(supers))) for fqn, supers in supertypes.items()))

    def supertype_map(self) -> dict[str, tuple[str, ...]]:
        """Each type's repo supertypes; where two files declare a type, the first path wins."""
        result: dict[str, tuple[str, ...]] = {}
        for fqn, supers in self._db.execute("SELECT fqn, supers FROM supertypes ORDER BY fqn, path"):
            result.setdefault(fqn, tuple(json.loads(supers)))
        return result

    def put_consults(self, path: str, fqns: Iterable[str]) -> None:
        self._db.executemany("INSERT OR IGNORE INTO consults VALUES (?, ?)", ((f, path) for f in sorted(set(fqns))))

    def paths_consulting(self, fqns: Iterable[str]) -> set[str]:
        """Files whose names were resolved through the supertypes of one of `fqns`."""
        found: set[str] = set()
        for chunk in _chunks(sorted(set(fqns))):
            found.update(row[0] for row in self._db.execute(
                f"SELECT DISTINCT path FROM consults WHERE fqn IN ({','.join('?' * len(chunk))})", chunk))
        return found

    def put_edges(self, path: str, edges: Sequence[Edge]) -> None:
        self._db.executemany("INSERT OR IGNORE INTO edges VALUES (?, ?, ?, ?)",
                             ((e.source, e.target, e.kind.value, path) for e in edges))

    def put_samples(self, path: str, samples: Sequence[CallSample]) -> None:
        """The call samples one file makes (after `clear_resolved` or `remove_files` of it)."""
        self._forget()
        self._db.executemany(
            "INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ((s.callee, s.member, s.arity, _arguments_json(s.arguments), path, s.line, int(s.in_test), int(s.throws))
             for s in samples))

    def call_samples(self, fqn: str, member: str, arity: int, *, throws: bool = False) -> list[CallSample]:
        """The distinct argument lists the repository passes to `fqn`'s `member` (`<init>` for a constructor)
        with `arity` arguments, most frequent first (main and test code alike); `throws` for those that
        expected-exception assertions pass instead."""
        rows = self._db.execute(
            "SELECT arguments, path, line, in_test FROM samples WHERE callee = ? AND member = ? AND arity = ? "
            "AND throws = ? ORDER BY path, line", (fqn, member, arity, int(throws))).fetchall()
        return _counted(fqn, member, arity, throws, rows)

    def fqns_in(self, paths: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for chunk in _chunks(list(paths)):
            found.update(row[0] for row in self._db.execute(
                f"SELECT fqn FROM types WHERE path IN ({','.join('?' * len(chunk))})", chunk))
        return found

    def all_fqns(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT fqn FROM types")}

    # -- queries -----------------------------------------------------------------------------------

    def types(self) -> list[TypeRow]:
        """One row per FQN (where two files declare it, the first path wins), sorted by FQN."""
        rows = self._db.execute(
            "SELECT fqn, path, name, kind, layer, is_test, outer, line FROM types ORDER BY fqn, path").fetchall()
        seen: dict[str, TypeRow] = {}
        for row in rows:
            if row[0] not in seen:
                seen[row[0]] = TypeRow(row[0], row[1], row[2], row[3], row[4], bool(row[5]), row[6], row[7])
        return list(seen.values())

    def duplicate_fqns(self) -> dict[str, list[str]]:
        rows = self._db.execute(
            "SELECT fqn, group_concat(path, '\n') FROM types GROUP BY fqn HAVING count(*) > 1 ORDER BY fqn")
        return {row[0]: sorted(row[1].split("\n")) for row in rows}

    def class_info(self, fqn: str) -> ClassInfo | None:
        """A type with every reference resolved, built on demand from its file's facts (first path wins)."""
        row = self._db.execute("SELECT path FROM types WHERE fqn = ? ORDER BY path LIMIT 1", (fqn,)).fetchone()
        if row is None:
            return None
        return next((c for c in self.classes_in(row[0]) if c.fqn == fqn), None)

    def classes_in(self, path: str) -> list[ClassInfo]:
        """The resolved types one file declares, with their layers, sorted by FQN."""
        if path not in self._classes:
            row = self._db.execute("SELECT is_test FROM files WHERE path = ? AND parsed = 1", (path,)).fetchone()
            source = self.source(path)
            if row is None or source is None:
                return []
            # The graph keeps only what cross-file analysis needs; members come from the stored source.
            facts = extract_file(source, path, is_test=bool(row[0]), members=True)
            if self._symbols is None:
                self._symbols = self.all_fqns()
                self._supertypes = self.supertype_map()
            layers = dict(self._db.execute("SELECT fqn, layer FROM types WHERE path = ?", (path,)).fetchall())
            classes = resolve_classes(facts, self._symbols, supertypes=self._supertypes or {})
            self._classes[path] = sorted((self._with_samples(c.model_copy(update={"layer": layers.get(c.fqn)}))
                                          for c in classes), key=lambda c: c.fqn)
        return self._classes[path]

    def _with_samples(self, info: ClassInfo) -> ClassInfo:
        """The class with what the repository passes to each of its constructors and methods."""
        rows = self._db.execute(
            "SELECT member, arity, throws, arguments, path, line, in_test FROM samples WHERE callee = ? "
            "ORDER BY member, arity, throws, path, line", (info.fqn,)).fetchall()
        if not rows:
            return info
        grouped: dict[tuple[str, int], list[CallSample]] = {}
        for (member, arity, throws), group in itertools.groupby(rows, key=lambda r: (r[0], r[1], r[2])):
            counted = _counted(info.fqn, member, arity, bool(throws), [r[3:] for r in group])
            grouped.setdefault((member, arity), []).extend(counted[:_SAMPLES_PER_MEMBER])

        def with_samples(method: MethodInfo, member: str) -> MethodInfo:
            arity = len(method.parameters)
            if method.parameters and method.parameters[-1].varargs:  # one or more values for the varargs
                found = _ranked([s for (name, count), samples in grouped.items()
                                 if name == member and count >= arity for s in samples])[:_SAMPLES_PER_MEMBER]
            else:
                found = grouped.get((member, arity), [])
            return method if not found else method.model_copy(update={"samples": tuple(found)})

        return info.model_copy(update={
            "constructors": tuple(with_samples(c, "<init>") for c in info.constructors),
            "methods": tuple(with_samples(m, m.name) for m in info.methods),
        })

    def _forget(self) -> None:
        """Drop what reads cached: a write changed what they would see."""
        self._classes.clear()
        self._symbols = None
        self._supertypes = None

    def binary_name(self, fqn: str) -> str:
        """The JVM's name of a type, nested types joined with `$` (`com.acme.Money$Builder`), as class files,
        JaCoCo and PIT name it; a type the graph does not know keeps its name."""
        row = self._db.execute("SELECT outer, name FROM types WHERE fqn = ? ORDER BY path LIMIT 1", (fqn,)).fetchone()
        if row is None or not row[0]:
            return fqn
        return f"{self.binary_name(row[0])}${row[1]}"

    def fqns_named(self, name: str) -> list[str]:
        """FQNs whose simple name, or dotted nested name (`Outer.Inner`), is `name`."""
        simple = name.rsplit(".", 1)[-1]
        rows = self._db.execute("SELECT DISTINCT fqn FROM types WHERE name = ? ORDER BY fqn", (simple,))
        return [row[0] for row in rows if row[0] == name or row[0].endswith("." + name)]

    def edges(self) -> list[Edge]:
        rows = self._db.execute("SELECT DISTINCT source, target, kind FROM edges ORDER BY source, target, kind")
        return [Edge(source=r[0], target=r[1], kind=EdgeKind(r[2])) for r in rows]

    def dependents(self, fqn: str) -> list[tuple[str, EdgeKind]]:
        """Types with an edge into `fqn`, with the edge's kind."""
        rows = self._db.execute(
            "SELECT DISTINCT source, kind FROM edges WHERE target = ? ORDER BY source, kind", (fqn,))
        return [(r[0], EdgeKind(r[1])) for r in rows]

    def dependencies(self, fqn: str) -> list[tuple[str, EdgeKind]]:
        rows = self._db.execute(
            "SELECT DISTINCT target, kind FROM edges WHERE source = ? ORDER BY target, kind", (fqn,))
        return [(r[0], EdgeKind(r[1])) for r in rows]

    def counts(self) -> tuple[int, int, int]:
        """(files, distinct types, edge rows)."""
        files = self._db.execute("SELECT count(*) FROM files").fetchone()[0]
        types = self._db.execute("SELECT count(DISTINCT fqn) FROM types").fetchone()[0]
        # Rows, not distinct pairs: two files declaring one FQN may add the same edge twice (rare).
        edges = self._db.execute("SELECT count(*) FROM edges").fetchone()[0]
        return int(files), int(types), int(edges)

    def source_files(self, *, test: bool) -> list[tuple[str, str]]:
        """(path, blob sha) of every parsed main (or test) source file, sorted by path."""
        rows = self._db.execute(
            "SELECT path, blob_sha FROM files WHERE parsed = 1 AND is_test = ? ORDER BY path", (int(test),))
        return [(str(r[0]), str(r[1])) for r in rows]

    def source_root_counts(self) -> list[tuple[str, bool, int]]:
        """(source root, is test, parsed files) for every source root, sorted."""
        rows = self._db.execute(
            "SELECT source_root, is_test, count(*) FROM files WHERE parsed = 1 GROUP BY source_root, is_test "
            "ORDER BY source_root, is_test")
        return [(str(r[0]), bool(r[1]), int(r[2])) for r in rows]

    def problems(self) -> list[ParseProblem]:
        rows = self._db.execute("SELECT problems FROM files WHERE problems != '[]' ORDER BY path")
        return [ParseProblem.model_validate(p) for row in rows for p in json.loads(row[0])]


def _arguments_json(arguments: Sequence[SampleArgument]) -> str:
    return json.dumps([a.model_dump(mode="json", exclude_defaults=True) for a in arguments], separators=(",", ":"))


def _counted(fqn: str, member: str, arity: int, throws: bool,
             rows: Sequence[tuple[str, str, int, int]]) -> list[CallSample]:
    """Samples from (arguments, path, line, in_test) rows in path order: one per argument list, with its count
    and first place, most frequent first."""
    first: dict[str, tuple[str, int, int]] = {}
    counts: Counter[str] = Counter()
    for arguments, path, line, in_test in rows:
        first.setdefault(arguments, (path, line, in_test))
        counts[arguments] += 1
    samples = [CallSample(callee=fqn, member=member, arity=arity, throws=throws, count=counts[arguments],
                          arguments=tuple(SampleArgument.model_validate(a) for a in json.loads(arguments)),
                          file=path, line=line, in_test=bool(in_test))
               for arguments, (path, line, in_test) in first.items()]
    return _ranked(samples)


def _ranked(samples: Sequence[CallSample]) -> list[CallSample]:
    """Most frequent first; among equally frequent lists, those of fewer null and empty values: documentation lists
    `f(null) = null` and `f("") = ""` first, and the first sample is a scenario's base, the one its others vary."""
    return sorted(samples, key=lambda s: (-s.count, sum(a.kind == "null" or a.text == '""' for a in s.arguments)))


def _chunks(items: list[str], size: int = 500) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _remove_abandoned_scratch(path: Path) -> None:
    """Delete scratch files of rebuilds whose process is gone (killed before the final rename)."""
    for scratch in path.parent.glob(f"{path.name}.*.tmp"):
        pid = scratch.name[len(path.name) + 1:-len(".tmp")]
        if pid.isdigit() and not _process_alive(int(pid)):
            scratch.unlink(missing_ok=True)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

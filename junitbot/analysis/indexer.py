"""update_graph: bring the code graph up to date with the work tree, incrementally when it can.

Incremental and full builds leave the same graph: both parse files with `extract_file` and resolve them
with `resolve_edges` against the same set of FQNs; the incremental path re-resolves exactly the files whose
resolution could have changed (`resolve.names_used`).
"""

from __future__ import annotations

import functools
import json
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from junitbot.analysis.changes import GitCheckout, open_checkout
from junitbot.analysis.extract import extract_file
from junitbot.analysis.graph import SCHEMA_VERSION, CodeGraph, FileRecord, GraphUnavailable
from junitbot.analysis.layers import layer_of
from junitbot.analysis.models import FileFacts, IndexSummary, ParseProblem, SourceRoot
from junitbot.analysis.resolve import names_used, resolve_edges, resolve_samples, resolve_supertypes
from junitbot.analysis.sources import (
    SkippedFile,
    is_candidate,
    is_test_path,
    module_of,
    read_source,
    source_root_of,
    walk_java_files,
)
from junitbot.config import JunitbotConfig
from junitbot.errors import StoreCorrupt
from junitbot.processes import die_with_parent, only_thread
from junitbot.state import StateDir

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]
PARALLEL_THRESHOLD = 400
"""Below this many files a process pool costs more to start than it saves."""
"""Called as (stage, done, total) while files are parsed and resolved."""


def update_graph(
    root: Path,
    state: StateDir,
    config: JunitbotConfig,
    *,
    full: bool = False,
    progress: ProgressCallback | None = None,
) -> IndexSummary:
    """Index `root` into the state directory's graph; full on request or when history does not allow less."""
    started = time.perf_counter()
    root = root.resolve()
    state.ensure()
    checkout = open_checkout(root)
    head = checkout.head() if checkout else None
    reason = _full_rebuild_reason(state, config, checkout, head, requested=full)
    if reason is None:
        try:
            with CodeGraph.open(state.graph_db) as graph:
                summary = _Build(root, config, checkout, head, progress).incremental(graph)
        except StoreCorrupt as e:
            reason = str(e)  # the file is set aside by now (issue 18): build the graph anew
    if reason is not None:
        summary = _Build(root, config, checkout, head, progress).full(state.graph_db, reason)
    seconds = {**summary.seconds, "total": time.perf_counter() - started}
    return summary.model_copy(update={"seconds": {k: round(v, 4) for k, v in seconds.items()}})


def _full_rebuild_reason(
    state: StateDir, config: JunitbotConfig, checkout: GitCheckout | None, head: str | None, *, requested: bool
) -> str | None:
    if requested:
        return "full rebuild requested"
    if not state.graph_db.exists():
        return "no graph yet"
    try:
        with CodeGraph.open(state.graph_db) as graph:
            last = graph.commit
            fingerprint = graph.meta("fingerprint")
            had_git = graph.meta("git") == "1"
    except (GraphUnavailable, StoreCorrupt) as e:
        return f"the graph could not be used ({e})"
    if fingerprint != config.analysis_fingerprint():
        return "analysis settings changed (ignore, max_file_bytes or layers)"
    if had_git != (checkout is not None):
        return "the repository's git status changed"
    if checkout is None:
        return None
    if last is None:
        return None if head is None else "first commit since the graph was built"
    if head is None or not checkout.is_ancestor(last, head):
        return f"last indexed commit {last[:12]} is not an ancestor of HEAD (history was rewritten)"
    return None


class _Build:
    """One indexing run: which files to (re)parse, then resolution and writing."""

    def __init__(
        self,
        root: Path,
        config: JunitbotConfig,
        checkout: GitCheckout | None,
        head: str | None,
        progress: ProgressCallback | None,
    ) -> None:
        self.root = root
        self.config = config
        self.checkout = checkout
        self.head = head
        self.progress = progress or (lambda stage, done, total: None)
        self.seconds: dict[str, float] = {}
        self.started_ns = time.time_ns()
        self._dirty_paths: set[str] | None = None

    # -- the two modes -----------------------------------------------------------------------------

    def full(self, db: Path, reason: str) -> IndexSummary:
        tick = time.perf_counter()
        paths = self._all_paths()
        self.seconds["scan"] = time.perf_counter() - tick
        with CodeGraph.rebuild(db) as graph:
            # Facts go to the store as soon as a file is parsed; the graph's facts hold no member detail.
            files = [f for f in self._parse_into(graph, paths) if f is not None]
            self._resolve(graph, files, files, graph.all_fqns())
            self._finish(graph)
            summary = self._summary(graph, incremental=False, reason=reason, parsed=len(paths), removed=0,
                                    reresolved=0)
        return summary

    def incremental(self, graph: CodeGraph) -> IndexSummary:
        tick = time.perf_counter()
        candidates, reason = self._candidates(graph)
        known = graph.file_records(candidates)
        ignored = self.checkout.ignored(candidates) if self.checkout is not None else set()
        last_started = int(graph.meta("started_ns") or 0)
        to_parse, to_remove = [], []
        for path in sorted(candidates):
            if path in ignored or not self._on_disk(path):
                if path in known:
                    to_remove.append(path)
            elif self._changed(path, known.get(path), last_started):
                to_parse.append(path)
        self.seconds["scan"] = time.perf_counter() - tick
        with graph.transaction():
            before_symbols = graph.all_fqns()
            before_supertypes = graph.supertype_map()
            graph.remove_files([*to_remove, *to_parse])
            new_facts = [f for f in self._parse_into(graph, to_parse) if f is not None]
            symbols = graph.all_fqns()
            # Names that now resolve differently: files mentioning a type that appeared or vanished.
            changed_names = {fqn.rsplit(".", 1)[-1] for fqn in before_symbols ^ symbols}
            settled = set(to_parse) | set(to_remove)
            by_name = self._load(graph, graph.paths_using(changed_names) - settled)
            self._resolve_supertypes(graph, [*new_facts, *by_name], symbols)
            after_supertypes = graph.supertype_map()
            changed_supers = {fqn for fqn in before_supertypes.keys() | after_supertypes.keys()
                              if before_supertypes.get(fqn) != after_supertypes.get(fqn)}
            # Files that found inherited member types through a type whose supertypes changed.
            settled |= {f.path for f in by_name}
            by_super = self._load(graph, graph.paths_consulting(changed_supers) - settled)
            dependents = [*by_name, *by_super]
            graph.clear_resolved([f.path for f in dependents])
            self._resolve(graph, [*new_facts, *dependents], [], symbols, supertypes=after_supertypes)
            self._finish(graph)
        log.info("incremental update: %d parsed, %d removed, %d re-resolved", len(to_parse), len(to_remove),
                 len(dependents))
        return self._summary(graph, incremental=True, reason=reason, parsed=len(to_parse), removed=len(to_remove),
                             reresolved=len(dependents))

    # -- steps ---------------------------------------------------------------------------------------

    def _all_paths(self) -> list[str]:
        if self.checkout is not None:
            # The index still lists tracked files deleted from the work tree; the graph follows the disk.
            return [p for p in self.checkout.list_java_files(self.config.ignore) if self._on_disk(p)]
        return walk_java_files(self.root, self.config.ignore)

    def _candidates(self, graph: CodeGraph) -> tuple[set[str], str]:
        """Paths that may differ from the graph: committed changes, the work tree's, and last time's."""
        if self.checkout is None:
            return set(self._all_paths()) | set(graph.file_records()), "not a git repository: compared the work tree"
        last = graph.commit
        previously_dirty = set(json.loads(graph.meta("dirty") or "[]"))
        if last is None:
            return set(self._all_paths()) | set(graph.file_records()), "no commit yet: compared the work tree"
        changes = self.checkout.changes_since(last, self.head, self.config.ignore)
        return set(changes.paths) | self._dirty() | previously_dirty, changes.reason

    def _dirty(self) -> set[str]:
        """The work tree's changes against HEAD, asked of git once per run."""
        if self._dirty_paths is None:
            self._dirty_paths = self.checkout.dirty(self.config.ignore) if self.checkout is not None else set()
        return self._dirty_paths

    @staticmethod
    def _load(graph: CodeGraph, paths: Iterable[str]) -> list[FileFacts]:
        return [f for f in (graph.facts(p) for p in sorted(paths)) if f is not None]

    def _on_disk(self, path: str) -> bool:
        full = self.root / path
        return is_candidate(path, self.config.ignore) and (full.is_file() or full.is_symlink())

    def _changed(self, path: str, record: FileRecord | None, last_started_ns: int) -> bool:
        if record is None:
            return True
        try:
            stat = (self.root / path).lstat()
            # Without git, size and mtime decide, as in git's own index; a file modified in the same
            # clock tick as the last run started is "racily clean" and gets hashed (git does the same).
            # With git the candidates are few, so they are always hashed.
            same_stat = (stat.st_size, stat.st_mtime_ns) == (record.size, record.mtime_ns)
            if self.checkout is None and same_stat and stat.st_mtime_ns < last_started_ns:
                return False
            if not record.parsed:
                return True
            return read_source(self.root, path, max_bytes=self.config.max_file_bytes).blob_sha != record.blob_sha
        except (OSError, SkippedFile):
            return True

    def _parsed(self, paths: Sequence[str]) -> Iterator[tuple[FileRecord, FileFacts | None, bytes | None]]:
        """Each file parsed, in order; large batches on every core (parsing is most of a full build)."""
        workers = min(os.cpu_count() or 1, 8)
        # Forked workers start in milliseconds and need no importable __main__; forking is only safe
        # while this process runs no other thread, native ones included (one could hold a lock the child would
        # inherit: a forked parser then waits forever, and so does the index).
        if len(paths) < PARALLEL_THRESHOLD or workers < 2 or not only_thread():
            yield from (parse_for_graph(self.root, p, self.config.max_file_bytes) for p in paths)
            return
        context = multiprocessing.get_context("fork")
        # A killed indexer must take its workers along: orphans would block forever writing results to a pipe
        # nobody reads, and hold open the stdin of git cat-file, which then never sees EOF (issue 18).
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=die_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            parse = functools.partial(parse_for_graph, self.root, max_file_bytes=self.config.max_file_bytes)
            yield from pool.map(parse, paths, chunksize=64)

    def _parse_into(self, graph: CodeGraph, paths: Sequence[str]) -> Iterator[FileFacts | None]:
        """Parse each file and store its record, facts, names used and types; yields the facts."""
        tick = time.perf_counter()
        for done, (path, (record, facts, source)) in enumerate(zip(paths, self._parsed(paths), strict=True), 1):
            graph.put_file(record, facts, source)
            if facts is not None:
                graph.put_ref_names(path, names_used(facts))
                layers = {c.fqn: layer_of(c.package, c.name, self.config.layers) for c in facts.classes}
                graph.put_types(path, facts.classes, layers)
            if done % 50 == 0 or done == len(paths):
                self.progress("parse", done, len(paths))
            yield facts
        self.seconds["parse"] = self.seconds.get("parse", 0.0) + time.perf_counter() - tick

    def _resolve_supertypes(self, graph: CodeGraph, files: Sequence[FileFacts], symbols: set[str]) -> None:
        """Phase one: each type's repo supertypes, which phase two needs to find inherited member types."""
        graph.clear_supertypes([f.path for f in files])
        for facts in files:
            graph.put_supertypes(facts.path, resolve_supertypes(facts, symbols))

    def _resolve(
        self,
        graph: CodeGraph,
        files: Sequence[FileFacts],
        new_supertypes: Sequence[FileFacts],
        symbols: set[str],
        *,
        supertypes: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        """Phase two for `files` (after phase one for `new_supertypes`, unless `supertypes` is given)."""
        tick = time.perf_counter()
        if supertypes is None:
            self._resolve_supertypes(graph, new_supertypes, symbols)
            supertypes = graph.supertype_map()
        for done, facts in enumerate(files, 1):
            edges, consulted = resolve_edges(facts, symbols, supertypes=supertypes)
            samples, sample_consulted = resolve_samples(facts, symbols, supertypes=supertypes)
            graph.put_edges(facts.path, edges)
            graph.put_consults(facts.path, consulted | sample_consulted)
            graph.put_samples(facts.path, samples)
            if done % 200 == 0 or done == len(files):
                self.progress("resolve", done, len(files))
        self.seconds["resolve"] = time.perf_counter() - tick

    def _finish(self, graph: CodeGraph) -> None:
        dirty = sorted(self._dirty()) if self.head is not None else []
        graph.set_meta(
            started_ns=str(self.started_ns),
            commit=self.head,
            dirty=json.dumps(dirty),
            fingerprint=self.config.analysis_fingerprint(),
            git="1" if self.checkout is not None else "0",
            schema=SCHEMA_VERSION,
        )

    def _summary(
        self, graph: CodeGraph, *, incremental: bool, reason: str, parsed: int, removed: int, reresolved: int
    ) -> IndexSummary:
        files, classes, edges = graph.counts()
        problems = graph.problems()
        duplicates = graph.duplicate_fqns()
        problems.extend(
            ParseProblem(path=paths[1], line=0, severity="warning",
                         message=f"duplicate type {fqn} (also in {paths[0]}); the graph uses {paths[0]}")
            for fqn, paths in duplicates.items()
        )
        roots = []
        for path, test, count in graph.source_root_counts():
            module, build = module_of(self.root, path)
            roots.append(SourceRoot(path=path, module=module, build=build, test=test, files=count))
        return IndexSummary(
            commit=self.head,
            incremental=incremental,
            reason=reason,
            git=self.checkout is not None,
            files=files,
            files_parsed=parsed,
            files_removed=removed,
            files_reresolved=reresolved,
            classes=classes,
            edges=edges,
            problems=tuple(problems),
            source_roots=tuple(roots),
            seconds=dict(self.seconds),
        )


def parse_for_graph(root: Path, path: str, max_file_bytes: int) -> tuple[FileRecord, FileFacts | None, bytes | None]:
    """Read and parse one file for the graph: its record, its facts, and the bytes they came from."""
    full = root / path
    is_test = is_test_path(path)
    try:
        stat = full.lstat()
    except OSError as e:
        problem = ParseProblem(path=path, line=0, severity="warning", message=f"cannot read: {e.strerror}")
        return FileRecord(path, "", 0, 0, False, (problem,), None, is_test), None, None
    try:
        source = read_source(root, path, max_bytes=max_file_bytes)
    except (SkippedFile, OSError) as e:
        problem = ParseProblem(path=path, line=0, severity="warning", message=f"skipped: {e}")
        return FileRecord(path, "", stat.st_size, stat.st_mtime_ns, False, (problem,), None, is_test), None, None
    try:
        facts = extract_file(source.data, path, is_test=is_test, members=False)
    except Exception as e:  # one file the analysis cannot read costs that file, never the run
        log.warning("%s could not be analysed and is left out of the graph: %s", path, _reason(e))
        problem = ParseProblem(path=path, line=0, severity="error",
                               message=f"could not be analysed, left out of the graph: {_reason(e)}")
        return FileRecord(path, source.blob_sha, stat.st_size, stat.st_mtime_ns, False, (problem,), None,
                          is_test), None, None
    problems = facts.problems
    if source.warning:
        problems = (ParseProblem(path=path, line=0, severity="warning", message=source.warning), *problems)
    record = FileRecord(path, source.blob_sha, stat.st_size, stat.st_mtime_ns, True, tuple(problems),
                        source_root_of(path, facts.package), is_test)
    return record, facts, source.data


def _reason(error: BaseException) -> str:
    """An exception in one line, as a parse problem shows it."""
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__

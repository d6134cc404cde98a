"""Whether the embedding index and the code graph describe the same commit and the same files."""

from __future__ import annotations

from junitbot.analysis.graph import CodeGraph
from junitbot.retrieval.index import read_manifest
from junitbot.retrieval.models import ConsistencyReport
from junitbot.retrieval.store import ChunkStore
from junitbot.retrieval.vectors import VectorIndex
from junitbot.state import StateDir


def check_consistency(state: StateDir) -> ConsistencyReport:
    """Compare graph and index file by file (blob hashes), and the FAISS file against the chunk table."""
    with CodeGraph.open(state.graph_db) as graph:
        graph_commit = graph.commit
        graph_files = {path: sha for test in (False, True) for path, sha in graph.source_files(test=test)}
    if not state.retrieval_db.exists():
        return ConsistencyReport(ok=False, graph_commit=graph_commit, index_commit=None,
                                 missing_files=tuple(sorted(graph_files)), problems=("no embedding index",))
    problems: list[str] = []
    with ChunkStore.of(state) as store:
        index_commit = store.meta("commit") or None
        indexed = store.file_shas()
        chunk_ids = set(store.chunk_ids().tolist())
        generation = store.generation
    manifest = read_manifest(state)
    vectors = 0
    if manifest is None:
        problems.append("no FAISS manifest")
    else:
        if manifest.generation != generation:
            problems.append(f"FAISS file of generation {manifest.generation}, chunk table of {generation}")
        if manifest.commit != index_commit:
            problems.append(f"FAISS manifest at {manifest.commit}, chunk table at {index_commit}")
        try:
            faiss_ids = set(VectorIndex.read(state.faiss_index, manifest.index_type, manifest.checksum).ids().tolist())
        except (OSError, ValueError) as e:
            problems.append(f"FAISS file unusable: {e}")
        else:
            vectors = len(faiss_ids)
            if faiss_ids != chunk_ids:
                problems.append(f"FAISS holds {len(faiss_ids - chunk_ids)} ids with no chunk and lacks "
                                f"{len(chunk_ids - faiss_ids)} chunks")
    if graph_commit != index_commit:
        problems.append(f"graph at {graph_commit and graph_commit[:12]}, index at {index_commit and index_commit[:12]}")
    missing = tuple(sorted(p for p in graph_files if p not in indexed))
    extra = tuple(sorted(p for p in indexed if p not in graph_files))
    stale = tuple(sorted(p for p, sha in graph_files.items() if p in indexed and indexed[p] != sha))
    if missing or extra or stale:
        problems.append(f"{len(missing)} files missing, {len(extra)} extra, {len(stale)} stale")
    return ConsistencyReport(ok=not problems, graph_commit=graph_commit, index_commit=index_commit,
                             missing_files=missing, extra_files=extra, stale_files=stale, vectors=vectors,
                             chunks=len(chunk_ids), problems=tuple(problems))

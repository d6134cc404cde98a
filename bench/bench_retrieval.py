"""Embedding index benchmarks: incremental vs full, ours vs bare encode, search latency, search quality.

    .venv/bin/python bench/bench_retrieval.py                 # 5,000 files, 100,000 vectors (~10-20 min on 2 cores)
    .venv/bin/python bench/bench_retrieval.py --files 600 --vectors 20000     # a quick run

a. Incremental vs full: a generated repository of --files Java files is indexed from scratch (every chunk
   embedded), then one file's method body changes in a commit and the index is updated. Model load is
   excluded from both (the model is loaded once, before either is timed).
b. Throughput: the chunk texts of a --throughput-files subset, embedded by `update_index` from a fresh state
   (chunking, hashing, embedding, SQLite, FAISS) against bare `SentenceTransformer.encode` on the same texts.
c. Latency: a store of --vectors chunks (the generated chunks repeated, real vectors with small noise),
   searched by `Searcher.search` (query embedding, FAISS, BM25, fusion, chunk fetch): p50 and p99.
d. Quality on the example: top-1 and top-5 of hand-written method queries, dense only, BM25 only and fused.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generate_repo import generate_repo
from junitbot.analysis import update_graph
from junitbot.config import load_config
from junitbot.retrieval.embed import load_embedder
from junitbot.retrieval.index import update_index, write_manifest
from junitbot.retrieval.models import Chunk, ChunkKind
from junitbot.retrieval.search import Searcher
from junitbot.retrieval.store import ChunkStore
from junitbot.retrieval.vectors import VectorIndex
from junitbot.state import StateDir

PROJECT = Path(__file__).resolve().parent.parent
QUERIES = PROJECT / "tests" / "fixtures" / "retrieval" / "method_queries.yml"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
                        "GIT_COMMITTER_EMAIL": "b@b"})


def make_repo(root: Path, files: int) -> None:
    generate_repo(root, files, seed=0)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "generated")


def part_a(work: Path, files: int, embedder: object) -> list[str]:
    root = work / "repo"
    log(f"a: generating {files} files")
    make_repo(root, files)
    config = load_config(root, environ={})
    state = StateDir.for_repo(root, config)
    update_graph(root, state, config)
    log("a: full index (embedding every chunk)")
    tick = time.perf_counter()
    full = update_index(state, config, embedder=embedder)  # type: ignore[arg-type]
    full_s = time.perf_counter() - tick
    target = next(p for p in sorted(root.rglob("*.java")) if "/main/" in str(p) and "public " in p.read_text())
    text = target.read_text()
    brace = text.rindex("}")
    target.write_text(text[:brace] + "    public int benchAdded(int x) { return x + 1; }\n}\n")
    git(root, "commit", "-qam", "one method")
    update_graph(root, state, config)
    tick = time.perf_counter()
    incremental = update_index(state, config, embedder=embedder)  # type: ignore[arg-type]
    incremental_s = time.perf_counter() - tick
    ratio = full_s / incremental_s
    return [
        f"## a. One-file commit vs full rebuild ({files} files, model load excluded from both)",
        "",
        "| | chunks | embedded | seconds |",
        "|---|---:|---:|---:|",
        f"| full | {full.chunks} | {full.embedded} | {full_s:.2f} |",
        f"| one-file commit | {incremental.chunks_added} added, {incremental.chunks_removed} removed "
        f"| {incremental.embedded} | {incremental_s:.3f} |",
        "",
        f"incremental is **{ratio:.0f}x** faster (target >= 50x): {'met' if ratio >= 50 else 'NOT met'}; "
        f"full stages {full.seconds}; incremental stages {incremental.seconds}",
        "",
    ]


def part_b(work: Path, files: int, embedder: object) -> list[str]:
    root = work / "repo-b"
    make_repo(root, files)
    config = load_config(root, environ={})
    state = StateDir.for_repo(root, config)
    update_graph(root, state, config)
    log(f"b: ours on {files} files")
    tick = time.perf_counter()
    summary = update_index(state, config, embedder=embedder)  # type: ignore[arg-type]
    ours = time.perf_counter() - tick
    with ChunkStore(state.retrieval_db) as store:
        texts = list({c.content_hash: c.text for c in store.chunks()}.values())
    log(f"b: bare encode of the same {len(texts)} texts")
    model = embedder.model  # type: ignore[attr-defined]
    tick = time.perf_counter()
    model.encode(texts, batch_size=config.retrieval.batch_size, normalize_embeddings=True, convert_to_numpy=True,
                 show_progress_bar=False)
    bare = time.perf_counter() - tick
    ratio = (len(texts) / ours) / (len(texts) / bare)
    return [
        f"## b. Embedding throughput, ours vs bare `SentenceTransformer.encode` ({len(texts)} unique chunk texts)",
        "",
        "| path | seconds | chunks/s |",
        "|---|---:|---:|",
        f"| update_index from scratch (chunk, hash, embed, SQLite, FAISS) | {ours:.2f} | {len(texts) / ours:.0f} |",
        f"| bare encode, batch {config.retrieval.batch_size} | {bare:.2f} | {len(texts) / bare:.0f} |",
        "",
        f"ours / bare = **{ratio:.2f}** (target >= 0.8): {'met' if ratio >= 0.8 else 'NOT met'}; "
        f"stages {summary.seconds}",
        "",
    ]


def part_c(work: Path, vectors: int, embedder: object) -> list[str]:
    source = StateDir(work / "repo" / ".junitbot")
    if not source.retrieval_db.exists():
        source = StateDir(work / "repo-b" / ".junitbot")
    with ChunkStore(source.retrieval_db) as store:
        chunks = store.chunks()
        dim = int(store.meta("dimension") or 384)
        base = store.vectors_for([c.content_hash for c in chunks], dim)
    rng = np.random.default_rng(0)
    rows: list[str] = [f"## c. Search latency at {vectors:,} vectors (query embedding included)", "",
                       "| index | p50 ms | p99 ms | build s |", "|---|---:|---:|---:|"]
    queries = ["place an order for a customer", "find by id", "Repository", "validate the email address",
               "convert money between currencies", "cancel the shipment", "publish a domain event", "compute total"]
    for kind in ("flat", "ivf", "hnsw"):
        state = StateDir(work / f"latency-{kind}")
        shutil.rmtree(state.root, ignore_errors=True)
        state.ensure()
        config = load_config(work, environ={}, overrides={"retrieval": {"index_type": kind}})
        tick = time.perf_counter()
        with ChunkStore(state.retrieval_db) as store, store.transaction():
            ids, matrix, copies = [], [], 0
            while len(ids) < vectors:
                batch: list[Chunk] = []
                for chunk in chunks:
                    if len(ids) >= vectors:
                        break
                    text = f"{chunk.text}\n// copy {copies}"
                    new = chunk.model_copy(update={"id": len(ids) + 1, "path": f"copy{copies}/{chunk.path}",
                                                   "text": text, "content_hash": f"{chunk.content_hash}-{copies}"})
                    vector = base[chunk.content_hash] + rng.normal(0, 0.02, dim).astype(np.float32)
                    vector /= np.linalg.norm(vector)
                    batch.append(new)
                    ids.append(new.id)
                    matrix.append(vector)
                store.put_file(f"copy{copies}", "sha", batch)
                store.put_vectors({c.content_hash: matrix[c.id - 1] for c in batch})
                copies += 1
            store.set_meta(commit="bench", model=config.retrieval.model, dimension=dim, generation=1,
                           fingerprint=config.analysis_fingerprint(), chunk_tokens=config.retrieval.chunk_max_tokens)
        with ChunkStore(state.retrieval_db) as store:
            index = VectorIndex.build(np.stack(matrix), np.array(ids, dtype=np.int64), dim, config.retrieval)
            write_manifest(state, index, store, config.retrieval.model, dim)
        build = time.perf_counter() - tick
        with Searcher(state, config, embedder=embedder) as searcher:  # type: ignore[arg-type]
            searcher.search("warm up", k=10)
            timings = []
            for i in range(200):
                tick = time.perf_counter()
                searcher.search(queries[i % len(queries)], k=10)
                timings.append((time.perf_counter() - tick) * 1000)
        timings.sort()
        rows.append(f"| {kind} | {statistics.median(timings):.1f} | {timings[int(len(timings) * 0.99) - 1]:.1f} "
                    f"| {build:.1f} |")
        log(f"c: {kind} done")
    return [*rows, ""]


def part_d(work: Path, embedder: object) -> list[str]:
    root = work / "shop"
    shutil.copytree(PROJECT / "examples" / "shop", root,
                    ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "shop")
    config = load_config(root, environ={})
    state = StateDir.for_repo(root, config)
    update_graph(root, state, config)
    update_index(state, config, embedder=embedder)  # type: ignore[arg-type]
    queries: dict[str, str] = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    rows = ["## d. Method queries on the example (name + hand-written description)", "",
            "| ranker | top-1 | top-5 |", "|---|---:|---:|"]
    with Searcher(state, config, embedder=embedder) as searcher:  # type: ignore[arg-type]
        rankers = {
            "dense only": lambda q: [i for i in searcher.vectors.search(searcher.embedder.encode([q]), 5)[1][0]],
            "BM25 only": lambda q: [i for i, _ in searcher.lexical.search(q, 5)],
            "fused (RRF)": lambda q: [h.chunk.id for h in searcher.search(q, k=5)],
        }
        ids = {f"{c.fqn}#{c.name}": c.id for c in searcher.store.chunks(kinds={ChunkKind.METHOD})}
        for name, ranker in rankers.items():
            top1 = top5 = 0
            for key, description in queries.items():
                found = list(ranker(f"{key.split('#')[1].split('(')[0]} {description}"))
                top1 += bool(found) and found[0] == ids[key]
                top5 += ids[key] in found
            rows.append(f"| {name} | {top1 / len(queries):.1%} | {top5 / len(queries):.1%} |")
    return [*rows, "", f"{len(queries)} methods; target: fused top-5 >= 90%", ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--throughput-files", type=int, default=300)
    parser.add_argument("--vectors", type=int, default=100_000)
    parser.add_argument("--skip", action="append", default=[], choices=["a", "b", "c", "d"])
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-retrieval-"))
    work.mkdir(parents=True, exist_ok=True)
    config = load_config(PROJECT, environ={})
    tick = time.perf_counter()
    embedder = load_embedder(config.retrieval)
    report = [f"# Retrieval benchmark ({os.cpu_count()} cores, device {embedder.device}, model load "
              f"{time.perf_counter() - tick:.1f} s, excluded below)", ""]
    try:
        if "d" not in args.skip:
            report += part_d(work, embedder)
        if "b" not in args.skip:
            report += part_b(work, args.throughput_files, embedder)
        if "a" not in args.skip:
            report += part_a(work, args.files, embedder)
        if "c" not in args.skip:
            report += part_c(work, args.vectors, embedder)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

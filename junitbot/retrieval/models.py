"""Records of the embedding index: chunks, the manifest, update summaries, search hits, consistency."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from junitbot.records import Record


class ChunkKind(StrEnum):
    CLASS = "class"
    METHOD = "method"
    TEST = "test"


class Chunk(Record):
    """One searchable piece of code: a type's header, one method, or an existing test class.

    `text` is what is embedded and what BM25 sees; it never names the file, so a renamed file with the same
    content keeps its `content_hash` and is not embedded again. `id` is stable for the same identity
    (path, kind, qualified name and signature), as FAISS ids must be.
    """

    id: int
    kind: ChunkKind
    path: str
    fqn: str = Field(description="the type's FQN; for a method, the FQN of the type declaring it")
    name: str = Field(description="simple name of the type, or `method(ParamTypes)` for a method")
    package: str
    layer: str | None = None
    line: int = 0
    text: str
    content_hash: str
    tested_fqn: str | None = Field(default=None, description="for a test chunk: the class it tests, when known")


class IndexManifest(Record):
    """What the FAISS file beside it holds; written after the file, so a mismatch means a torn write."""

    commit: str | None
    model: str
    dimension: int
    index_type: str
    vectors: int
    generation: int = Field(description="the chunk store's generation this file was written from")
    checksum: str = Field(description="sha256 of the FAISS file")


class EmbeddingSummary(Record):
    """What one `update_index` did."""

    commit: str | None
    model: str
    dimension: int
    device: str
    index_type: str
    full: bool
    reason: str
    files_changed: int
    chunks: int
    chunks_added: int
    chunks_removed: int
    embedded: int = Field(description="chunks whose text had no cached vector")
    reused: int = Field(description="new chunks whose vector came from the content-hash cache")
    warnings: tuple[str, ...] = ()
    seconds: dict[str, float] = Field(default_factory=dict)


class SearchHit(Record):
    chunk: Chunk
    score: float = Field(description="fused score (reciprocal rank fusion), or 1.0 for an exact name match")
    exact: bool = False
    dense_rank: int | None = None
    lexical_rank: int | None = None


class ConsistencyReport(Record):
    """Whether the embedding index and the code graph describe the same commit and the same files."""

    ok: bool
    graph_commit: str | None
    index_commit: str | None
    missing_files: tuple[str, ...] = Field(default=(), description="in the graph, not in the index")
    extra_files: tuple[str, ...] = Field(default=(), description="in the index, not in the graph")
    stale_files: tuple[str, ...] = Field(default=(), description="in both, with different content")
    vectors: int = 0
    chunks: int = 0
    problems: tuple[str, ...] = ()

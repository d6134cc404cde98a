"""StateDir: where one target repository's graph, index, Dagster instance and reports live."""

from __future__ import annotations

from pathlib import Path

from junitbot.config import JunitbotConfig

DEFAULT_STATE_DIR = ".junitbot"


class StateDir:
    """The state directory of one repository; creating it also keeps it out of git."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @classmethod
    def for_repo(cls, repo: Path, config: JunitbotConfig) -> StateDir:
        """The configured state directory, or `<repo>/.junitbot`."""
        return cls(config.state_dir or repo / DEFAULT_STATE_DIR)

    @property
    def graph_db(self) -> Path:
        return self.root / "graph.sqlite"

    @property
    def retrieval_db(self) -> Path:
        """Chunks, their vectors and the index manifest's source of truth (SQLite)."""
        return self.root / "retrieval.sqlite"

    @property
    def faiss_index(self) -> Path:
        return self.root / "embeddings.faiss"

    @property
    def faiss_manifest(self) -> Path:
        return self.root / "embeddings.json"

    @property
    def lexical_index(self) -> Path:
        return self.root / "bm25"

    @property
    def vector_cache(self) -> Path:
        """Embeddings by model and content hash, apart from the index store (`retrieval.vector_cache`): a store
        set aside, wiped or re-chunked takes its vectors from here rather than from the model again."""
        return self.root / "vectors.sqlite"

    @property
    def tools(self) -> Path:
        """The pinned Java tools fetched from Maven Central, with their checksums (`validation.tools`)."""
        return self.root / "tools"

    @property
    def classpaths(self) -> Path:
        """The Maven classpaths resolved here, one file per poms (with Maven's config and local repository) and
        main sources: going back to a branch finds its resolution again."""
        return self.root / "build" / "maven-classpaths"

    @property
    def baselines(self) -> Path:
        """What the repository's own tests cover and kill, per target, keyed by everything it depends on (the
        baseline), and PIT's history of those runs."""
        return self.root / "baseline"

    @property
    def gate(self) -> Path:
        """The build gate's scratch copy of the work tree, where `mvn test` runs (never the user's tree)."""
        return self.root / "gate"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    def ensure(self) -> StateDir:
        """Create the directory with a `.gitignore` of `*`, so its files never show up as changes."""
        self.root.mkdir(parents=True, exist_ok=True)
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            # Everything but the prompt and report templates a team keeps in .junitbot/templates/.
            ignore.write_text("# junitbot state: never commit\n*\n!templates/\n!templates/**\n",
                              encoding="utf-8")
        return self

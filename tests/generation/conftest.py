"""Fixtures of the generation tests: indexed copies of the example shop and of small Java repos."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import git
import pytest

from junitbot.analysis import ClassInfo, CodeGraph, DependencyAnalyzer, update_graph
from junitbot.config import JunitbotConfig, load_config
from junitbot.state import StateDir
from tests.conftest import EXAMPLE, commit_all

_IDENTITY = {"GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
             "GIT_COMMITTER_NAME": "Test Author", "GIT_COMMITTER_EMAIL": "author@example.com"}


@dataclass
class Indexed:
    """A Java repository indexed into its own state directory, with the graph open."""

    root: Path
    config: JunitbotConfig
    state: StateDir
    graph: CodeGraph
    analyzer: DependencyAnalyzer
    lookup: Callable[[str], ClassInfo | None]

    def info(self, fqn: str) -> ClassInfo:
        found = self.lookup(fqn)
        assert found is not None, fqn
        return found


def write_files(root: Path, files: Mapping[str, str]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def index_files(tmp_path_factory: pytest.TempPathFactory, folder: str, files: Mapping[str, str]) -> Iterator[Indexed]:
    """`files` written into a fresh folder and indexed without git (a module fixture's body)."""
    root = tmp_path_factory.mktemp(folder) / folder
    write_files(root, files)
    yield from index(root, use_git=False)


def index(root: Path, *, config_text: str | None = None, use_git: bool = True) -> Iterator[Indexed]:
    """Index `root` (committed first when `use_git`) and yield it with its graph open."""
    if config_text is not None:
        (root / ".junitbot.yml").write_text(config_text)
    repo = None
    if use_git:
        with pytest.MonkeyPatch.context() as patch:
            for name, value in _IDENTITY.items():
                patch.setenv(name, value)
            patch.setenv("GIT_CONFIG_NOSYSTEM", "1")
            repo = git.Repo.init(root, initial_branch="main")
            commit_all(repo, "initial")
    config = load_config(root, environ={})
    state = StateDir(root.parent / f"state-{root.name}")
    update_graph(root, state, config)
    with CodeGraph.open(state.graph_db) as graph:
        yield Indexed(root, config, state, graph, DependencyAnalyzer(graph), functools.cache(graph.class_info))
    if repo is not None:
        repo.close()


def copy_shop(target: Path, extra: Mapping[str, str] | None = None) -> Path:
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
    write_files(target, extra or {})
    return target


_EDGE = "src/main/java/com/example/edge"
# Small classes for what the shop does not show: cycles, generics, factories, visibility, Lombok, containers.
EDGE_SOURCES = {
    f"{_EDGE}/Node.java": "package com.example.edge;\npublic record Node(String name, Node next) {}\n",
    f"{_EDGE}/Tree.java": """package com.example.edge;
import java.util.List;
public record Tree(String name, List<Tree> children) {}
""",
    f"{_EDGE}/Box.java": "package com.example.edge;\npublic record Box<T>(T content) {}\n",
    f"{_EDGE}/Level.java": """package com.example.edge;
public enum Level { LOW, MEDIUM, HIGH; public int rank() { return ordinal(); } }
""",
    f"{_EDGE}/Empty.java": """package com.example.edge;
public enum Empty { ; public static int none() { return 0; } }
""",
    f"{_EDGE}/Point.java": """package com.example.edge;
public final class Point {
    private final int x;
    private final int y;
    public Point() { this(0, 0); }
    public Point(int x, int y) { this.x = x; this.y = y; }
    public Point(Point other) { this(other.x, other.y); }
    public int x() { return x; }
}
""",
    f"{_EDGE}/Temperature.java": """package com.example.edge;
public final class Temperature {
    private final double kelvin;
    private Temperature(double kelvin) { this.kelvin = kelvin; }
    public static Temperature random() { return new Temperature(Math.random()); }
    public static Temperature ofCelsius(double celsius) { return new Temperature(celsius + 273.15); }
    public static Temperature of(double kelvin) { return new Temperature(kelvin); }
    public double kelvin() { return kelvin; }
}
""",
    f"{_EDGE}/Locked.java": """package com.example.edge;
public final class Locked {
    private Locked() { }
    public void open() { }
}
""",
    f"{_EDGE}/Quiet.java": """package com.example.edge;
public class Quiet { public Quiet() { } private void hush() { } }
""",
    f"{_EDGE}/Shape.java": """package com.example.edge;
public interface Shape {
    double area();
    static Shape unit() { return () -> 1.0; }
}
""",
    f"{_EDGE}/Base.java": "package com.example.edge;\npublic abstract class Base { public abstract int size(); }\n",
    f"{_EDGE}/Outer.java": """package com.example.edge;
public class Outer {
    public class Inner { public Inner() { } public int one() { return 1; } }
    public static class Nested { public Nested(String label) { } public int two() { return 2; } }
    private static class Secret { public int three() { return 3; } }
}
""",
    f"{_EDGE}/Ticket.java": """package com.example.edge;
import lombok.Builder;
@Builder
public class Ticket {
    private final String title;
    private final int seats;
    private final Level level;
}
""",
    f"{_EDGE}/Holder.java": """package com.example.edge;
import java.util.*;
import java.util.function.*;
public class Holder {
    public Holder(Map<String, List<Integer>> index, Set<Level> levels, Optional<String> note, int[] counts,
                  String[][] grid, Function<String, Integer> length, Supplier<Point> origin, Runnable task,
                  Class<?> type, SortedMap<String, Long> totals, Iterable<Node> nodes) { }
    public int size() { return 0; }
}
""",
    f"{_EDGE}/Generic.java": """package com.example.edge;
import java.util.List;
public class Generic<K, V> {
    public Generic(Loader<K> loader, List<V> seed) { }
    public K first() { return null; }
}
""",
    f"{_EDGE}/Loader.java": "package com.example.edge;\npublic interface Loader<T> { T load(String key); }\n",
    f"{_EDGE}/Link.java": """package com.example.edge;
public class Link { public Link(Node node) { } public int n() { return 1; } }
""",
    f"{_EDGE}/Chain.java": """package com.example.edge;
public class Chain { public Chain(Link link) { } public int size() { return 1; } }
""",
    f"{_EDGE}/Knot.java": """package com.example.edge;
public class Knot { public Knot(Node node) { } public int size() { return 1; } }
""",
    "src/main/java/com/example/other/Hidden.java": "package com.example.other;\nclass Hidden { }\n",
}


@pytest.fixture(scope="package")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("edge") / "edge"
    write_files(root, EDGE_SOURCES)
    yield from index(root, use_git=False)

"""Shared fixtures: real git repositories built in tmp_path from the bundled example or given sources."""

from __future__ import annotations

import contextlib
import logging
import os

# Each pytest-xdist worker is one of the suite's lanes on the machine's cores: a torch (the embedding model) that
# spread every encoding over all cores would spin its idle OpenMP threads on CPU the other worker's JVMs need
# (tests/retrieval alone: 151 → 114 CPU s). Set before anything imports torch.
os.environ.setdefault("OMP_NUM_THREADS", "1")
import shutil
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import git
import pytest
import yaml

from junitbot.atomic import exclusive
from junitbot.config import JunitbotConfig, load_config
from junitbot.state import StateDir

PROJECT = Path(__file__).resolve().parent.parent
EXAMPLE = PROJECT / "examples" / "shop"

# What a test of a run's flow (its targets, its files, its partitions, what Dagster and the bot record) does not
# check, left out: PIT, the build's own `mvn test`, the second repetition and the coverage round. Each has tests of
# its own (tests/validation/measure, tests/runs/test_build_gate.py, tests/validation/run, the coverage round's in
# tests/generation/template); without them one of the shop's classes runs in a third of a default run's time.
FLOW_ONLY: dict[str, object] = {"validation.mutation": False, "validation.build_gate": False,
                                "validation.repetitions": 1, "generation.coverage_rounds": 0}


def flow_only_yaml(more: Mapping[str, object] | None = None) -> str:
    """`.junitbot.yml` with `FLOW_ONLY` and `more` (dotted keys too)."""
    nested: dict[str, object] = {}
    for dotted, value in {**FLOW_ONLY, **(more or {})}.items():
        *parents, key = dotted.split(".")
        section = nested
        for parent in parents:
            section = section.setdefault(parent, {})  # type: ignore[assignment]
        section[key] = value
    return yaml.safe_dump(nested, sort_keys=False)


def flow_only(root: Path, more: Mapping[str, object] | None = None) -> None:
    """`root`'s `.junitbot.yml` made `flow_only_yaml(more)`, committed."""
    (root / ".junitbot.yml").write_text(flow_only_yaml(more), encoding="utf-8")
    commit_all(git.Repo(root), "junitbot: only the run's flow")


def session_tools_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one cache of pinned Java tools for the test session, shared by pytest-xdist's workers (its lock lets
    one of them fetch while the others wait)."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "junitbot-tools"


@pytest.fixture(scope="session", autouse=True)
def _shared_caches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every state directory of a test uses the session's tools cache (with junitbot's compiled helpers), its
    baseline cache, its Maven classpath cache and its vector cache, as runners sharing a cache do: all are keyed by
    their content (tools checksummed; a baseline by the sources it ran and the classpath; a classpath by the poms,
    checked against the main sources' sizes and times, which a copy of the example keeps, and the main classes
    Maven compiled in the first copy serve the others; a vector by model and text), so sharing changes no outcome
    and saves Maven runs, the helpers' javac, the human suite's JUnit and PIT runs and the encoding of the example's
    chunks per test. Tests of a cache itself pass their own folder or `own_baselines`; the retrieval tests count
    what the model encodes, so they keep their own vector cache. Session-scoped, so module-scoped fixtures get it
    too."""
    tools = session_tools_dir(tmp_path_factory)
    baselines = tools.parent / "junitbot-baselines"
    vectors = tools.parent / "junitbot-vectors.sqlite"
    classpaths = tools.parent / "junitbot-classpaths"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StateDir, "tools", property(lambda self: tools))
        patch.setattr(StateDir, "baselines", property(lambda self: baselines))
        patch.setattr(StateDir, "classpaths", property(lambda self: classpaths))
        patch.setattr(StateDir, "vector_cache", property(lambda self: vectors))
        yield


@contextlib.contextmanager
def own_baselines() -> Iterator[None]:
    """State directories keep their baselines in their own folder for the block (a test of the baseline cache)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StateDir, "baselines", property(lambda self: self.root / "baseline"))
        yield


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No JUNITBOT_* variable or git identity of the developer leaks into a test."""
    for name in list(os.environ):
        if name.startswith("JUNITBOT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Author")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "author@example.com")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def commit_all(repo: git.Repo, message: str) -> str:
    """Stage everything (including deletions) and commit; returns the commit id."""
    repo.git.add("-A")
    repo.git.commit("-q", "--allow-empty", "-m", message)
    return repo.head.commit.hexsha


@pytest.fixture
def make_java_repo(tmp_path: Path) -> Callable[..., Path]:
    """make_java_repo({"src/main/java/a/A.java": "..."}, git=True) -> a repository with one commit."""
    counter = iter(range(1000))

    def make(files: Mapping[str, str | bytes], *, use_git: bool = True) -> Path:
        return write_java_repo(tmp_path / f"repo{next(counter)}", files, use_git=use_git)

    return make


def write_java_repo(root: Path, files: Mapping[str, str | bytes], *, use_git: bool = True) -> Path:
    """`files` written under a new folder `root`, committed as one commit of a new repository (unless not `use_git`);
    `root`. For fixtures of any scope (`make_java_repo` is a test's)."""
    root.mkdir(parents=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    if use_git:
        repo = git.Repo.init(root, initial_branch="main")
        commit_all(repo, "initial")
        repo.close()
    return root


@pytest.fixture
def shop_repo(tmp_path: Path) -> Iterator[Path]:
    """The bundled example as its own git repository, one commit."""
    root = tmp_path / "shop"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java", "target"))
    repo = git.Repo.init(root, initial_branch="main")
    commit_all(repo, "shop: initial import")
    yield root
    repo.close()


@pytest.fixture
def config_for() -> Callable[[Path], JunitbotConfig]:
    return lambda root: load_config(root, environ={})


@pytest.fixture
def state_for(tmp_path: Path) -> Callable[[Path], StateDir]:
    return lambda root: StateDir(tmp_path / f"state-{root.name}")


@pytest.fixture(scope="session")
def maven_tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's tools folder (Maven 3.9 among them), after one online build of the tiny Maven projects
    (`tests/maven_builds.py`) put their artifacts into the local repository: the build gate's runs in the tests
    then work offline. Once per session: the first pytest-xdist worker builds under a lock, the others find its
    mark."""
    from tests.maven_builds import resolve_online

    tools = session_tools_dir(tmp_path_factory)
    done = tools.parent / "maven-resolved"
    with exclusive(tools.parent / "maven-resolve.lock"):
        if not done.is_file():
            scratch = tools.parent / "maven-resolve"
            shutil.rmtree(scratch, ignore_errors=True)  # what a killed build left
            maven, seconds = resolve_online(scratch, tools)
            logging.getLogger(__name__).info("tiny Maven builds resolved online with %s in %.1f s", maven.label,
                                             seconds)
            done.touch()
    return tools


@pytest.fixture
def make_maven_repo(tmp_path: Path, maven_tools: Path) -> Callable[..., tuple[Path, StateDir]]:
    """make_maven_repo(files) -> (a git repository with one commit, its state directory `.junitbot`), after the
    session's one online resolution of the tiny builds (`maven_tools`)."""
    counter = iter(range(1000))

    def make(files: Mapping[str, str], *, use_git: bool = True) -> tuple[Path, StateDir]:
        from tests.maven_builds import write_files

        root = write_files(tmp_path / f"maven{next(counter)}", files)
        if use_git:
            with git.Repo.init(root, initial_branch="main") as repo:
                commit_all(repo, "initial")
        return root, StateDir(root / ".junitbot").ensure()  # its tools are the session's (`_shared_caches`)

    return make

"""Per-test coverage: which JaCoCo probes each test method ran, and which of them it adds to what is covered.

A test JVM under the JaCoCo agent (`jacoco.agent_option`) with `per_test_listener`'s folder on its class path
and `per_test_config(run_dir)` as JUnit configuration (`run_junit(junit_config=...)`, `run_dir` writable) runs
`java/PerTestCoverage.java`: at each start and end of a test or container it takes the agent's data (resetting
it) and writes what ran since to `<run_dir>/<n>.exec`, listed in `<run_dir>/index.tsv` under its owner:

- "pkg.FooTest#method": one test method (all invocations of a parameterized or repeated one, the dynamic tests
  of a factory; overloads share the name) with its @BeforeEach/@AfterEach and extensions' before/after-each
  callbacks (MockitoExtension's mocks and @InjectMocks objects);
- "pkg.FooTest" (nested classes "pkg.FooTest$Inner"): the class's own work, which no single method can claim:
  @BeforeAll, @AfterAll, and each test instance's construction (field initialisers), which JUnit does before
  it reports the test started. It stays with the class whenever one of its methods is kept;
- "" (`OUTSIDE_TESTS`): what ran outside any test class.

The agent's own destfile then holds only what ran after the last take: the run's coverage is the union of the
files `per_test_exec_files` lists (`jacoco.analyze_coverage` merges them). Probes are exact edges: a method's
gain over the repository's tests and the methods kept before it is a set difference (`coverage_gain`,
TestGen-LLM's filter), where line and branch counts would blur what overlaps.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.build.helpers import compiled_helper
from junitbot.validation.build.tool_choice import choose_agent, choose_launcher
from junitbot.validation.measure.execdata import read_exec_file
from junitbot.validation.measure.models import ProbeHits

OUTSIDE_TESTS = ""
"""The owner of what ran outside any test class (discovery, the engine)."""

DIR_PARAMETER = "junitbot.coverage.dir"
_LISTENER = "PerTestCoverage"
_LISTENER_SERVICE = "org.junit.platform.launcher.TestExecutionListener"
_INDEX = "index.tsv"


def per_test_listener(
    classpath: Sequence[str], *, cache_dir: Path, settings: ValidationSettings, tools_dir: Path | None = None,
) -> Path:
    """The folder to add to a test run's class path for per-test coverage, built once per cache dir and tools.

    Compiled against the launcher `run_junit` picks for `classpath` and the JaCoCo agent `agent_option` attaches
    (`tools_dir`, `settings`: as given to them), with the service file that makes JUnit load it.
    """
    launcher = choose_launcher(classpath, tools_dir=tools_dir, settings=settings).path
    agent = choose_agent(tools_dir=tools_dir, settings=settings).path  # Debian's: the agent.rt jar, which has RT
    return compiled_helper(_LISTENER, classpath=[launcher, agent], cache_dir=cache_dir,
                           folder_prefix="per-test-coverage", services={_LISTENER_SERVICE: _LISTENER})


def per_test_config(run_dir: Path) -> dict[str, str]:
    """JUnit configuration for a run whose per-test coverage goes to `run_dir` (created here; bind it writable).

    Parallel execution is switched off over a repository's junit-platform.properties: concurrent tests' probes
    would mix.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    return {DIR_PARAMETER: str(run_dir.absolute()), "junit.jupiter.execution.parallel.enabled": "false"}


def per_test_hits(run_dir: Path) -> dict[str, ProbeHits]:
    """The probes each owner ran (test methods "pkg.FooTest#method", classes, `OUTSIDE_TESTS`), in run order.

    An owner that ran nothing instrumented is absent. Raises JunitbotError when the listener left no index
    (not on the class path, no JaCoCo agent, no `per_test_config`) or its files are unreadable.
    """
    hits: dict[str, ProbeHits] = {}
    for owner, exec_file in per_test_owners(run_dir):
        probes = ProbeHits.of(read_exec_file(exec_file))
        hits[owner] = hits[owner].union(probes) if owner in hits else probes
    return hits


def per_test_exec_files(run_dir: Path) -> list[Path]:
    """Every exec file of the run, in run order: together, the run's whole coverage."""
    return [exec_file for _, exec_file in per_test_owners(run_dir)]


def coverage_gain(
    candidates: Iterable[tuple[str, ProbeHits]], baseline: ProbeHits, classes: Iterable[str] | None = None,
) -> dict[str, ProbeHits]:
    """For each (test id, hits) in order, the probes it adds to `baseline` and to the candidates before it.

    Greedy, as TestGen-LLM filters: a candidate whose gain is empty adds nothing and leaves the covered set as it
    was, so "earlier" means earlier candidates that added something. `classes` (fully qualified; nested classes
    count as their outer's) limits what counts, e.g. to the classes under test: test classes in the same
    package are instrumented too.
    """
    targets = None if classes is None else list(classes)

    def counted(hits: ProbeHits) -> ProbeHits:
        return hits if targets is None else hits.restricted_to(targets)

    covered = counted(baseline)
    gains: dict[str, ProbeHits] = {}
    for test_id, hits in candidates:
        gain = counted(hits).minus(covered)
        if not gain.is_empty:
            covered = covered.union(gain)
        gains[test_id] = gain
    return gains


def per_test_owners(run_dir: Path) -> list[tuple[str, Path]]:
    """(owner, exec file) per line of the listener's index; a last line cut off by a killed JVM is left out."""
    index = run_dir / _INDEX
    try:
        text = index.read_text(encoding="utf-8")
    except OSError as e:
        raise JunitbotError(
            f"no per-test coverage index at {index}: the listener did not run (its folder not on the class path, "
            f"no JaCoCo agent, or no {DIR_PARAMETER} configuration): {e}"
        ) from e
    entries = []
    for number, line in enumerate(text.split("\n")[:-1], start=1):
        n, tab, owner = line.partition("\t")
        if not tab or not n.isdigit():
            raise JunitbotError(f"{index}:{number}: not '<number> TAB <owner>': {line[:200]!r}")
        entries.append((owner, run_dir / f"{n}.exec"))
    return entries

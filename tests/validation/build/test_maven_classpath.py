"""Classpaths per Maven module from real builds: own classpath, release, Lombok, cached, offline, fallbacks.

The builds are made here and resolved by Maven 3.9 against Maven Central (online once, then from the local
repository), as a user's CI would.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import load_config
from junitbot.runs import RunRequest, run_pipeline
from junitbot.state import StateDir
from junitbot.validation import (
    IndexedRepo,
    ProjectClasspath,
    TestCandidate,
    discover_classpaths,
    validate_candidates,
)
from junitbot.validation.process import ProcessResult, run_process
from tests.conftest import PROJECT

VERSIONS = ("<properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>"
            "<junit.version>5.11.4</junit.version><mockito.version>5.14.2</mockito.version>"
            "<lombok.version>1.18.36</lombok.version></properties>")
MANAGED = """<dependencyManagement><dependencies>
<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>${junit.version}</version><scope>test</scope></dependency>
<dependency><groupId>org.mockito</groupId><artifactId>mockito-junit-jupiter</artifactId><version>${mockito.version}</version><scope>test</scope></dependency>
<dependency><groupId>org.projectlombok</groupId><artifactId>lombok</artifactId><version>${lombok.version}</version><scope>provided</scope></dependency>
</dependencies></dependencyManagement>
<build><pluginManagement><plugins>
<plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
<plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
</plugins></pluginManagement></build>"""
TEST_DEPENDENCIES = """
<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId></dependency>
<dependency><groupId>org.mockito</groupId><artifactId>mockito-junit-jupiter</artifactId></dependency>"""
LOMBOK_PROCESSOR = """<build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId><configuration>
<annotationProcessorPaths><path><groupId>org.projectlombok</groupId><artifactId>lombok</artifactId>
<version>${lombok.version}</version></path></annotationProcessorPaths></configuration></plugin></plugins></build>"""
PARENT = "<parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1.0</version></parent>"


def _pom(body: str) -> str:
    return f'<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>{body}</project>'


TWO_MODULES = {
    "pom.xml": _pom(f"<groupId>com.acme</groupId><artifactId>parent</artifactId><version>1.0</version>"
                    f"<packaging>pom</packaging><modules><module>core</module><module>app</module></modules>"
                    f"{VERSIONS}{MANAGED}"),
    "core/pom.xml": _pom(f"{PARENT}<artifactId>core</artifactId><properties><maven.compiler.release>8"
                         f"</maven.compiler.release></properties><dependencies>{TEST_DEPENDENCIES}<dependency>"
                         "<groupId>org.projectlombok</groupId><artifactId>lombok</artifactId></dependency>"
                         f"</dependencies>{LOMBOK_PROCESSOR}"),
    "core/src/main/java/com/acme/core/Item.java": """package com.acme.core;

import lombok.Builder;
import lombok.Value;

@Value
@Builder
public class Item {
    String sku;
    int quantity;

    public boolean isEmpty() {
        return quantity <= 0;
    }
}
""",
    "app/pom.xml": _pom(f"{PARENT}<artifactId>app</artifactId><properties><maven.compiler.release>17"
                        "</maven.compiler.release></properties><dependencies><dependency><groupId>com.acme"
                        f"</groupId><artifactId>core</artifactId><version>1.0</version></dependency>"
                        f"{TEST_DEPENDENCIES}</dependencies>"),
    "app/src/main/java/com/acme/app/Stock.java": """package com.acme.app;

import com.acme.core.Item;

public class Stock {
    public int total(Item first, Item second) {
        return first.getQuantity() + second.getQuantity();
    }
}
""",
}


class CountingRunner:
    """The real process runner, counting the Maven runs it starts."""

    def __init__(self) -> None:
        self.argvs: list[Sequence[str]] = []

    def __call__(self, argv: Sequence[str], *, cwd: Path, timeout_s: float, max_output_bytes: int) -> ProcessResult:
        self.argvs.append(argv)
        return run_process(argv, cwd=cwd, timeout_s=timeout_s, max_output_bytes=max_output_bytes)

    @property
    def maven_runs(self) -> int:
        return sum(1 for argv in self.argvs if any("build-classpath" in part for part in argv))


@pytest.fixture
def two_modules(make_java_repo: Callable[..., Path]) -> Path:
    return make_java_repo(TWO_MODULES)


def _discover(root: Path, state: StateDir, runner: CountingRunner | None = None) -> ProjectClasspath:
    config = load_config(root, environ={})
    return discover_classpaths(root, config.validation, state=state, runner=runner or run_process)


def test_each_module_has_its_own_classpath_release_and_the_builds_main_classes(
        two_modules: Path, tmp_path: Path) -> None:
    project = _discover(two_modules, StateDir(tmp_path / "state"))
    modules = {m.module: m for m in project.modules}
    assert set(modules) == {"core", "app"}  # the aggregator has no code
    core, app = modules["core"], modules["app"]
    assert core.source == app.source == "maven" and project.resolution in ("online", "offline")
    # The dependent module sees its sibling's classes from the reactor; the sibling does not see it.
    assert str(two_modules / "core" / "target" / "classes") in app.entries
    assert not any("/app/" in entry for entry in core.entries)
    assert (core.release, app.release) == (8, 17)
    # Lombok ran in the build: the accessor exists in the main classes junitbot will test against.
    assert core.main_classes is not None
    assert b"getQuantity" in (Path(core.main_classes) / "com/acme/core/Item.class").read_bytes()
    assert any(Path(p).name == "lombok-1.18.36.jar" for p in core.processor_path)
    assert core.frameworks.mockito_extension and core.frameworks.mockito == "5.14.2"
    assert core.frameworks.junit_jupiter == "5.11.4"
    assert project.module_for("app/src/test/java/com/acme/app/StockTest.java") == app
    # Each module wrote its own file: nothing overwritten by the module that ran last.
    assert (two_modules / "core/target/junitbot-classpath.txt").read_text() != \
        (two_modules / "app/target/junitbot-classpath.txt").read_text()


def test_an_unchanged_build_runs_no_maven_and_an_edit_runs_it_offline(two_modules: Path, tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state")
    first = _discover(two_modules, state)
    runner = CountingRunner()
    again = _discover(two_modules, state, runner)
    assert again.resolution == "cached" and runner.maven_runs == 0
    assert again.modules == first.modules
    item = two_modules / "core/src/main/java/com/acme/core/Item.java"
    item.write_text(item.read_text().replace("quantity <= 0", "quantity < 1"))
    edited = _discover(two_modules, state, runner)
    assert edited.resolution == "offline" and runner.maven_runs == 1
    assert all("-o" in argv for argv in runner.argvs if any("build-classpath" in p for p in argv))
    # Another branch's poms get a cache file of their own: back on these poms, nothing runs again.
    pom = two_modules / "core/pom.xml"
    original = pom.read_text()
    pom.write_text(original.replace("</project>", "<description>another branch</description>\n</project>"))
    assert _discover(two_modules, state, runner).resolution == "offline" and runner.maven_runs == 2
    pom.write_text(original)
    assert _discover(two_modules, state, runner).resolution == "cached" and runner.maven_runs == 2


def test_tests_of_a_lombok_module_validate_at_its_release(two_modules: Path, tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state")
    config = load_config(two_modules, environ={})
    update_graph(two_modules, state, config)

    source = """package com.acme.core;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ItemTest {
    @Test
    void anItemWithoutQuantityIsEmpty() {
        Item item = Item.builder().sku("SKU-1").quantity(0).build();
        assertTrue(item.isEmpty());
        assertEquals("SKU-1", item.getSku());
    }

    @Test
    void javaTenSyntaxDoesNotCompileAtRelease8() {
        var item = Item.builder().sku("SKU-2").quantity(2).build();
        assertFalse(item.isEmpty());
    }
}
"""
    candidate = TestCandidate(path="core/src/test/java/com/acme/core/ItemTest.java", source=source,
                              target="com.acme.core.Item")
    with CodeGraph.open(state.graph_db) as graph:
        report = validate_candidates([candidate], repo=IndexedRepo(root=two_modules, graph=graph, state=state),
                                     config=config)
    (verdict,) = report.verdicts
    assert report.classpath_source == "maven" and report.frameworks.mockito_extension
    # `var` at release 8 costs its method, not the class.
    assert verdict.compiled and [(m.name, m.kept) for m in verdict.methods] == [
        ("anItemWithoutQuantityIsEmpty", True), ("javaTenSyntaxDoesNotCompileAtRelease8", False)]
    assert (verdict.methods[1].reason or "").startswith("does not compile")
    assert any("var" in issue.message and issue.method == "javaTenSyntaxDoesNotCompileAtRelease8"
               for issue in verdict.issues if issue.pass_name == "javac")
    fixed = candidate.model_copy(update={"source": source.replace("var item", "Item item")})
    with CodeGraph.open(state.graph_db) as graph:
        repo = IndexedRepo(root=two_modules, graph=graph, state=state)
        (verdict,) = validate_candidates([fixed], repo=repo, config=config).verdicts
    assert verdict.kept and {m.name for m in verdict.methods if m.kept} == {
        "anItemWithoutQuantityIsEmpty", "javaTenSyntaxDoesNotCompileAtRelease8"}
    assert verdict.coverage is not None and verdict.coverage.lines.covered > 0


def test_a_class_that_does_not_compile_leaves_the_classpath_and_junitbot_compiles_the_rest(
        make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    root = make_java_repo({
        "pom.xml": _pom(f"<groupId>com.acme</groupId><artifactId>lib</artifactId><version>1.0</version>{VERSIONS}"
                        f"{MANAGED}<dependencies>{TEST_DEPENDENCIES}</dependencies>"),
        "src/main/java/com/acme/Good.java": "package com.acme;\npublic class Good { public int one() { return 1; } }\n",
        "src/main/java/com/acme/Broken.java": "package com.acme;\npublic class Broken { int x = ; }\n",
    })
    project = _discover(root, StateDir(tmp_path / "state"))
    (module,) = project.modules
    assert module.source == "maven" and module.main_classes is None  # junitbot compiles what compiles
    assert module.frameworks.junit_jupiter == "5.11.4"
    assert any("compile" in note and "failed" in note for note in project.notes)


def test_a_build_that_cannot_resolve_says_what_is_missing_and_falls_back(
        make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    root = make_java_repo({
        "pom.xml": _pom("<groupId>com.acme</groupId><artifactId>lib</artifactId><version>1.0</version>"
                        "<dependencies><dependency><groupId>com.acme.nowhere</groupId><artifactId>no-such-lib"
                        "</artifactId><version>0.0.1</version></dependency></dependencies>"),
        "src/main/java/com/acme/A.java": "package com.acme;\npublic class A {}\n",
    })
    project = _discover(root, StateDir(tmp_path / "state"))
    assert project.source == "system"
    assert any("no-such-lib" in note for note in project.notes)


def test_a_source_tree_without_a_build_uses_debians_jars(tmp_path: Path) -> None:
    """The bundled plain example has no build file: Debian's JUnit 5 and Mockito 2.23 are its classpath."""
    root = tmp_path / "plain"
    shutil.copytree(PROJECT / "examples" / "plain", root)
    runner = CountingRunner()
    project = _discover(root, StateDir(tmp_path / "state"), runner)
    assert project.source == "system" and project.resolution == "none" and runner.argvs == []
    (module,) = project.modules
    assert all(entry.startswith("/usr/share/java/") for entry in module.entries)
    assert module.frameworks.mock_setup == "initMocks" and module.release is None and module.main_classes is None


def test_a_module_that_cannot_resolve_costs_that_module_only(
        make_java_repo: Callable[..., Path], tmp_path: Path) -> None:
    # mapstruct's integration-test module needs artifacts from a repository this runner cannot reach; its processor
    # module builds. With --fail-at-end the processor keeps its classpath and the run says which module has none.
    root = make_java_repo({
        "pom.xml": _pom(f"<groupId>com.acme</groupId><artifactId>parent</artifactId><version>1.0</version>"
                        f"<packaging>pom</packaging><modules><module>core</module><module>it</module></modules>"
                        f"{VERSIONS}{MANAGED}"),
        "core/pom.xml": _pom(f"{PARENT}<artifactId>core</artifactId><dependencies>{TEST_DEPENDENCIES}"
                             "</dependencies>"),
        "core/src/main/java/com/acme/core/One.java": "package com.acme.core;\npublic class One {}\n",
        "it/pom.xml": _pom(f"{PARENT}<artifactId>it</artifactId><dependencies><dependency><groupId>com.acme.nowhere"
                           "</groupId><artifactId>no-such-lib</artifactId><version>0.0.1</version></dependency>"
                           "</dependencies>"),
        "it/src/main/java/com/acme/it/Two.java": "package com.acme.it;\npublic class Two {}\n",
    })
    project = _discover(root, StateDir(tmp_path / "state"))
    assert [(m.module, m.source) for m in project.modules] == [("core", "maven")]
    assert project.modules[0].frameworks.junit_jupiter == "5.11.4"
    assert any("no classpath for it" in note for note in project.notes)
    assert "no-such-lib" in project.unbuilt["it"]
    # The module's classes say why they get no tests, rather than being tried against another module's classpath.
    (root / ".junitbot.yml").write_text("retrieval:\n  enabled: false\nvalidation:\n  mutation: false\n")
    report = run_pipeline(root, load_config(root, environ={}), StateDir(tmp_path / "state"),
                          RunRequest(classes=("Two",), dry_run=True))
    (two,) = report.results
    assert two.status == "skipped" and two.reason is not None
    assert two.reason.startswith("its module (it) has no classpath: the build could not build it") and \
        "no-such-lib" in two.reason

"""generate_tests end to end: a module at Java 8 (`javac --release 8`), the shop under Mockito 5's strict stubs."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.analysis import unused_imports
from junitbot.generation import GenerationJob, GenerationResult, Target
from junitbot.generation.template import generate_tests
from junitbot.generation.template.pipeline import NO_JUPITER
from junitbot.validation import Classpath, detect_frameworks
from junitbot.validation.build.classpath import system_jars
from tests.conftest import flow_only_yaml
from tests.generation.conftest import Indexed, index, write_files

SHOP = "com.acme.shop"
# Mockito 5 with its JUnit 5 extension, and a launcher of the same Jupiter (no second engine on the path).
_MOCKITO_5_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>junitbot.test</groupId><artifactId>mockito5</artifactId><version>0</version><packaging>pom</packaging>
<dependencies>
<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-api</artifactId><version>5.11.4</version>
</dependency>
<dependency><groupId>org.mockito</groupId><artifactId>mockito-junit-jupiter</artifactId><version>5.14.2</version>
</dependency>
<dependency><groupId>org.junit.platform</groupId><artifactId>junit-platform-console-standalone</artifactId>
<version>1.11.4</version></dependency>
</dependencies></project>
"""

_MAIN = "src/main/java/legacy"
# Java 8 sources: generics, nested types, arrays, a generic method, a JDK 11 type (Path) and a collaborator.
LEGACY = {
    f"{_MAIN}/Pricing.java": "package legacy;\n\npublic interface Pricing {\n    long priceOf(String sku);\n}\n",
    f"{_MAIN}/Catalog.java": """package legacy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

public class Catalog {
    public static class Item {
        private final String name;

        public Item(String name) {
            this.name = name;
        }

        public String getName() {
            return name;
        }
    }

    private final Pricing pricing;

    public Catalog(Pricing pricing) {
        this.pricing = pricing;
    }

    public List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<String>(names);
        Collections.sort(copy);
        return copy;
    }

    public Map<String, Integer> lengths(Set<String> keys) {
        Map<String, Integer> found = new HashMap<String, Integer>();
        for (String key : keys) {
            found.put(key, key.length());
        }
        return found;
    }

    public Optional<Item> first(List<Item> items) {
        return items.isEmpty() ? Optional.<Item>empty() : Optional.of(items.get(0));
    }

    public int[] sizes(String[] words) {
        int[] out = new int[words.length];
        for (int i = 0; i < words.length; i++) {
            out[i] = words[i].length();
        }
        return out;
    }

    public static <T> List<T> twice(T value) {
        return Arrays.asList(value, value);
    }

    public static <T extends Comparable<T>> T larger(T a, T b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    public Item item(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty name");
        }
        return new Item(name);
    }

    public String fileName(Path path) {
        return String.valueOf(path.getFileName());
    }

    public long doublePrice(String sku) {
        return pricing.priceOf(sku) * 2;
    }
}
""",
}
_MODERN = re.compile(r"\bvar\s+\w+\s*=|\b(?:List|Set|Map)\.of\(|\bPath\.of\(|\.isBlank\(|\brecord\s+\w+\(|\"\"\"")


@pytest.fixture(scope="module")
def legacy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("release8") / "legacy"
    write_files(root, {**LEGACY, ".junitbot.yml": flow_only_yaml()})
    yield from index(root, use_git=False)


def _java8_classpath() -> Classpath:
    jars = system_jars()
    return Classpath(entries=tuple(jars), source="system", frameworks=detect_frameworks(jars), release=8)


def _generate(legacy: Indexed, classpath: Classpath) -> GenerationResult:
    info = legacy.info("legacy.Catalog")
    job = GenerationJob(root=legacy.root, graph=legacy.graph, config=legacy.config, state=legacy.state)
    return generate_tests([Target(fqn=info.fqn, file=info.file, reason="named")], job, classpath=classpath)


def _javac(release: int, out: Path, classpath: list[str], files: list[Path]) -> subprocess.CompletedProcess[str]:
    command = ["javac", "--release", str(release), "-proc:none", "-d", str(out), "-cp", ":".join(classpath),
               *map(str, files)]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)


def test_a_java_8_module_gets_tests_that_javac_compiles_at_release_8(legacy: Indexed, tmp_path: Path) -> None:
    classpath = _java8_classpath()
    result = _generate(legacy, classpath)

    (candidate,) = result.candidates
    source = candidate.source
    assert result.validation is not None and result.validation.verdicts[0].kept, result.validation
    assert not _MODERN.search(source), _MODERN.search(source)
    # Results are declared with their types: generics, arrays, nested types, primitives; the method's own
    # type variables erased.
    assert "List<String> result = catalog.sorted(names);" in source
    assert "Map<String, Integer> result = catalog.lengths(keys);" in source
    assert "Optional<Catalog.Item> result = catalog.first(items);" in source
    assert "int[] result = catalog.sizes(words);" in source
    assert "List<?> result = Catalog.twice(value);" in source
    assert "Object result = Catalog.larger(a, b);" in source
    assert "Catalog.Item result = catalog.item(name);" in source
    assert "long result = catalog.doublePrice(sku);" in source
    assert "Collections.singletonList(" in source and "Collections.singleton(" in source
    assert 'Paths.get("example.txt")' in source

    # The project's own build: main and the generated test compiled by javac at release 8.
    main_out, test_out = tmp_path / "main", tmp_path / "test"
    compiled = _javac(8, main_out, [], sorted((legacy.root / _MAIN).glob("*.java")))
    assert compiled.returncode == 0, compiled.stderr
    test_file = tmp_path / "src" / candidate.path
    test_file.parent.mkdir(parents=True)
    test_file.write_text(source)
    compiled = _javac(8, test_out, [str(main_out), *classpath.entries], [test_file])
    assert compiled.returncode == 0, compiled.stderr + source


def test_a_module_without_junit_jupiter_gets_a_stated_reason_and_no_run(legacy: Indexed) -> None:
    """A JUnit 4 build (gson, javapoet on the fleet): no generated test could compile or run there, so every class
    says so once, with the dependency to add, instead of a compile error per class."""
    junit4 = [jar for jar in system_jars() if "jupiter" not in jar and "junit5" not in jar
              and "opentest4j" not in jar and "apiguardian" not in jar and "platform" not in jar]
    classpath = Classpath(entries=tuple(junit4), source="config", frameworks=detect_frameworks(junit4), release=8)
    assert classpath.frameworks.junit_jupiter is None
    result = _generate(legacy, classpath)
    assert result.candidates == () and result.validation is None
    assert [s.reason for s in result.skipped] == [NO_JUPITER] and "junit-jupiter" in NO_JUPITER
    assert "probe" not in result.seconds, "nothing was probed or compiled"


@pytest.fixture(scope="session")
def mockito_5(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, ...]:
    """Mockito 5.14.2 + mockito-junit-jupiter + JUnit 5.11 from Maven Central, resolved once per session (~10 s)."""
    folder = tmp_path_factory.mktemp("mockito5")
    (folder / "pom.xml").write_text(_MOCKITO_5_POM)
    done = subprocess.run(["mvn", "-q", "-B", "dependency:build-classpath", "-Dmdep.outputFile=cp.txt"],
                          cwd=folder, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return tuple((folder / "cp.txt").read_text().strip().split(":"))


def test_the_shop_under_mockito_5_uses_its_extension_and_keeps_only_stubs_a_call_matched(
        shop_repo: Path, mockito_5: tuple[str, ...]) -> None:
    classpath = Classpath(entries=mockito_5, source="config", frameworks=detect_frameworks(mockito_5))
    assert classpath.frameworks.mockito_extension and classpath.frameworks.mock_setup == "extension"
    config = flow_only_yaml()
    fqns = (f"{SHOP}.application.PlaceOrderService", f"{SHOP}.application.InventoryService", f"{SHOP}.domain.Money")
    for shop in index(shop_repo, config_text=config, use_git=False):
        job = GenerationJob(root=shop.root, graph=shop.graph, config=shop.config, state=shop.state)
        result = generate_tests([Target(fqn=f, file=shop.info(f).file, reason="named") for f in fqns], job,
                                classpath=classpath)

    assert result.validation is not None
    verdicts = {v.target: v for v in result.validation.verdicts}
    assert all(verdicts[f].kept for f in fqns), result.validation
    # Strict stubs: no kept or dropped method failed on an unused or mismatched stub.
    reasons = [m.reason or "" for v in verdicts.values() for m in v.methods] + [
        i.message for v in verdicts.values() for i in v.issues]
    assert not [r for r in reasons if "Stubbing" in r or "strict stubs" in r], reasons
    sources = {f: verdicts[f].source or "" for f in fqns}
    for fqn in fqns[:2]:
        source = sources[fqn]
        assert "@ExtendWith(MockitoExtension.class)" in source and "initMocks" not in source, source
        assert "import static org.mockito.Mockito.*;" in source and "when(" in source and "verify(" in source
    # A class without mocks imports nothing of Mockito; no class keeps an import it does not use.
    assert "mockito" not in sources[f"{SHOP}.domain.Money"].lower()
    assert all(unused_imports(source) == () for source in sources.values())

"""Call samples: literal-only arguments mined from Java sources, resolved to FQNs and kept in the code graph."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from junitbot.analysis import CallSample, CodeGraph, extract_file, resolve_samples, update_graph
from junitbot.config import load_config
from junitbot.state import StateDir
from tests.analysis.test_incremental import commit_everything, update_and_compare

SYMBOLS = {"com.acme.Sku", "com.acme.Order", "com.acme.Order.Priority", "com.acme.Money", "com.acme.OrderTest",
           "com.acme.Status"}
HEADER = """package com.acme;

import com.acme.Order.Priority;
import org.joda.money.CurrencyUnit;

import static org.joda.money.CurrencyUnit.EUR;
import static org.junit.jupiter.api.Assertions.assertThrows;

"""


def _samples(body: str, *, members: str = "", symbols: set[str] = SYMBOLS, header: str = HEADER,
             path: str = "src/test/java/com/acme/OrderTest.java") -> list[CallSample]:
    source = f"{header}class OrderTest {{\n{members}\n    void check(String given, Sku sku) {{\n{body}\n    }}\n}}\n"
    facts = extract_file(source.encode(), path, is_test=True, members=False)
    samples, _ = resolve_samples(facts, symbols, supertypes={})
    return samples


def _calls(samples: list[CallSample]) -> list[tuple[str, str, list[str]]]:
    return [(s.callee, s.member, [a.text for a in s.arguments]) for s in samples]


def test_constructors_factories_and_instance_calls_with_literal_arguments() -> None:
    samples = _samples("""
        new Sku("TOOL-000123");
        Sku.of("  tool-000123 ");
        Order order = new Order("o-1", -2, 3.5f, 'x', true, null, 10L);
        order.ship("Stockholm" + " 2", 60 * 1000);
        sku.rename("FIX-000042");
        com.acme.Money.of("12.50");
    """)
    assert _calls(samples) == [
        ("com.acme.Sku", "<init>", ['"TOOL-000123"']),
        ("com.acme.Sku", "of", ['"  tool-000123 "']),
        ("com.acme.Order", "<init>", ['"o-1"', "-2", "3.5f", "'x'", "true", "null", "10L"]),
        ("com.acme.Order", "ship", ['"Stockholm" + " 2"', "60 * 1000"]),  # a local's declared type
        ("com.acme.Sku", "rename", ['"FIX-000042"']),  # a parameter's
        ("com.acme.Money", "of", ['"12.50"']),
    ]
    order = samples[2]
    assert [a.kind for a in order.arguments] == ["string", "number", "number", "char", "boolean", "null", "number"]
    assert [a.java_type for a in order.arguments] == ["java.lang.String", "int", "float", "char", "boolean", None,
                                                      "long"]
    assert (order.file, order.line, order.in_test, order.throws) == ("src/test/java/com/acme/OrderTest.java", 15,
                                                                     True, False)


def test_a_variable_or_any_other_expression_is_not_mined() -> None:
    samples = _samples("""
        new Sku(given);
        Sku.of(given.trim());
        new Order("o-1", given.length());
        Sku.of("A" + given);
        unknown.rename("x");
        java.util.function.Function<String, Sku> f = s -> { s.rename("y"); return null; };
    """)
    assert samples == []  # `unknown` is declared nowhere in the file, `s` has no written type


def test_an_enum_constant_and_a_static_import_resolve_to_their_fqns() -> None:
    (sample,) = _samples("        new Order(Priority.EXPRESS, Status.OPEN, CurrencyUnit.USD, EUR);")
    assert [(a.kind, a.text, a.imports, a.java_type) for a in sample.arguments] == [
        ("constant", "Priority.EXPRESS", ("com.acme.Order.Priority",), "com.acme.Order.Priority"),
        ("constant", "Status.OPEN", ("com.acme.Status",), "com.acme.Status"),  # the same package
        ("constant", "CurrencyUnit.USD", ("org.joda.money.CurrencyUnit",), "org.joda.money.CurrencyUnit"),
        ("constant", "CurrencyUnit.EUR", ("org.joda.money.CurrencyUnit",), "org.joda.money.CurrencyUnit"),
    ]
    assert sample.arguments[0].uses == ("com.acme.Order.Priority.EXPRESS",)


def test_a_nested_literal_only_call_is_kept_with_what_it_names() -> None:
    samples = _samples("        new Order(Money.of(CurrencyUnit.EUR, 12.5), new Sku(\"A-1\"), 1);")
    order = next(s for s in samples if s.callee == "com.acme.Order")
    money, sku, _ = order.arguments
    assert (money.kind, money.text, money.java_type) == ("call", "Money.of(CurrencyUnit.EUR, 12.5)", "com.acme.Money")
    assert money.imports == ("com.acme.Money", "org.joda.money.CurrencyUnit")
    assert money.uses == ("com.acme.Money.of/2", "org.joda.money.CurrencyUnit.EUR")
    assert (sku.text, sku.uses) == ('new Sku("A-1")', ("com.acme.Sku.<init>/1",))
    # The nested calls are samples of their own too.
    assert {s.callee for s in samples} == {"com.acme.Order", "com.acme.Money", "com.acme.Sku"}
    assert _samples("        new Order(Sku.of(given), 1);") == []  # a variable anywhere inside: nothing


def test_a_static_final_field_with_a_literal_initializer_is_its_value() -> None:
    members = ('    private static final Sku SCREWS = Sku.of("FIX-000042");\n'
               "    private static final int LIMIT = 5;\n    private int count = 3;\n")
    samples = _samples("        new Order(SCREWS, LIMIT);\n        new Order(SCREWS, count);", members=members)
    assert _calls(samples) == [("com.acme.Sku", "of", ['"FIX-000042"']),
                               ("com.acme.Order", "<init>", ['Sku.of("FIX-000042")', "5"])]


def test_what_tests_expect_to_be_rejected_is_marked_and_what_surrounds_it_left_out() -> None:
    samples = _samples("""
        assertThrows(IllegalArgumentException.class, () -> Sku.of("TOOL-123"));
        assertThrows(IllegalArgumentException.class, () -> { new Sku("TOOLBOX-000123"); });
        assertThrows(IllegalArgumentException.class, () -> new Order(Sku.of("B-1"), 2));
        assertIllegalArgumentException(() -> Sku.of("A-0"));
        try {
            Sku.of("x");
            org.junit.Assert.fail("no exception");
        } catch (IllegalArgumentException expected) {
        }
    """)
    assert [(s.member, [a.text for a in s.arguments], s.throws) for s in samples] == [
        ("of", ['"TOOL-123"'], True),
        ("<init>", ['"TOOLBOX-000123"'], True),
        ("<init>", ['Sku.of("B-1")', "2"], True),  # `Sku.of("B-1")` inside it may be the rejected part: not mined
        ("of", ['"A-0"'], True),  # a project's helper named for the exception (commons-lang's)
    ]


def test_callees_outside_the_repository_and_junitbot_s_own_tests_give_no_samples() -> None:
    assert _samples('        new StringBuilder("x");\n        java.time.LocalDate.of(2024, 1, 1);') == []
    generated = f"// Generated by junitbot 1.0 for com.acme.Sku. Edits are overwritten.\n{HEADER}"
    assert _samples('        Sku.of("text");', header=generated) == []


def test_a_type_variable_hides_a_repo_type_of_the_same_name() -> None:
    header = "package com.acme;\n\n"
    source = f"{header}class Box<Sku> {{\n    void put(Sku sku) {{ sku.rename(\"x\"); }}\n}}\n"
    facts = extract_file(source.encode(), "src/main/java/com/acme/Box.java", members=False)
    assert resolve_samples(facts, SYMBOLS, supertypes={})[0] == []


# -- the graph ----------------------------------------------------------------------------------------------

SKU = """package com.acme;

public final class Sku {
    private final String code;
    private Sku(String code) { this.code = code; }
    public static Sku of(String code) { return new Sku(code); }
}
"""
CATALOG = """package com.acme;

class Catalog {
    static final Sku DEFAULT = Sku.of("TOOL-000123");
    Sku fallback() { return Sku.of("FIX-000042"); }
}
"""
SKU_TEST = """package com.acme;

class SkuTest {
    void parses() {
        Sku.of("TOOL-000123");
        Sku.of("TOOL-000123");
        Sku.of("BOLT-000001");
    }
}
"""


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def sku_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for path, text in (("src/main/java/com/acme/Sku.java", SKU), ("src/main/java/com/acme/Catalog.java", CATALOG),
                       ("src/test/java/com/acme/SkuTest.java", SKU_TEST)):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    _git(root, "init", "-q", "--initial-branch=main")
    commit_everything(root, "initial")
    return root


def _of(state: StateDir) -> list[tuple[list[str], int, str, bool]]:
    with CodeGraph.open(state.graph_db) as graph:
        return [([a.text for a in s.arguments], s.count, s.file.rsplit("/", 1)[-1], s.in_test)
                for s in graph.call_samples("com.acme.Sku", "of", 1)]


def test_the_graph_counts_main_and_test_samples_most_frequent_first(sku_repo: Path, tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state")
    update_graph(sku_repo, state, load_config(sku_repo, environ={}))

    assert _of(state) == [(['"TOOL-000123"'], 3, "Catalog.java", False),  # twice in the test, once in main code
                          (['"FIX-000042"'], 1, "Catalog.java", False),
                          (['"BOLT-000001"'], 1, "SkuTest.java", True)]
    with CodeGraph.open(state.graph_db) as graph:
        assert graph.call_samples("com.acme.Sku", "of", 2) == []
        assert graph.call_samples("com.acme.Sku", "of", 1, throws=True) == []
        info = graph.class_info("com.acme.Sku")
    assert info is not None
    (of,) = (m for m in info.methods if m.name == "of")
    assert [s.arguments[0].text for s in of.samples] == ['"TOOL-000123"', '"FIX-000042"', '"BOLT-000001"']
    assert info.constructors[0].samples == ()  # the private constructor is called with a variable only


def test_an_incremental_update_replaces_and_removes_a_file_s_samples_as_a_rebuild_would(
        sku_repo: Path, tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state")
    update_graph(sku_repo, state, load_config(sku_repo, environ={}))
    test = sku_repo / "src/test/java/com/acme/SkuTest.java"
    test.write_text(SKU_TEST.replace('"BOLT-000001"', '"NUT-000002"'))
    commit_everything(sku_repo, "another bolt")

    assert update_and_compare(sku_repo, state).incremental
    assert [s[0] for s in _of(state)] == [['"TOOL-000123"'], ['"FIX-000042"'], ['"NUT-000002"']]

    _git(sku_repo, "rm", "-q", "src/main/java/com/acme/Catalog.java")
    commit_everything(sku_repo, "no catalog")
    assert update_and_compare(sku_repo, state).incremental
    assert _of(state) == [(['"TOOL-000123"'], 2, "SkuTest.java", True), (['"NUT-000002"'], 1, "SkuTest.java", True)]

    shutil.rmtree(sku_repo / "src/test")  # a work-tree deletion, not committed
    assert update_and_compare(sku_repo, state).incremental
    assert _of(state) == []

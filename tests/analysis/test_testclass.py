"""The one parser and editor of test-class source, on real Java: nested classes, generics, comments, errors."""

from __future__ import annotations

import pytest

from junitbot.analysis import (
    JavaImport,
    add_imports,
    check_statements,
    insert_members,
    member_node,
    node_text,
    parse_java,
    parse_test_class,
    parse_test_class_tree,
    remove_methods,
    remove_statements,
    rename_class,
)
from junitbot.errors import ClassEditError, JunitbotError
from tests.conftest import PROJECT

SOURCE = """\
package com.acme.shop.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.*;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Orders, priced and placed. */
@ExtendWith(MockitoExtension.class)
class OrderServiceTest {
    @Mock
    private OrderRepository orders;
    private final Map<String, List<Integer>> counts = Map.of(), other = null;

    OrderServiceTest() {
    }

    @BeforeEach
    void setUp() {
    }

    /**
     * Places one order.
     */
    @Test
    @DisplayName("places \\"one\\" order")
    public void placesAnOrder() {
        assertEquals(1, 1);
    }

    // a line comment between members
    @ParameterizedTest(name = "{0} items")
    @ValueSource(ints = {1, 2, 3})
    void pricesItems(int count) throws Exception {
        assertEquals(count, count);
    }

    /* a block comment that is not javadoc */
    @org.junit.jupiter.api.RepeatedTest(3)
    void repeats() {
    }

    @Nested
    class WhenEmpty {
        @TestFactory
        Stream<DynamicTest> dynamic() {
            return Stream.empty();
        }

        @TestTemplate
        void templated() {
        }

        void helperInNested() {
        }
    }

    static {
    }

    private static <T extends Comparable<? super T>> T max(List<T> items) {
        return items.get(0);
    }

    void placesAnOrder(int overload) {
    }
}
"""


def _lines_of(source: str, snippet: str) -> int:
    return source[:source.index(snippet)].count("\n") + 1


def test_package_imports_and_the_top_level_class() -> None:
    parsed = parse_test_class(SOURCE)

    assert parsed.package == "com.acme.shop.application"
    assert [(i.name, i.static, i.wildcard, i.line) for i in parsed.imports] == [
        ("org.junit.jupiter.api.Assertions.assertEquals", True, False, 3),
        ("org.mockito.Mockito", True, True, 4),
        ("java.util.List", False, False, 6),
        ("java.util.Map", False, False, 7),
        ("org.junit.jupiter.api.Test", False, False, 8),
    ]
    assert parsed.imports[1].statement == "import static org.mockito.Mockito.*;"
    assert parsed.class_name == "OrderServiceTest" and parsed.span is not None
    assert parsed.span.start_line == _lines_of(SOURCE, "@ExtendWith") and parsed.span.end_line == SOURCE.count("\n")
    assert parsed.syntax_errors == ()


def test_members_with_their_kind_owner_annotations_and_modifiers() -> None:
    parsed = parse_test_class(SOURCE)

    assert [(m.kind, m.names, m.owner) for m in parsed.members] == [
        ("field", ("orders",), "OrderServiceTest"),
        ("field", ("counts", "other"), "OrderServiceTest"),
        ("constructor", ("OrderServiceTest",), "OrderServiceTest"),
        ("method", ("setUp",), "OrderServiceTest"),
        ("method", ("placesAnOrder",), "OrderServiceTest"),
        ("method", ("pricesItems",), "OrderServiceTest"),
        ("method", ("repeats",), "OrderServiceTest"),
        ("class", ("WhenEmpty",), "OrderServiceTest"),
        ("method", ("dynamic",), "OrderServiceTest.WhenEmpty"),
        ("method", ("templated",), "OrderServiceTest.WhenEmpty"),
        ("method", ("helperInNested",), "OrderServiceTest.WhenEmpty"),
        ("initializer", (), "OrderServiceTest"),
        ("method", ("max",), "OrderServiceTest"),
        ("method", ("placesAnOrder",), "OrderServiceTest"),
    ]
    by_start = {m.span.start_line: m for m in parsed.members}
    places = by_start[_lines_of(SOURCE, "    @Test\n")]
    assert places.annotations == ("Test", "DisplayName") and places.modifiers == ("public",)
    assert parsed.members[1].modifiers == ("private", "final") and parsed.members[0].annotations == ("Mock",)
    assert parsed.members[5].annotations == ("ParameterizedTest", "ValueSource")
    assert parsed.members[6].annotations == ("RepeatedTest",)
    assert parsed.members[11].modifiers == ("static",)
    assert parsed.members[12].modifiers == ("private", "static")
    assert [m.name for m in parsed.top_members if m.kind == "method"] == [
        "setUp", "placesAnOrder", "pricesItems", "repeats", "max", "placesAnOrder"]


def test_tests_and_lifecycle_methods_by_the_one_set_of_annotations() -> None:
    parsed = parse_test_class(SOURCE)

    assert parsed.test_names == ("placesAnOrder", "pricesItems", "repeats", "dynamic", "templated")
    assert [m.name for m in parsed.members if m.is_lifecycle] == ["setUp"]
    assert not any(m.is_test for m in parsed.members if m.kind != "method")


def test_spans_extent_and_dedented_source() -> None:
    parsed = parse_test_class(SOURCE)
    places = parsed.test_methods[0]
    repeats = parsed.test_methods[2]

    assert places.span.start_line == _lines_of(SOURCE, "    @Test\n")
    assert places.extent.start_line == _lines_of(SOURCE, "    /**\n     * Places")
    assert places.source.startswith("/**\n * Places one order.\n */\n@Test\n@DisplayName")
    assert places.source.endswith("assertEquals(1, 1);\n}")
    data = SOURCE.encode()
    assert data[places.span.start_byte:places.span.end_byte].startswith(b"@Test")
    assert places.body is not None and data[places.body.start_byte:places.body.end_byte].startswith(b"{")
    assert repeats.source.startswith("@org.junit.jupiter.api.RepeatedTest(3)")  # not the plain block comment
    assert parsed.method_at(_lines_of(SOURCE, "assertEquals(count, count)")) == parsed.test_methods[1]
    assert parsed.method_at(_lines_of(SOURCE, "static {")) is None


def test_the_test_an_error_line_costs() -> None:
    """A line in a test method (a nested class's too) names it; a field, set-up, helper or no line names none."""
    parsed = parse_test_class(SOURCE)

    assert parsed.test_at(_lines_of(SOURCE, "assertEquals(count, count)")) == "pricesItems"
    assert parsed.test_at(_lines_of(SOURCE, "@ValueSource")) == "pricesItems"
    assert parsed.test_at(_lines_of(SOURCE, "return Stream.empty()")) == "dynamic"
    for snippet in ("import java.util.List", "private OrderRepository", "void setUp()", "return items.get(0)",
                    "void helperInNested()"):
        assert parsed.test_at(_lines_of(SOURCE, snippet)) is None, snippet
    assert parsed.test_at(None) is None


def test_member_node_is_the_declaration_in_the_same_parse() -> None:
    parsed, tree = parse_test_class_tree(SOURCE)

    nodes = [member_node(tree, m) for m in parsed.members]

    assert [n.type for n in nodes][:4] == ["field_declaration", "field_declaration", "constructor_declaration",
                                           "method_declaration"]
    assert nodes[11].type == "static_initializer"
    assert [node_text(n.child_by_field_name("name")) for n in nodes if n.type == "method_declaration"] == [
        m.name for m in parsed.methods]


def test_a_syntax_error_is_a_value_and_edits_that_need_the_class_raise() -> None:
    broken = "package a;\n\nclass BrokenTest {\n    @Test\n    void one() {\n        int x = ;\n    }\n"
    parsed = parse_test_class(broken)

    assert parsed.syntax_errors and all(line >= 5 for line, _ in parsed.syntax_errors)
    assert parsed.class_name == "BrokenTest"
    with pytest.raises(ClassEditError, match="no complete top-level class") as raised:
        insert_members(broken, ["@Test\nvoid two() {\n}"])
    assert isinstance(raised.value, JunitbotError) and isinstance(raised.value, ValueError)
    assert parse_test_class("not java at all {{{").class_name is None
    assert parse_test_class("").members == ()
    with pytest.raises(ClassEditError, match="no top-level class"):
        rename_class("interface A {}\n", "B")


def test_remove_methods_takes_tests_with_their_javadoc_and_keeps_overloads() -> None:
    source = remove_methods(SOURCE, {"placesAnOrder", "dynamic", "max"})
    parsed = parse_test_class(source)

    assert parsed.syntax_errors == ()
    assert parsed.test_names == ("pricesItems", "repeats", "templated")
    assert "Places one order" not in source and "@DisplayName" not in source
    assert "void placesAnOrder(int overload)" in source and "T max(" in source  # not tests: they stay
    assert "    // a line comment between members\n" in source
    everything = remove_methods(SOURCE, {"placesAnOrder", "max"}, tests_only=False)
    assert "placesAnOrder" not in everything and "max(" not in everything
    assert remove_methods(SOURCE, set()) == SOURCE


def test_insert_members_before_the_closing_brace_with_sorted_imports() -> None:
    source = "package a;\n\nimport java.util.List;\n\nclass T {\n    int x; // } tricky\n} // end of T\n"

    merged = insert_members(source, ["@Test\nvoid t() {\n    int y = 1;\n}"],
                            imports=["import org.junit.jupiter.api.Test;", JavaImport(name="java.util.Map")])

    assert merged == ("package a;\n\nimport java.util.List;\nimport java.util.Map;\nimport org.junit.jupiter.api.Test;"
                      "\n\nclass T {\n    int x; // } tricky\n\n    @Test\n    void t() {\n        int y = 1;\n    }\n"
                      "} // end of T\n")
    assert insert_members(source, []) == source


def test_add_imports_sorts_into_groups_and_skips_what_is_there() -> None:
    merged = add_imports(SOURCE, [
        "import java.util.Set;", "import java.util.List;", "import static org.mockito.Mockito.*;",
        "import static org.assertj.core.api.Assertions.assertThat;", "import a.Z;", "import java.util.Set;",
        "import com.acme.shop.domain.*;",
    ])

    head = merged[:merged.index("/**")]
    assert head == (
        "package com.acme.shop.application;\n\n"
        "import static org.assertj.core.api.Assertions.assertThat;\n"
        "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
        "import static org.mockito.Mockito.*;\n\n"
        "import a.Z;\n"
        "import com.acme.shop.domain.*;\n"
        "import java.util.List;\n"
        "import java.util.Map;\n"
        "import java.util.Set;\n"
        "import org.junit.jupiter.api.Test;\n\n")
    assert merged[len(head):] == SOURCE[SOURCE.index("/**"):]
    assert add_imports(SOURCE, ["import java.util.List;"]) == SOURCE


@pytest.mark.parametrize(("source", "expected"), [
    ("package a;\n\nclass T {\n}\n",
     "package a;\n\nimport static x.Y.z;\n\nimport b.C;\n\nclass T {\n}\n"),
    ("class T {\n}\n", "import static x.Y.z;\n\nimport b.C;\n\nclass T {\n}\n"),
    ("package a;\n\nimport d.E;\n\nclass T {\n}\n",
     "package a;\n\nimport static x.Y.z;\n\nimport b.C;\nimport d.E;\n\nclass T {\n}\n"),
    ("package a;\n\nimport static d.E.f;\n\nclass T {\n}\n",
     "package a;\n\nimport static d.E.f;\nimport static x.Y.z;\n\nimport b.C;\n\nclass T {\n}\n"),
])
def test_a_missing_import_group_or_block_is_started_where_the_shells_put_it(source: str, expected: str) -> None:
    assert add_imports(source, ["import b.C;", JavaImport(name="x.Y.z", static=True)]) == expected


def test_an_import_that_is_not_a_statement_is_refused() -> None:
    with pytest.raises(ClassEditError, match="not an import declaration"):
        add_imports(SOURCE, ["java.util.List"])


def test_rename_class_renames_the_declaration_and_its_constructors() -> None:
    renamed = rename_class(SOURCE, "OrderServiceGeneratedTest")

    parsed = parse_test_class(renamed)
    assert parsed.class_name == "OrderServiceGeneratedTest"
    assert [m.name for m in parsed.members if m.kind == "constructor"] == ["OrderServiceGeneratedTest"]
    assert renamed.replace("OrderServiceGeneratedTest", "OrderServiceTest") == SOURCE
    assert rename_class(SOURCE, "OrderServiceTest") == SOURCE


def test_offsets_are_bytes_so_edits_survive_non_ascii_text() -> None:
    source = ('package a;\n\n/** Prüfung — größer als zwei. */\nclass ÜberTest {\n    // Größe\n'
              '    @Test\n    void größe() {\n        assertEquals("ä", "ä");\n    }\n\n    @Test\n'
              '    void zwei() {\n    }\n}\n')

    assert parse_test_class(source).test_names == ("größe", "zwei")
    removed = remove_methods(source, {"größe"})
    assert "void größe" not in removed and "void zwei()" in removed and "// Größe" in removed
    merged = insert_members(source, ['@Test\nvoid drei() {\n    assertEquals("ö", "ö");\n}'],
                            imports=["import org.junit.jupiter.api.Test;"])
    assert parse_test_class(merged).test_names == ("größe", "zwei", "drei")
    assert rename_class(source, "ÄnderungTest").count("class ÄnderungTest {") == 1


def test_the_bundled_candidate_and_every_edit_of_it_parse_cleanly() -> None:
    source = (PROJECT / "tests" / "fixtures" / "static" / "PlaceOrderServiceTest.java").read_text(encoding="utf-8")
    parsed = parse_test_class(source)

    assert parsed.test_names == ("placesTheOrderAndChargesTheCustomer", "releasesTheStockWhenThePaymentIsDeclined",
                                 "rejectsANullCommand")
    assert [m.name for m in parsed.members if m.is_lifecycle] == ["setUp"]
    assert len([i for i in parsed.imports if i.static]) == 6
    edited = rename_class(add_imports(remove_methods(source, {"rejectsANullCommand"}), ["import java.util.List;"]),
                          "PlaceOrderServiceGeneratedTest")
    assert not parse_java(edited.encode()).root_node.has_error
    assert parse_test_class(edited).test_names == parsed.test_names[:2]


def test_a_nul_in_a_string_literal_is_legal_java() -> None:
    # tree-sitter reads NUL as the end of input: commons-text's OssFuzzTest was "a syntax error" and lost whole.
    source = ('package a;\n\nclass FuzzTest {\n    @Test\n    void first() { run("x\x00y"); }\n\n'
              '    @Test\n    void second() { run("z"); }\n}\n')
    parsed = parse_test_class(source)
    assert parsed.syntax_errors == ()
    assert parsed.test_names == ("first", "second")
    assert remove_methods(source, {"first"}).count("\x00") == 0 and "second" in remove_methods(source, {"first"})


def test_a_removed_method_leaves_no_blank_or_indented_lines_behind() -> None:
    # A kept generated class read with a run of empty lines where validation dropped two tests.
    from junitbot.analysis import remove_methods

    a, b, c = ("    @Test\n    void a() { }\n", "    @Test\n    void b() { }\n", "    @Test\n    void c() { }\n")
    source = f"class T {{\n\n{a}\n{b}\n{c}}}\n"
    assert remove_methods(source, {"b"}) == f"class T {{\n\n{a}\n{c}}}\n"
    assert remove_methods(source, {"a", "b"}) == f"class T {{\n\n{c}}}\n"


def test_check_statements_are_the_assertions_and_verifications_of_each_test_and_can_be_removed() -> None:
    source = """package p;

class CheckTest {
    @Test
    void checks() {
        List<String> names = new ArrayList<>();
        names.add("a");
        assertEquals(1, names.size());
        assertThat(names).contains("a").hasSize(1);
        Assertions.assertTrue(names.contains("a"));
        verify(mock).save(names);
    }

    void helper() {
        assertEquals(1, 1);
    }
}
"""
    checks = check_statements(source)
    assert list(checks) == ["checks"]
    texts = [source.encode()[s.start_byte:s.end_byte].decode() for s in checks["checks"]]
    assert texts == ["assertEquals(1, names.size());", 'assertThat(names).contains("a").hasSize(1);',
                     'Assertions.assertTrue(names.contains("a"));', "verify(mock).save(names);"]
    edited = remove_statements(source, checks["checks"][1:3])
    assert "assertThat" not in edited and "assertTrue" not in edited
    assert "        assertEquals(1, names.size());\n        verify(mock).save(names);\n" in edited

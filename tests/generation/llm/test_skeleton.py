"""Model-written members into the no-model generator's shell, at the AST level."""

from __future__ import annotations

import pytest

from junitbot.analysis import insert_members, parse_java
from junitbot.generation import TestShell
from junitbot.generation.llm.answer import extract_java
from junitbot.generation.llm.skeleton import fit_class, merge_into_shell
from junitbot.generation.template import ModuleContext, test_shell
from tests.generation.conftest import Indexed
from tests.generation.llm.conftest import FRAMEWORKS, GOOD_METHODS, INVENTORY

MORE = """```java
import java.util.List;
import java.util.Map;
import java.util.Currency;

@Mock
private com.acme.shop.domain.port.ProductRepository products;

private static final int THRESHOLD = 5;

@BeforeEach
void init() {
    MockitoAnnotations.initMocks(this);
}

@Test
void setUp() {
    assertTrue(true);
}

@Test
void stockReport_whenEmpty_isEmpty() {
    // Arrange
    when(products.findAll()).thenReturn(List.of());
    // Act
    Map<String, Integer> report = inventoryService.stockReport();
    // Assert
    assertEquals(Map.of(), report);
}

@Test
void stockReport_whenEmpty_isEmpty() {
    assertNotNull(inventoryService);
}
```"""


@pytest.fixture
def shell(shop: Indexed) -> TestShell:
    made = test_shell(shop.info(INVENTORY), shop.analyzer.test_context_for(INVENTORY),
                      ModuleContext(shop.lookup, FRAMEWORKS), test_class_name="InventoryServiceGeneratedTest",
                      header_comment="generated")
    assert isinstance(made, TestShell)
    return made


def _top_class_end(source: str) -> int:
    root = parse_java(source.encode()).root_node
    top = next(c for c in root.named_children if c.type == "class_declaration")
    return top.end_byte


def test_methods_land_inside_the_class_body_with_their_imports(shell: TestShell) -> None:
    skeleton = shell.render([])
    code = extract_java(GOOD_METHODS).code
    assert code is not None
    merged = merge_into_shell(skeleton, code)
    tree = parse_java(merged.source.encode())
    assert not tree.root_node.has_error
    assert merged.added == ("skusToReorder_whenNothingIsLow_returnsEmpty",)
    assert merged.imports_added == ("import java.util.List;",)
    assert merged.source.rstrip().endswith("}") and merged.source[_top_class_end(merged.source):].strip() == ""
    body_start = merged.source.index("void setUp()")
    assert merged.source.index("void skusToReorder_whenNothingIsLow_returnsEmpty()") > body_start
    assert merged.source.index("import java.util.List;") < merged.source.index("class InventoryServiceGeneratedTest")
    assert "    @Test\n    void skusToReorder_whenNothingIsLow_returnsEmpty() {\n        // Arrange" in merged.source


def test_names_the_shell_owns_win(shell: TestShell) -> None:
    code = extract_java(MORE).code
    assert code is not None
    merged = merge_into_shell(shell.render([]), code)
    assert "THRESHOLD" in merged.added and "stockReport_whenEmpty_isEmpty" in merged.added
    assert ("setUp", "setUp2") in merged.renamed and ("stockReport_whenEmpty_isEmpty",
                                                       "stockReport_whenEmpty_isEmpty2") in merged.renamed
    assert any("field products" in why for why in merged.left_out)
    assert any("lifecycle method init" in why for why in merged.left_out)
    assert merged.source.count("private ProductRepository products;") == 1 and "void init()" not in merged.source
    assert "void setUp2()" in merged.source and "void stockReport_whenEmpty_isEmpty2()" in merged.source
    assert not parse_java(merged.source.encode()).root_node.has_error


def test_a_type_import_that_clashes_with_the_shells_is_left_out() -> None:
    skeleton = "package a;\n\nimport com.acme.shop.domain.Currency;\n\nclass T {\n}\n"
    code = extract_java("```java\nimport java.util.Currency;\n@Test void t() { }\n```").code
    assert code is not None
    merged = merge_into_shell(skeleton, code)
    assert merged.imports_added == () and "java.util.Currency" in merged.left_out[0]


def test_members_go_before_the_closing_brace_even_with_a_trailing_comment() -> None:
    source = "package a;\n\nclass T {\n    int x; // } tricky\n} // end of T\n"
    merged = insert_members(source, ["@Test\nvoid t() {\n}"], imports=["import org.junit.jupiter.api.Test;"])
    assert merged == ("package a;\n\nimport org.junit.jupiter.api.Test;\n\nclass T {\n    int x; // } tricky\n\n"
                      "    @Test\n    void t() {\n    }\n} // end of T\n")
    with pytest.raises(ValueError, match="no complete top-level class"):
        insert_members("class T {\n", ["void t() {}"])


def test_a_whole_class_gets_the_files_name_and_package() -> None:
    code = extract_java("```java\nclass InventoryServiceTest {\n @Test void t() {}\n}\n```").code
    assert code is not None
    source = fit_class(code, package="com.acme.shop.application", class_name="InventoryServiceGeneratedTest")
    assert source.startswith("package com.acme.shop.application;\n\nclass InventoryServiceGeneratedTest {")

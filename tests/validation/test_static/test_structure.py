"""The syntax and structure passes: one class, in its package, whose JUnit 5 tests run and check."""

from __future__ import annotations

import pytest

from junitbot.analysis import add_imports
from junitbot.config import ValidationSettings
from tests.validation.test_static.conftest import (
    GOOD,
    NULL_COMMAND,
    T3,
    Defect,
    Repo,
    assert_only_issue,
    edit,
    in_t3,
    line_of,
    summary,
    t3_body,
    variant,
)

DEFECTS: dict[str, Defect] = {
    # syntax
    "syntax-error": edit("assertEquals(10, keyboard.stock());", "assertEquals(10, keyboard.stock())",
                         "syntax-error", "assertEquals(10, keyboard.stock())"),
    "second-top-level-class": edit("\n}\n", "\n}\n\nclass Helper {\n}\n", "multiple-top-level-types", "class Helper"),
    "class-name": edit("class PlaceOrderServiceTest {", "class PlaceOrderServiceTests {",
                       "class-name-mismatch", "class PlaceOrderServiceTests"),
    "package": edit("package com.acme.shop.application;", "package com.acme.shop;",
                    "wrong-package", "package com.acme.shop;"),
    # structure
    "junit4-import": edit("import org.junit.jupiter.api.Test;", "import org.junit.Test;",
                          "junit4-api", "import org.junit.Test;"),
    "junit4-runner": edit("@ExtendWith(MockitoExtension.class)\n",
                          "@RunWith(JUnitPlatform.class)\n@ExtendWith(MockitoExtension.class)\n",
                          "junit4-api", "@RunWith"),
    "junit4-expected": edit("    @Test\n    void rejectsANullCommand",
                            "    @Test(expected = NullPointerException.class)\n    void rejectsANullCommand",
                            "junit4-api", "@Test(expected", T3),
    "junit4-assert": in_t3("        org.junit.Assert.assertNotNull(service);\n", "junit4-api", "org.junit.Assert"),
    "empty-test": t3_body("        // to do\n", "empty-test", "void rejectsANullCommand"),
    "no-assertion": t3_body("        service.placeOrder(command(1));\n", "no-assertion", "void rejectsANullCommand"),
    "private-test": edit("    void rejectsANullCommand", "    private void rejectsANullCommand",
                         "test-not-run", "private void rejectsANullCommand", T3),
}


@pytest.mark.parametrize("defect", [pytest.param(d, id=name) for name, d in DEFECTS.items()])
def test_each_defect_yields_exactly_its_issue(shop: Repo, defect: Defect) -> None:
    assert_only_issue(shop, defect, "syntax", "structure")


def test_a_file_without_a_class_has_no_test_class(shop: Repo) -> None:
    source = "package com.acme.shop.application;\n\ninterface PlaceOrderServiceTest {\n}\n"
    issues = shop.check(source, settings=ValidationSettings(disabled_passes=("mocking",)))
    assert summary(issues) == [("ERROR", "no-test-class", 1)]


def test_a_class_without_test_methods(shop: Repo) -> None:
    source = GOOD.replace("    @Test\n", "")
    issues = shop.check(source, settings=ValidationSettings(disabled_passes=("anti_patterns",)))
    assert summary(issues) == [("ERROR", "no-test-methods", line_of(source, "class PlaceOrderServiceTest"))]


def test_helpers_that_assert_count_as_assertions(shop: Repo) -> None:
    source = variant(NULL_COMMAND, "        assertStock(10);\n").replace(
        "    private PlaceOrderCommand command(",
        "    private void assertStock(int expected) {\n        assertEquals(expected, keyboard.stock());\n    }\n\n"
        "    private PlaceOrderCommand command(")
    assert shop.check(source) == []


FACTORY = """\
    @TestFactory
    Stream<DynamicTest> placesEachQuantity() {
        return IntStream.rangeClosed(1, 3).mapToObj(quantity -> DynamicTest.dynamicTest("quantity " + quantity, () -> {
            service.placeOrder(command(quantity));
            CHECK
        }));
    }

"""


def test_a_test_factory_is_a_test_the_static_passes_see(shop: Repo) -> None:
    # facts.py used to know only Test/ParameterizedTest/RepeatedTest: a class whose tests were all dynamic
    # had "no @Test method", and its factories were never checked. Now the one set of analysis.testclass counts.
    source = add_imports(
        GOOD.replace("    @Test\n", "").replace("    private PlaceOrderCommand command(",
                                                  FACTORY + "    private PlaceOrderCommand command("),
        ["import org.junit.jupiter.api.DynamicTest;", "import org.junit.jupiter.api.TestFactory;",
         "import java.util.stream.IntStream;", "import java.util.stream.Stream;"])
    checked = source.replace("CHECK", "assertEquals(10 - quantity, keyboard.stock());")
    assert shop.check(checked) == []

    unchecked = source.replace("CHECK", "")
    issues = shop.check(unchecked)
    assert summary(issues) == [("ERROR", "no-assertion", line_of(unchecked, "placesEachQuantity()"))]
    assert issues[0].method == "placesEachQuantity"

    void = variant("Stream<DynamicTest> placesEachQuantity", "void placesEachQuantity", unchecked)
    assert summary(shop.check(void)) == [("ERROR", "test-not-run", line_of(void, "placesEachQuantity()"))]

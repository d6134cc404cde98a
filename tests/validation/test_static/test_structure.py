"""The syntax and structure passes: one class, in its package, whose JUnit 5 tests run and check."""

from __future__ import annotations

import pytest

from junitbot.analysis import add_imports
from junitbot.config import ValidationSettings
from junitbot.validation.static import passed
from tests.validation.test_static.conftest import (
    ERROR,
    GOOD,
    NULL_COMMAND,
    T1,
    T2,
    T3,
    WARNING,
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
    # syntax: what makes the file impossible
    "syntax-error": edit("assertEquals(10, keyboard.stock());", "assertEquals(10, keyboard.stock())",
                         "syntax-error", "assertEquals(10, keyboard.stock())", severity=ERROR),
    "second-top-level-class": edit("\n}\n", "\n}\n\nclass Helper {\n}\n", "multiple-top-level-types", "class Helper",
                                   severity=ERROR),
    "class-name": edit("class PlaceOrderServiceTest {", "class PlaceOrderServiceTests {",
                       "class-name-mismatch", "class PlaceOrderServiceTests", severity=ERROR),
    "package": edit("package com.acme.shop.application;", "package com.acme.shop;",
                    "wrong-package", "package com.acme.shop;", severity=ERROR),
    # structure: JUnit 4 that javac and the run judge, and weak tests, are warnings
    "junit4-runner": edit("@ExtendWith(MockitoExtension.class)\n",
                          "@RunWith(JUnitPlatform.class)\n@ExtendWith(MockitoExtension.class)\n",
                          "junit4-api", "@RunWith"),
    "junit4-expected": edit("    @Test\n    void rejectsANullCommand",
                            "    @Test(expected = NullPointerException.class)\n    void rejectsANullCommand",
                            "junit4-api", "@Test(expected", T3),
    "junit4-assert": in_t3("        org.junit.Assert.assertNotNull(service);\n", "junit4-api", "org.junit.Assert"),
    "empty-test": t3_body("        // to do\n", "empty-test", "void rejectsANullCommand"),
    "no-assertion": t3_body("        service.placeOrder(command(1));\n", "no-assertion", "void rejectsANullCommand"),
    # JUnit 5 never runs it: the gate would keep a test it never ran
    "junit4-test": edit("    @Test\n    void rejectsANullCommand", "    @org.junit.Test\n    void rejectsANullCommand",
                        "junit4-api", "@org.junit.Test", T3, ERROR),
    "private-test": edit("    void rejectsANullCommand", "    private void rejectsANullCommand",
                         "test-not-run", "private void rejectsANullCommand", T3, ERROR),
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
    assert summary(issues) == [("WARNING", "no-assertion", line_of(unchecked, "placesEachQuantity()"))]
    assert issues[0].method == "placesEachQuantity"

    void = variant("Stream<DynamicTest> placesEachQuantity", "void placesEachQuantity", unchecked)
    assert summary(shop.check(void)) == [("ERROR", "test-not-run", line_of(void, "placesEachQuantity()"))]


def test_a_junit4_import_costs_each_test_it_annotates(shop: Repo) -> None:
    source = variant("import org.junit.jupiter.api.Test;", "import org.junit.Test;")
    issues = shop.check(source)
    assert {i.category for i in issues} == {"junit4-api"}
    assert summary(issues)[0] == ("WARNING", "junit4-api", line_of(source, "import org.junit.Test;"))
    errors = [i for i in issues if i.severity is ERROR]
    assert [i.method for i in errors] == [T1, T2, T3]
    assert errors[0].message == f"JUnit 5 does not run {T1}: its @Test is JUnit 4's org.junit.Test"


def test_a_test_in_another_package_than_its_class_is_legal_java(shop: Repo) -> None:
    source = variant("package com.acme.shop.application;", "package com.acme.shop.other;")
    only = ValidationSettings(disabled_passes=("mocking", "symbols", "anti_patterns", "builders"))
    issues = shop.check(source, path="src/test/java/com/acme/shop/other/PlaceOrderServiceTest.java", settings=only)
    assert summary(issues) == [("WARNING", "wrong-package", 1)]


def test_a_package_that_is_not_the_path_is_an_error_without_a_subject(shop: Repo) -> None:
    source = variant("package com.acme.shop.application;", "package com.acme.shop.other;")
    issues = shop.check_without_subject(source)
    assert ("ERROR", "wrong-package", 1) in summary(issues)


def test_a_persons_file_whose_package_is_not_its_folder_is_a_warning(shop: Repo) -> None:
    # javac and Maven compile it; the gate on a person's tests must not reject what their build accepts.
    source = variant("package com.acme.shop.application;", "package com.acme.shop.other;")
    for issues in (shop.check(source, written_by="person"), shop.check_without_subject(source, written_by="person")):
        assert ("WARNING", "wrong-package", 1) in summary(issues)
        assert not [i for i in issues if i.category == "wrong-package" and i.severity is ERROR]


OVERRIDDEN = """\
package com.acme.shop.application;

import org.junit.jupiter.api.Test;

class PlaceOrderServiceTest extends BASE {

    @Override
    @Test
    void disabledByOverride() {
    }

    @Test
    void disabledBySameName() {
    }
}
"""
BASE = """\
package com.acme.shop.application;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

abstract class ShopTestBase {
    @Test
    void disabledByOverride() { assertTrue(true); }

    @Test
    void disabledBySameName() { assertTrue(true); }

    void expectPlaced(PlaceOrderService service) { assertTrue(service != null); }
}
"""


def test_an_empty_override_disables_an_inherited_case(shop: Repo) -> None:
    # Issue 18: an empty @Test overriding the base test class's disables it on purpose; it is not an empty test.
    base = shop.with_types({"com.acme.shop.application.ShopTestBase": BASE})
    issues = base.check(OVERRIDDEN.replace("BASE", "ShopTestBase"),
                        settings=ValidationSettings(disabled_passes=("mocking",)))
    assert [(i.category, i.method) for i in issues] == []
    # A base class the repo does not declare may have the method too; only @Override says so for sure.
    unknown = base.check(OVERRIDDEN.replace("BASE", "junit.framework.TestCase"),
                         settings=ValidationSettings(disabled_passes=("mocking",)))
    assert [(i.category, i.method) for i in unknown] == [("empty-test", "disabledBySameName")]
    alone = base.check(OVERRIDDEN.replace(" extends BASE", "").replace("    @Override\n", ""),
                       settings=ValidationSettings(disabled_passes=("mocking",)))
    assert [(i.severity, i.category) for i in alone] == [(WARNING, "empty-test")] * 2


INHERITED_HELPER = """\
package com.acme.shop.application;

import org.junit.jupiter.api.Test;

class PlaceOrderServiceTest extends ShopTestBase {

    @Test
    void placesThroughTheBaseHelper() {
        expectPlaced(null);
    }

    @Test
    void placesThroughAStaticHelper() {
        PlaceOrderServiceTest.check(1);
    }

    static void check(int expected) {
        org.junit.jupiter.api.Assertions.assertEquals(expected, 1);
    }
}
"""


def test_an_assertion_in_a_helper_of_the_class_or_its_base_counts(shop: Repo) -> None:
    # Issue 18: `no-assertion` on a test whose assertion sits in a helper it calls.
    base = shop.with_types({"com.acme.shop.application.ShopTestBase": BASE})
    settings = ValidationSettings(disabled_passes=("mocking",))
    assert base.check(INHERITED_HELPER, settings=settings) == []
    # Without the base class, the call resolves to nothing that checks.
    alone = INHERITED_HELPER.replace(" extends ShopTestBase", "")
    assert [(i.category, i.method) for i in base.check(alone, settings=settings)
            if i.category == "no-assertion"] == [("no-assertion", "placesThroughTheBaseHelper")]


def test_a_test_that_passes_when_nothing_is_thrown_is_only_a_warning(shop: Repo) -> None:
    # joda-money's test_checkNotNull_notNull: a whole file was rejected for it.
    source = variant(NULL_COMMAND, "        service.placeOrder(command(1));\n")
    issues = shop.check(source)
    assert summary(issues) == [("WARNING", "no-assertion", line_of(source, "void rejectsANullCommand"))]
    assert passed(issues)

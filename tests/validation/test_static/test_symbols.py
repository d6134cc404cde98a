"""The symbols pass: imports, constructors and methods of repo types exist."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from junitbot.validation.build.classpath import classpath_packages
from tests.validation.test_static.conftest import (
    BILLING_PATH,
    BILLING_SUBJECT,
    BILLING_TEST,
    DUE_THEN_RETURN,
    DUE_THEN_THROW,
    INLINE,
    NULL_COMMAND,
    PLACE,
    T1,
    T2,
    T3,
    Defect,
    Repo,
    assert_only_issue,
    edit,
    line_of,
    summary,
    variant,
)

DEFECTS: dict[str, Defect] = {
    "subject-constructor": edit("payments, events, time);", "payments, events);",
                                "unknown-constructor", "service = new PlaceOrderService"),
    "private-constructor": edit(DUE_THEN_THROW,
                                DUE_THEN_THROW.replace("Money.of(", "new Money(new java.math.BigDecimal(")
                                .replace("\"60.00\", Currency", "\"60.00\"), Currency"),
                                "unknown-constructor", "new Money(", T2),
    "abstract-class": Defect(
        ((NULL_COMMAND, NULL_COMMAND + "        Exception error = new DomainException(\"boom\");\n"),
         ("import com.acme.shop.domain.Currency;", "import com.acme.shop.domain.Currency;\n"
                                                   "import com.acme.shop.domain.DomainException;")),
        "abstract-instantiation", "new DomainException", T3),
    "subject-method": edit(PLACE, PLACE.replace("placeOrder", "place"), "unknown-method", "service.place(", T1),
    "subject-arity": edit(PLACE, PLACE.replace("(2)", "(2), true"),
                          "wrong-arity", "service.placeOrder(command(2), true)", T1),
    "stubbed-method": edit("when(customers.findById(customer.id()))", "when(customers.findOne(customer.id()))",
                           "unknown-method", "customers.findOne"),
    "verified-method": edit("verify(payments).charge(customer.id(), due);", "verify(payments).pay(customer.id(), due);",
                            "unknown-method", "verify(payments).pay", T1),
    "static-method": edit(DUE_THEN_RETURN, DUE_THEN_RETURN.replace("Money.of", "Money.parse"),
                          "unknown-method", "Money.parse", T1),
    "repo-import": edit("import com.acme.shop.domain.OrderLine;", "import com.acme.shop.domain.OrderLines;",
                        "unresolved-import", "import com.acme.shop.domain.OrderLines;"),
    "repo-static-import": edit("import java.util.Optional;",
                               "import java.util.Optional;\n\nimport static com.acme.shop.domain.Currency.EURO;",
                               "unresolved-import", "Currency.EURO"),
    "external-import": edit("import java.util.Optional;",
                            "import java.util.Optional;\nimport com.google.common.collect.ImmutableList;",
                            "unresolved-import", "import com.google"),
}


@pytest.mark.parametrize("defect", [pytest.param(d, id=name) for name, d in DEFECTS.items()])
def test_each_defect_yields_exactly_its_issue(shop: Repo, defect: Defect) -> None:
    assert_only_issue(shop, defect, "symbols")


def test_unknown_names_suggest_the_closest_real_ones(shop: Repo) -> None:
    method = shop.check(variant(PLACE, PLACE.replace("placeOrder", "place")))
    assert (method[0].suggestion or "").startswith("methods of PlaceOrderService: placeOrder")
    private = shop.check(variant("Money price = Money.builder()", "Money price = new Money(null, Currency.EUR);\n"
                                 "        Money unused = Money.builder()"))
    assert [i.suggestion for i in private] == ["use Money.of(...)"]


def test_inherited_and_object_methods_are_known(shop: Repo) -> None:
    source = variant("        assertEquals(10, keyboard.stock());\n",
                     "        assertEquals(10, keyboard.stock());\n"
                     "        verify(customers).existsById(customer.id());\n"
                     "        assertEquals(orders.toString(), orders.toString());\n"
                     "        Money one = Money.of(\"1\", Currency.EUR);\n"
                     "        assertEquals(0, one.compareTo(Money.of(\"1\", Currency.EUR)));\n")
    assert shop.check(source) == []


def test_known_packages_resolve_external_imports(shop: Repo) -> None:
    source = variant("import java.util.Optional;", "import java.util.Optional;\nimport com.google.common.base.Strings;")
    assert [i.category for i in shop.check(source)] == ["unresolved-import"]
    assert shop.check(source, known_packages=("com.google.common",)) == []


def test_the_classpaths_jars_say_which_packages_exist(shop: Repo, tmp_path: Path) -> None:
    jar = tmp_path / "guava.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        archive.writestr("com/google/common/base/Strings.class", b"\xca\xfe\xba\xbe")
    packages = classpath_packages([str(jar), str(tmp_path / "missing.jar"), str(tmp_path)])
    assert packages == {"com.google.common.base"}
    source = variant("import java.util.Optional;", "import java.util.Optional;\nimport com.google.common.base.Strings;")
    assert shop.check(source, known_packages=tuple(packages)) == []
    made_up = variant("import java.util.Optional;", "import java.util.Optional;\nimport com.google.common.Nope;")
    assert [i.category for i in shop.check(made_up, known_packages=tuple(packages))] == ["unresolved-import"]


def test_loop_variables_have_their_declared_type(shop: Repo) -> None:
    source = variant("        assertEquals(10, keyboard.stock());\n",
                     "        for (Product each : java.util.List.of(keyboard)) {\n"
                     "            assertEquals(10, each.stok());\n        }\n")
    assert summary(shop.check(source)) == [("WARNING", "unknown-method", line_of(source, "each.stok()"))]


def test_lombok_builder_types_are_importable(billing: Repo) -> None:
    imports = "import org.junit.jupiter.api.Test;"
    good = variant(imports, f"import com.acme.billing.LineItem.LineItemBuilder;\n{imports}", BILLING_TEST)
    assert billing.check(good, subject=BILLING_SUBJECT, path=BILLING_PATH, frameworks=INLINE) == []
    bad = variant(imports, f"import com.acme.billing.LineItem.Builder;\n{imports}", BILLING_TEST)
    issues = billing.check(bad, subject=BILLING_SUBJECT, path=BILLING_PATH, frameworks=INLINE)
    assert summary(issues) == [("WARNING", "unresolved-import", line_of(bad, "LineItem.Builder"))]

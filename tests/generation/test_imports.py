"""ImportSet: short names where they are unambiguous, FQNs on clashes, java.lang and same-package types free."""

from __future__ import annotations

from junitbot.analysis import TypeRef
from junitbot.generation import ImportSet, split_fqn
from junitbot.generation.template import Scope, value_expression


def test_first_type_gets_the_simple_name_the_second_its_fqn() -> None:
    imports = ImportSet("com.acme.shop.application")
    assert imports.name("java.util.Currency") == "Currency"
    assert imports.name("com.acme.shop.domain.Currency") == "com.acme.shop.domain.Currency"
    assert imports.name("java.util.Currency") == "Currency"
    assert imports.imports == ("java.util.Currency",)


def test_same_package_type_wins_over_a_later_jdk_type() -> None:
    imports = ImportSet("com.acme.shop.domain")
    assert imports.name("com.acme.shop.domain.Currency") == "Currency"
    assert imports.name("java.util.Currency") == "java.util.Currency"
    assert imports.imports == ()


def test_java_lang_and_same_package_need_no_import() -> None:
    imports = ImportSet("com.acme")
    assert [imports.name("java.lang.String"), imports.name("com.acme.Money")] == ["String", "Money"]
    assert imports.imports == () and imports.lines() == []


def test_a_same_package_type_hides_java_lang() -> None:
    imports = ImportSet("com.acme", local=lambda fqn: fqn == "com.acme.Record")
    assert imports.name("java.lang.Record") == "java.lang.Record"
    assert imports.name("java.lang.String") == "String"


def test_nested_types_import_their_top_level_type() -> None:
    imports = ImportSet("com.acme")
    assert imports.name("java.util.Map.Entry") == "Map.Entry"
    assert imports.name("java.util.Map") == "Map"
    assert imports.name("com.acme.shop.PlaceOrderCommand.Item") == "PlaceOrderCommand.Item"
    assert imports.imports == ("com.acme.shop.PlaceOrderCommand", "java.util.Map")
    assert imports.import_for("java.util.Map.Entry") == "java.util.Map"


def test_reserved_names_are_never_imported() -> None:
    imports = ImportSet("com.acme", reserved=("MoneyTest",))
    assert imports.name("org.other.MoneyTest") == "org.other.MoneyTest"
    assert imports.imports == ()


def test_a_fork_changes_nothing_until_adopted() -> None:
    imports = ImportSet("com.acme")
    fork = imports.fork()
    assert fork.name("java.util.List") == "List"
    before = (imports.imports, imports.claims)
    imports.adopt(fork)
    assert before == ((), ()) and imports.imports == ("java.util.List",)


def test_restore_makes_the_same_choices() -> None:
    imports = ImportSet("com.acme")
    imports.name("java.util.Currency")
    imports.add_static("org.junit.jupiter.api.Assertions.*")
    again = ImportSet.restore("com.acme", imports=imports.imports, static_imports=imports.static_imports,
                              claims=imports.claims)
    assert again.name("com.acme.Currency") == "com.acme.Currency"
    assert again.lines() == ["import static org.junit.jupiter.api.Assertions.*;", "", "import java.util.Currency;"]


def test_split_fqn_by_convention_or_by_the_package_given() -> None:
    assert split_fqn("java.util.Map.Entry") == ("java.util", ("Map", "Entry"))
    assert split_fqn("com.Acme.util.Thing", package="com.Acme.util") == ("com.Acme.util", ("Thing",))
    assert split_fqn("Thing") == ("", ("Thing",))


def test_plain_literals_claim_no_names() -> None:
    imports = ImportSet("com.acme")
    built = value_expression(TypeRef(text="int", name="int"), Scope(lambda fqn: None, imports))
    assert built is not None and built.text == "1" and imports.claims == ()

"""Lombok's generated members in the code graph: accessors, constructors, builders and their nested type."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.analysis import ClassInfo, MethodInfo, TypeRef, extract_file
from junitbot.generation import ImportSet
from junitbot.generation.template import Scope, value_expression
from tests.generation.conftest import Indexed, index, write_files

LOCATION = """package w;
import lombok.Builder;
import lombok.Value;
@Value
public class Location {
    public static final int MAX_AISLE = 40;
    char zone;
    int aisle;
    int level;
    @Builder
    private Location(char zone, int aisle, int level) {
        if (zone < 'A' || zone > 'F') throw new IllegalArgumentException("zone");
        if (aisle < 10 || aisle > MAX_AISLE) throw new IllegalArgumentException("aisle");
        this.zone = zone; this.aisle = aisle; this.level = level;
    }
    public boolean isChilled() { return zone == 'F'; }
}
"""


def _classes(source: str, *, members: bool = True) -> dict[str, ClassInfo]:
    facts = extract_file(source.encode(), "src/main/java/w/A.java", members=members)
    return {c.fqn: c for c in facts.classes}


def _method(info: ClassInfo, name: str) -> MethodInfo:
    found = next((m for m in (*info.constructors, *info.methods) if m.name == name), None)
    assert found is not None, (info.fqn, name)
    return found


def _signatures(members: tuple[MethodInfo, ...]) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    return [(m.name, m.modifiers, tuple(p.type.text for p in m.parameters)) for m in members]


def test_value_with_a_builder_constructor_gets_getters_and_a_nested_builder() -> None:
    classes = _classes(LOCATION)
    location = classes["w.Location"]
    # The written private constructor is the only one: `@Value` adds none beside an explicit one.
    assert _signatures(location.constructors) == [("Location", ("private",), ("char", "int", "int"))]
    assert "final" in location.modifiers and all("final" in f.modifiers for f in location.fields)
    getter = _method(location, "getZone")
    assert (getter.return_type, getter.synthetic) == (TypeRef(text="char", name="char"), "lombok")
    builder = _method(location, "builder")
    assert builder.modifiers == ("public", "static") and builder.return_type is not None
    assert builder.return_type.name == "LocationBuilder"
    assert location.builder is not None and location.builder.source == "lombok"
    assert (location.builder.builder_type, location.builder.setters) == ("w.Location.LocationBuilder",
                                                                         ("zone", "aisle", "level"))
    assert location.nested == ("w.Location.LocationBuilder",)
    nested = classes["w.Location.LocationBuilder"]
    assert (nested.outer, nested.modifiers) == ("w.Location", ("public", "static"))
    assert [(m.name, m.return_type.name if m.return_type else None) for m in nested.methods] == [
        ("zone", "LocationBuilder"), ("aisle", "LocationBuilder"), ("level", "LocationBuilder"), ("build", "Location")]
    # The setter carries the constructor's checks on its parameter, so built values pass them.
    assert {c.subject for c in _method(nested, "zone").compared_literals} == {"zone"}


def test_header_extraction_knows_the_builder_type_too() -> None:
    headers = _classes(LOCATION, members=False)
    assert set(headers) == {"w.Location", "w.Location.LocationBuilder"}
    assert headers["w.Location"].nested == ("w.Location.LocationBuilder",)
    assert not headers["w.Location.LocationBuilder"].methods


def test_getter_and_required_args_constructor_skip_static_and_initialized_fields() -> None:
    classes = _classes("""package w;
    import lombok.*;
    @Getter @ToString @RequiredArgsConstructor
    public class StockItem {
        private static int created;
        @NonNull private final Sku sku;
        @NonNull private Location location;
        private final int limit = 10;
        private int onHand;
        private boolean isHeld;
        public int getAvailable() { return onHand; }
    }
    """)
    item = classes["w.StockItem"]
    assert [[p.name for p in c.parameters] for c in item.constructors] == [["sku", "location"]]
    assert item.constructors[0].modifiers == ("public",)
    names = [m.name for m in item.methods if m.synthetic == "lombok"]
    assert names == ["getSku", "getLocation", "getLimit", "getOnHand", "isHeld"]
    assert not any(m.name.startswith("set") for m in item.methods)


def test_data_setters_constructor_access_and_static_name() -> None:
    classes = _classes("""package w;
    import lombok.AccessLevel;
    import lombok.AllArgsConstructor;
    import lombok.Data;
    import lombok.NoArgsConstructor;
    import lombok.Setter;
    import lombok.Getter;
    @Data
    class Customer { private final String name; private int age; }
    @AllArgsConstructor(staticName = "of") @NoArgsConstructor(access = AccessLevel.PROTECTED)
    class Pair { private String left; private String right; }
    class Partly { @Getter private int a; @Setter(AccessLevel.PACKAGE) private int b; private int c; }
    """)
    customer = classes["w.Customer"]
    assert _signatures(customer.constructors) == [("Customer", ("public",), ("String",))]
    assert {m.name for m in customer.methods} == {"getName", "getAge", "setAge"}
    pair = classes["w.Pair"]
    assert sorted(_signatures(pair.constructors)) == [("Pair", ("private",), ("String", "String")),
                                                      ("Pair", ("protected",), ())]
    assert _signatures((_method(pair, "of"),)) == [("of", ("public", "static"), ("String", "String"))]
    partly = classes["w.Partly"]
    assert _signatures(partly.methods) == [("getA", ("public",), ()), ("setB", (), ("int",))]


def test_type_builder_with_value_and_a_static_method_builder() -> None:
    classes = _classes("""package w;
    import lombok.*;
    @Value @Builder(builderMethodName = "create")
    public class Reservation { @NonNull String orderId; int quantity; }
    class Factory {
        @Builder(builderClassName = "Maker")
        static Widget widget(String name, int size) { return null; }
    }
    """)
    reservation = classes["w.Reservation"]
    # `@Builder` on a type makes `@Value`'s all-args constructor package-private.
    assert _signatures(reservation.constructors) == [("Reservation", (), ("String", "int"))]
    assert reservation.builder is not None and reservation.builder.factory == "create"
    assert _method(classes["w.Reservation.ReservationBuilder"], "build").return_type == TypeRef(
        text="Reservation", name="Reservation")
    factory = classes["w.Factory"]
    assert factory.builder is None and _method(factory, "builder").return_type == TypeRef(text="Maker", name="Maker")
    maker = classes["w.Factory.Maker"]
    assert [m.name for m in maker.methods] == ["name", "size", "build"]
    assert _method(maker, "build").return_type == TypeRef(text="Widget", name="Widget")


def test_annotations_of_other_libraries_are_not_lomboks() -> None:
    spring = _classes("""package w;
    import org.springframework.beans.factory.annotation.Value;
    import lombok.*;
    @Value
    public class Settings { @Value("${x}") private String x; }
    """)["w.Settings"]
    assert not spring.methods and "final" not in spring.modifiers
    assert [c.synthetic for c in spring.constructors] == ["default"]
    own = _classes("""package w;
    @Data @Getter
    public class Own { private int a; }
    """)["w.Own"]
    assert not own.methods
    qualified = _classes("""package w;
    @lombok.Getter
    public class Qualified { private int a; @lombok.Setter private int b; }
    """)["w.Qualified"]
    assert [m.name for m in qualified.methods] == ["getA", "getB", "setB"]


def test_a_declared_builder_class_gets_the_missing_methods() -> None:
    classes = _classes("""package w;
    import lombok.Builder;
    @Builder
    public class Order {
        private final String id;
        private final int lines;
        public static class OrderBuilder { public OrderBuilder id(String id) { this.id = id + "!"; return this; } }
    }
    """)
    assert list(classes) == ["w.Order", "w.Order.OrderBuilder"]
    nested = classes["w.Order.OrderBuilder"]
    assert [(m.name, m.synthetic) for m in nested.methods] == [("id", None), ("lines", "lombok"), ("build", "lombok")]


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root: Path = tmp_path_factory.mktemp("lombok") / "warehouse"
    write_files(root, {"src/main/java/w/Location.java": LOCATION})
    yield from index(root, use_git=False)


def test_values_of_a_value_class_with_a_private_builder_constructor_use_the_builder(warehouse: Indexed) -> None:
    ref = TypeRef(text="Location", name="Location", fqn="w.Location", in_repo=True)
    built = value_expression(ref, Scope(warehouse.lookup, ImportSet("w")))
    assert built is not None
    # The zone and the aisle pass the constructor's checks (a char's compared as its code).
    assert (built.strategy, built.text) == ("builder", "Location.builder().zone('A').aisle(10).level(1).build()")
    getter = warehouse.info("w.Location")
    assert "getAisle" in {m.name for m in getter.methods}

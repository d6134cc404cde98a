"""extract_file on Java sources: declarations, members, body facts, Lombok and syntax errors."""

from __future__ import annotations

from junitbot.analysis import ClassInfo, EdgeKind, FileFacts, TypeKind, extract_file


def _facts(source: str, path: str = "src/main/java/a/b/A.java") -> FileFacts:
    return extract_file(source.encode(), path)


def _by_name(facts: FileFacts) -> dict[str, ClassInfo]:
    return {c.fqn: c for c in facts.classes}


SERVICE = """
package com.acme.app;

import com.acme.domain.Order;
import com.acme.domain.*;
import static com.acme.util.Checks.notNull;

@Service("orders")
public class OrderService<T extends Comparable<T>> extends BaseService implements Api, Audit.Aware {
    private static final int LIMIT = 10;
    private final OrderRepository repository;
    @Inject private Clock clock;

    public OrderService(OrderRepository repository) throws IllegalStateException {
        this.repository = notNull(repository);
    }

    public Order place(String id, int quantity, Order.Line... lines) {
        if (quantity > 100 || id == null) { throw new IllegalArgumentException("bad"); }
        Order order = repository.find(id);
        if (order.status().equals("OPEN")) { order.total(); }
        switch (order.kind()) { case RETAIL: break; case WHOLESALE: break; }
        return Orders.copy(order, clock.instant());
    }

    static class Helper { }
    class Inner { }
    enum Mode { FAST, SLOW }
    interface Callback { void done(); }
    record Pair(String left, int right) { }
}
"""


def test_class_header_and_members() -> None:
    facts = _facts(SERVICE, "src/main/java/com/acme/app/OrderService.java")
    assert facts.package == "com.acme.app"
    assert [(i.name, i.static, i.wildcard) for i in facts.imports] == [
        ("com.acme.domain.Order", False, False), ("com.acme.domain", False, True),
        ("com.acme.util.Checks.notNull", True, False)]
    service = _by_name(facts)["com.acme.app.OrderService"]
    assert service.kind is TypeKind.CLASS and service.modifiers == ("public",)
    assert service.annotations[0].name == "Service" and service.annotations[0].arguments == {"value": '"orders"'}
    assert service.type_parameters == ("T",)
    assert [t.name for t in service.extends] == ["BaseService"]
    assert [t.name for t in service.implements] == ["Api", "Audit.Aware"]
    assert [(f.name, f.type.text, f.initialized) for f in service.fields] == [
        ("LIMIT", "int", True), ("repository", "OrderRepository", False), ("clock", "Clock", False)]
    assert service.fields[2].annotations[0].name == "Inject"
    (constructor,) = service.constructors
    assert [p.name for p in constructor.parameters] == ["repository"]
    assert [t.name for t in constructor.throws] == ["IllegalStateException"]
    place = next(m for m in service.methods if m.name == "place")
    assert place.return_type is not None and place.return_type.name == "Order"
    assert [(p.name, p.type.text, p.varargs) for p in place.parameters] == [
        ("id", "String", False), ("quantity", "int", False), ("lines", "Order.Line", True)]
    assert place.span is not None and place.span.start_line < place.span.end_line


def test_body_facts_calls_creations_and_compared_literals() -> None:
    facts = _facts(SERVICE, "src/main/java/com/acme/app/OrderService.java")
    service = _by_name(facts)["com.acme.app.OrderService"]
    place = next(m for m in service.methods if m.name == "place")
    calls = {(c.receiver, c.method, c.receiver_kind) for c in place.calls}
    assert ("repository", "find", "field") in calls
    assert ("order", "total", "local") in calls
    assert ("Orders", "copy", "type") in calls
    assert ("clock", "instant", "field") in calls
    find = next(c for c in place.calls if c.method == "find")
    assert find.receiver_type is not None and find.receiver_type.name == "OrderRepository"
    assert [t.name for t in place.creates] == ["IllegalArgumentException"]
    literals = {(c.subject, c.operator, c.literal) for c in place.compared_literals}
    assert ("quantity", ">", "100") in literals
    assert ("id", "==", "null") in literals
    assert ("order.status()", "equals", '"OPEN"') in literals
    assert ("order.kind()", "case", "RETAIL") in literals and ("order.kind()", "case", "WHOLESALE") in literals
    (constructor,) = service.constructors
    assert [(c.method, c.receiver_kind) for c in constructor.calls] == [("notNull", "none")]


def test_nested_types_get_outer_and_fqn() -> None:
    classes = _by_name(_facts(SERVICE, "src/main/java/com/acme/app/OrderService.java"))
    outer = "com.acme.app.OrderService"
    assert classes[outer].nested == tuple(f"{outer}.{n}" for n in ("Helper", "Inner", "Mode", "Callback", "Pair"))
    assert classes[f"{outer}.Helper"].outer == outer and not classes[f"{outer}.Helper"].is_inner
    assert classes[f"{outer}.Inner"].is_inner
    mode = classes[f"{outer}.Mode"]
    assert mode.kind is TypeKind.ENUM and mode.enum_constants == ("FAST", "SLOW")
    assert classes[f"{outer}.Callback"].is_abstract
    pair = classes[f"{outer}.Pair"]
    assert pair.kind is TypeKind.RECORD
    assert [(c.name, c.type.text) for c in pair.record_components] == [("left", "String"), ("right", "int")]
    assert [m.name for m in pair.methods if m.synthetic == "record"] == ["left", "right"]
    assert [len(c.parameters) for c in pair.constructors] == [2]


def test_raw_refs_carry_edge_kinds_and_generic_arguments() -> None:
    source = """
    package p;
    class A extends B<C> {
        Map<String, List<D>> field;
        A(E e) { }
        F method(G g) throws H { I local = (J) g; if (g instanceof K k) {} try { } catch (L | M x) { }
                                 N.call(); Object o = O.CONST; new P[3]; var c = Q.class; return null; }
        @R void annotated() { Runnable r = S::run; }
    }
    """
    refs = {(r.owner, r.kind, r.name) for r in _facts(source).refs}
    expected = {
        ("p.A", EdgeKind.EXTENDS, "B"), ("p.A", EdgeKind.TYPE_ARGUMENT, "C"), ("p.A", EdgeKind.FIELD, "Map"),
        ("p.A", EdgeKind.TYPE_ARGUMENT, "List"), ("p.A", EdgeKind.TYPE_ARGUMENT, "D"),
        ("p.A", EdgeKind.CONSTRUCTOR_PARAMETER, "E"), ("p.A", EdgeKind.RETURN, "F"),
        ("p.A", EdgeKind.METHOD_PARAMETER, "G"), ("p.A", EdgeKind.THROWS, "H"),
        ("p.A", EdgeKind.LOCAL_VARIABLE, "I"), ("p.A", EdgeKind.CAST, "J"), ("p.A", EdgeKind.INSTANCEOF, "K"),
        ("p.A", EdgeKind.CATCHES, "L"), ("p.A", EdgeKind.CATCHES, "M"), ("p.A", EdgeKind.STATIC_CALL, "N"),
        ("p.A", EdgeKind.STATIC_FIELD, "O"), ("p.A", EdgeKind.INSTANTIATION, "P"),
        ("p.A", EdgeKind.CLASS_LITERAL, "Q"), ("p.A", EdgeKind.ANNOTATION, "R"), ("p.A", EdgeKind.STATIC_CALL, "S"),
    }
    assert expected <= refs
    assert not any(name in ("g", "k", "o", "this") for _, _, name in refs)


def test_local_and_anonymous_classes_fold_into_their_owner() -> None:
    source = """
    package p;
    class Outer {
        Runnable make() {
            class Local { Helper h; }
            return new Runnable() { public void run() { Other.call(); } };
        }
    }
    """
    facts = _facts(source)
    assert [c.fqn for c in facts.classes] == ["p.Outer"]
    refs = {(r.owner, r.name) for r in facts.refs}
    assert ("p.Outer", "Helper") in refs and ("p.Outer", "Other") in refs


def test_lombok_annotations_add_constructors_accessors_and_builder() -> None:
    source = """
    package p;
    import lombok.*;
    @Data @Builder
    public class Customer {
        private final String name;
        private int age;
        private boolean active;
        private static int counter;
    }
    @Value class Point { int x; int y; }
    @RequiredArgsConstructor class Service { private final Repo repo; private Clock clock; }
    @NoArgsConstructor @AllArgsConstructor class Both { private String a; }
    """
    classes = _by_name(_facts(source))
    customer = classes["p.Customer"]
    names = {m.name for m in customer.methods}
    assert {"getName", "getAge", "isActive", "setAge", "setActive", "builder"} <= names
    assert "setName" not in names and "getCounter" not in names
    assert customer.builder is not None and customer.builder.setters == ("name", "age", "active")
    assert customer.builder.source == "lombok"
    point = classes["p.Point"]
    assert [len(c.parameters) for c in point.constructors] == [2]
    assert all("final" in f.modifiers for f in point.fields)
    assert {"getX", "getY"} <= {m.name for m in point.methods}
    service = classes["p.Service"]
    assert [[p.name for p in c.parameters] for c in service.constructors] == [["repo"]]
    both = classes["p.Both"]
    assert sorted(len(c.parameters) for c in both.constructors) == [0, 1]


def test_handwritten_static_builder_is_detected() -> None:
    source = """
    package p;
    public final class Money {
        private final long cents;
        private Money(Builder b) { this.cents = b.cents; }
        public static Builder builder() { return new Builder(); }
        public static final class Builder {
            private long cents;
            public Builder cents(long cents) { this.cents = cents; return this; }
            public Builder currency(String c) { return this; }
            public Money build() { return new Money(this); }
        }
    }
    """
    money = _by_name(_facts(source))["p.Money"]
    assert money.builder is not None
    assert (money.builder.factory, money.builder.builder_type, money.builder.setters) == (
        "builder", "p.Money.Builder", ("cents", "currency"))


def test_a_supplier_style_builder_ending_in_get_is_detected() -> None:
    # Newer Apache Commons: `TextStyle.builder().setIndent(2).get()`, the setters returning the builder's own `B`.
    source = """
    package p;
    import java.util.function.Supplier;
    public final class TextStyle {
        private final int indent;
        private TextStyle(Builder b) { this.indent = b.indent; }
        public static Builder builder() { return new Builder(); }
        public int getIndent() { return indent; }
        public static class Builder<B extends Builder<B>> implements Supplier<TextStyle> {
            private int indent;
            public B setIndent(int indent) { this.indent = indent; return (B) this; }
            public Builder setScaling(boolean scaling) { return this; }
            @Override
            public TextStyle get() { return new TextStyle(this); }
        }
    }
    """
    style = _by_name(_facts(source))["p.TextStyle"]
    assert style.builder is not None
    assert (style.builder.setters, style.builder.build_method) == (("setIndent", "setScaling"), "get")


def test_default_constructor_is_made_explicit() -> None:
    classes = _by_name(_facts("package p; public class Plain { void run() {} } enum E { A }"))
    assert [(c.synthetic, c.modifiers) for c in classes["p.Plain"].constructors] == [("default", ("public",))]
    assert classes["p.E"].constructors[0].modifiers == ("private",)


def test_syntax_errors_are_reported_with_lines_and_the_rest_is_kept() -> None:
    source = "package p;\n\nclass Good { void ok() {} }\n\nclass Bad {\n  void broken( { int x = ; }\n}\n"
    facts = _facts(source)
    assert facts.problems and all(p.severity == "error" for p in facts.problems)
    assert {p.line for p in facts.problems} <= {5, 6, 7}
    assert "p.Good" in _by_name(facts)


def test_interfaces_default_methods_and_constants() -> None:
    source = "package p; public interface Policy { int MAX = 5; default int apply(int x) { return x; } " \
             "static Policy none() { return x -> x; } int rate(); }"
    policy = _by_name(_facts(source))["p.Policy"]
    assert policy.kind is TypeKind.INTERFACE and policy.is_abstract
    assert set(policy.fields[0].modifiers) >= {"public", "static", "final"}
    by_name = {m.name: m for m in policy.methods}
    assert "default" in by_name["apply"].modifiers and "static" in by_name["none"].modifiers
    assert not by_name["rate"].has_body


def test_a_sealed_type_lists_its_permitted_subtypes_in_order() -> None:
    facts = _facts("package a.b;\npublic sealed interface Shape<T> permits Square, Shape.Circle<T> {\n"
                   "    record Circle<T>(T radius) implements Shape<T> {}\n}\n")
    shape = _by_name(facts)["a.b.Shape"]
    assert [ref.text for ref in shape.permits] == ["Square", "Shape.Circle<T>"]
    assert "sealed" in shape.modifiers and _by_name(facts)["a.b.Shape.Circle"].permits == ()


def test_type_parameters_keep_their_first_bound() -> None:
    facts = _facts("package a.b;\npublic final class FeatureSet<F extends Feature & java.io.Serializable, "
                   "T extends Comparable<T>, K> {\n"
                   "    public static <E extends Enum<E>, N extends Number> FeatureSet<Feature> of(E e, N n) {\n"
                   "        return null;\n    }\n}\n")
    features = _by_name(facts)["a.b.FeatureSet"]
    assert [(b.name, b.bound.text) for b in features.type_bounds] == [("F", "Feature"), ("T", "Comparable<T>")]
    (of,) = features.methods
    assert [(b.name, b.bound.text) for b in of.type_bounds] == [("E", "Enum<E>"), ("N", "Number")]

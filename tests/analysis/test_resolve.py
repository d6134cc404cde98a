"""resolve_file: Java's name scoping against the repo's types, and the edges it yields."""

from __future__ import annotations

from junitbot.analysis import EdgeKind, extract_file, resolve_classes, resolve_edges
from junitbot.analysis.resolve import names_used

SYMBOLS = {
    "com.acme.domain.Order", "com.acme.domain.Order.Line", "com.acme.domain.Money", "com.acme.app.Money",
    "com.acme.app.Service", "com.acme.app.Service.Helper", "com.acme.util.Checks", "com.acme.other.Order",
}


def _edges(source: str, symbols: set[str] = SYMBOLS) -> set[tuple[str, str, str]]:
    facts = extract_file(source.encode(), "src/main/java/com/acme/app/Service.java")
    edges, _ = resolve_edges(facts, symbols, supertypes={})
    return {(e.source.rsplit(".", 1)[-1], e.target, e.kind.value) for e in edges}


def test_same_package_wins_over_wildcard_import() -> None:
    edges = _edges("package com.acme.app; import com.acme.domain.*; class Service { Money m; Order o; }")
    assert ("Service", "com.acme.app.Money", "field") in edges
    assert ("Service", "com.acme.domain.Order", "field") in edges
    assert not any(target == "com.acme.domain.Money" for _, target, _ in edges)


def test_single_type_import_wins_over_same_package() -> None:
    edges = _edges("package com.acme.app; import com.acme.domain.Money; class Service { Money m; }")
    assert ("Service", "com.acme.domain.Money", "field") in edges
    assert not any(target == "com.acme.app.Money" for _, target, _ in edges)


def test_nested_types_qualified_and_from_enclosing_scope() -> None:
    source = """package com.acme.app; import com.acme.domain.Order;
    class Service { Order.Line line; Helper h; class Inner { Helper again; } }"""
    edges = _edges(source)
    assert ("Service", "com.acme.domain.Order.Line", "field") in edges
    assert ("Service", "com.acme.app.Service.Helper", "field") in edges
    assert ("Inner", "com.acme.app.Service.Helper", "field") in edges


def test_fully_qualified_names_and_static_members() -> None:
    source = """package com.acme.app;
    class Service { void run() { com.acme.other.Order o = null; com.acme.util.Checks.notNull(o); } }"""
    edges = _edges(source)
    assert ("Service", "com.acme.other.Order", "local_variable") in edges
    assert ("Service", "com.acme.util.Checks", "static_call") in edges


def test_static_import_call_depends_on_the_declaring_type() -> None:
    source = """package com.acme.app; import static com.acme.util.Checks.notNull;
    class Service { void r() { notNull(1); } }"""
    assert ("Service", "com.acme.util.Checks", "static_call") in _edges(source)


def test_type_parameters_and_jdk_types_are_not_repo_edges() -> None:
    source = """package com.acme.app; import java.util.*;
    class Service<Order> { <Money> Money m(Order o) { List<String> x = new ArrayList<>(); return null; } }"""
    assert _edges(source) == set()


def test_resolved_class_info_has_fqns_for_repo_and_jdk_types() -> None:
    source = """package com.acme.app; import java.util.*; import java.time.Clock; import org.slf4j.Logger;
    class Service { List<Money> amounts; Clock clock; Logger log; String name; Unknown thing; }"""
    facts = extract_file(source.encode(), "Service.java")
    service = resolve_classes(facts, SYMBOLS, supertypes={})[0]
    types = {f.name: f.type for f in service.fields}
    assert (types["amounts"].fqn, types["amounts"].in_repo) == ("java.util.List", False)
    assert (types["amounts"].arguments[0].fqn, types["amounts"].arguments[0].in_repo) == ("com.acme.app.Money", True)
    assert types["clock"].fqn == "java.time.Clock"
    assert types["log"].fqn == "org.slf4j.Logger"
    assert types["name"].fqn == "java.lang.String"
    assert types["thing"].fqn is None


def test_names_used_covers_every_segment_resolution_can_depend_on() -> None:
    facts = extract_file(b"package p; import a.b.C; class X { D.E f; }", "X.java")
    assert {"a", "b", "C", "D", "E"} <= names_used(facts)


def test_no_self_edges() -> None:
    assert _edges("package com.acme.app; class Service { Service next; static Service of() { return null; } }") == set()


def test_edge_kinds_cover_annotations_and_class_literals() -> None:
    source = """package com.acme.app; import com.acme.util.Checks;
    @Checks class Service { Object o = Money.class; }"""
    edges = _edges(source, SYMBOLS)
    assert ("Service", "com.acme.util.Checks", EdgeKind.ANNOTATION.value) in edges
    assert ("Service", "com.acme.app.Money", EdgeKind.CLASS_LITERAL.value) in edges


def test_member_types_inherited_from_supertypes_in_other_files() -> None:
    symbols = {"fx.model.Events", "fx.model.Events.Created", "fx.model.BaseHandler", "fx.model.Status",
               "fx.app.Handler"}
    source = """package fx.app; import fx.model.*;
    class Handler extends BaseHandler { Created created; Status status; BaseHandler.Created again; }"""
    facts = extract_file(source.encode(), "Handler.java")
    supertypes = {"fx.app.Handler": ("fx.model.BaseHandler",), "fx.model.BaseHandler": ("fx.model.Events",)}
    edges, consulted = resolve_edges(facts, symbols, supertypes=supertypes)
    targets = {(e.target, e.kind.value) for e in edges}
    assert ("fx.model.Events.Created", "field") in targets
    assert ("fx.model.Status", "field") in targets  # Events has no Status: the package's wins
    assert {"fx.app.Handler", "fx.model.BaseHandler"} <= consulted


def test_method_type_parameters_hide_types_only_inside_the_method() -> None:
    source = """package com.acme.app;
    class Service { <Money> void post(Money m) { } Money last; }"""
    edges = _edges(source)
    assert edges == {("Service", "com.acme.app.Money", "field")}


def test_local_classes_shadow_repo_types() -> None:
    source = """package com.acme.app;
    class Service { Object make() { class Money { } return new Money(); } Money real; }"""
    assert _edges(source) == {("Service", "com.acme.app.Money", "field")}


def test_statically_imported_fields_and_calls_anywhere_in_the_file() -> None:
    source = """package com.acme.app;
    import static com.acme.util.Checks.LIMIT;
    import static com.acme.domain.Money.zero;
    class Service {
        int limit = LIMIT;
        class Helper { Object z() { return zero(); } }
    }"""
    edges = _edges(source)
    assert ("Service", "com.acme.util.Checks", "static_field") in edges
    assert ("Helper", "com.acme.domain.Money", "static_call") in edges

"""type_ref on nodes of a tree parsed outside extract_file, with the source passed explicitly."""

from __future__ import annotations

from junitbot.analysis import Node, SourceText, TypeRef, parse_java, type_ref


def _field_type(java: str) -> tuple[Node, SourceText]:
    data = java.encode()
    tree = parse_java(data)
    body = tree.root_node.named_children[0].child_by_field_name("body")
    assert body is not None
    field = next(c for c in body.named_children if c.type == "field_declaration")
    node = field.child_by_field_name("type")
    assert node is not None
    return node, SourceText(data)


def test_type_ref_reads_generic_arguments_from_the_source_it_is_given() -> None:
    node, source = _field_type("class A { private java.util.Map<String, List<Order>> byId; }")

    ref = type_ref(node, source)

    assert ref.text == "java.util.Map<String,List<Order>>"
    assert ref.name == "java.util.Map"
    assert ref.arguments == (
        TypeRef(text="String", name="String"),
        TypeRef(text="List<Order>", name="List", arguments=(TypeRef(text="Order", name="Order"),)),
    )


def test_type_ref_of_an_array_with_non_ascii_text_before_it() -> None:
    node, source = _field_type("class Ä { /* größe */ @Nullable Order[] orders; }")

    ref = type_ref(node, source)

    assert (ref.text, ref.name, ref.array) == ("Order[]", "Order", True)


def test_two_sources_side_by_side_do_not_interfere() -> None:
    first, first_source = _field_type("class A { Optional<Long> id; }")
    second, second_source = _field_type("class B { Set<String> tags; }")

    assert type_ref(second, second_source).text == "Set<String>"
    assert type_ref(first, first_source).text == "Optional<Long>"

"""Declarations in scope: the local, parameter or field a simple name means at a point of one file (pure).

Java's rules for variables, as far as one file tells them: the innermost block's locals declared before the
point, the enclosing lambdas', loops', catch clauses', resources' and members' parameters, then the fields
(and enum constants, record components) of each enclosing type. Inherited fields are not seen.
"""

from __future__ import annotations

from dataclasses import dataclass

from junitbot.analysis.parser import Node
from junitbot.analysis.source import SourceText

_BODIES = {"block", "constructor_body", "switch_block_statement_group", "switch_rule"}
_TYPE_BODIES = {"class_body", "enum_body", "enum_body_declarations", "interface_body"}
_MEMBERS = {"method_declaration", "constructor_declaration", "compact_constructor_declaration"}
_COMMENTS = {"line_comment", "block_comment"}


@dataclass(frozen=True)
class Declaration:
    """A variable in scope: its type node (None where the type is not written), its initializer, and whether
    it is a `static final` field (a constant)."""

    type_node: Node | None
    value: Node | None = None
    static_final: bool = False


UNKNOWN = Declaration(None)
"""A variable declared without a written type (an inferred lambda parameter, a catch parameter)."""


def declaration_of(name: str, at: Node, source: SourceText, *, fields_only: bool = False) -> Declaration | None:
    """The declaration of variable `name` visible at `at` in this file (locals, parameters, fields of the
    enclosing types); `UNKNOWN` when declared without a written type; None when the file declares none."""
    child, node = at, at.parent
    while node is not None:
        kind = node.type
        found: Declaration | None = None
        if kind in _TYPE_BODIES:
            found = _field(name, node, source)
        elif fields_only:
            pass
        elif kind in _BODIES:
            found = _local(name, node, child, source)
        elif kind in _MEMBERS or kind == "lambda_expression" or kind == "record_declaration":
            found = _parameter(name, node.child_by_field_name("parameters"), source)
        elif kind in ("enhanced_for_statement", "catch_clause", "for_statement", "try_with_resources_statement"):
            found = _loop_variable(name, node, child, source)
        if found is not None:
            return found
        child, node = node, node.parent
    return None


def _declarator_named(name: str, declaration: Node, source: SourceText) -> Node | None:
    return next((d for d in declaration.children_by_field_name("declarator")
                 if source.text(d.child_by_field_name("name")) == name), None)


def _local(name: str, block: Node, before: Node, source: SourceText) -> Declaration | None:
    for statement in block.named_children:
        if statement.start_byte >= before.start_byte:
            break
        if statement.type == "local_variable_declaration":
            declarator = _declarator_named(name, statement, source)
            if declarator is not None:
                return Declaration(statement.child_by_field_name("type"), declarator.child_by_field_name("value"))
    return None


def _field(name: str, body: Node, source: SourceText) -> Declaration | None:
    for member in body.named_children:
        if member.type == "enum_body_declarations":
            found = _field(name, member, source)
            if found is not None:
                return found
        if member.type == "enum_constant" and source.text(member.child_by_field_name("name")) == name:
            return UNKNOWN
        if member.type not in ("field_declaration", "constant_declaration"):
            continue
        declarator = _declarator_named(name, member, source)
        if declarator is not None:
            modifiers = next((c for c in member.children if c.type == "modifiers"), None)
            words = set((modifiers.text or b"").decode().split()) if modifiers is not None else set()
            constant = member.type == "constant_declaration" or {"static", "final"} <= words
            return Declaration(member.child_by_field_name("type"), declarator.child_by_field_name("value"),
                                static_final=constant)
    return None


def _parameter(name: str, parameters: Node | None, source: SourceText) -> Declaration | None:
    if parameters is None:
        return None
    if parameters.type == "identifier":  # `x -> ..`
        return UNKNOWN if source.text(parameters) == name else None
    for parameter in parameters.named_children:
        if parameter.type == "identifier" and source.text(parameter) == name:
            return UNKNOWN  # an inferred lambda parameter
        if parameter.type == "formal_parameter" and source.text(parameter.child_by_field_name("name")) == name:
            return Declaration(parameter.child_by_field_name("type"))
        if parameter.type == "spread_parameter" and name in source.text(parameter).split()[-1:]:
            return UNKNOWN
    return None


def _loop_variable(name: str, node: Node, child: Node, source: SourceText) -> Declaration | None:
    """The variable a for, for-each, catch or try-with-resources declares (seen only inside it)."""
    if node.type == "enhanced_for_statement":
        if source.text(node.child_by_field_name("name")) == name:
            return Declaration(node.child_by_field_name("type"))
        return None
    if node.type == "catch_clause":
        parameter = next((c for c in node.named_children if c.type == "catch_formal_parameter"), None)
        return UNKNOWN if parameter is not None and source.text(
            parameter.child_by_field_name("name")) == name else None
    if node.type == "for_statement":
        for init in node.children_by_field_name("init"):
            if init.type == "local_variable_declaration" and init.id != child.id:
                declarator = _declarator_named(name, init, source)
                if declarator is not None:
                    return Declaration(init.child_by_field_name("type"), declarator.child_by_field_name("value"))
        return None
    resources = node.child_by_field_name("resources")
    for resource in _named(resources):
        if source.text(resource.child_by_field_name("name")) == name:
            return Declaration(resource.child_by_field_name("type"), resource.child_by_field_name("value"))
    return None


def _named(node: Node | None) -> list[Node]:
    return [] if node is None else [c for c in node.named_children if c.type not in _COMMENTS]

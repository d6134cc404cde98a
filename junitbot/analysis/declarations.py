"""Declarations in scope: the local, parameter or field a simple name means at a point of one file (pure).

Java's rules for variables, as far as one file tells them: the innermost block's locals declared before the
point, the enclosing lambdas', loops', catch clauses', resources' and members' parameters, then the fields
(and enum constants, record components) of each enclosing type. Inherited fields are not seen.
"""

from __future__ import annotations

from dataclasses import dataclass

from junitbot.analysis.parser import Node
from junitbot.analysis.source import SourceText

_BLOCKS = {"block", "constructor_body", "switch_block_statement_group", "switch_rule"}
_TYPE_BODIES = {"class_body", "enum_body", "enum_body_declarations", "interface_body"}
_PARAMETERS = {"method_declaration", "constructor_declaration", "compact_constructor_declaration",
               "lambda_expression", "record_declaration"}
_CLAUSES = {"enhanced_for_statement", "catch_clause", "for_statement", "try_with_resources_statement"}
_COMMENTS = {"line_comment", "block_comment"}
_EVERYWHERE = -1  # a parameter or field: in scope throughout the node that declares it


@dataclass(frozen=True)
class Declaration:
    """A variable in scope: its type node (None where the type is not written), its initializer, and whether
    it is a `static final` field (a constant)."""

    type_node: Node | None
    value: Node | None = None
    static_final: bool = False


UNKNOWN = Declaration(None)
"""A variable declared without a written type (an inferred lambda parameter, a catch parameter)."""

_Table = dict[str, list[tuple[int, Declaration]]]


class Declarations:
    """The declarations of one file's tree, each scope's read once (a file asks about many names)."""

    def __init__(self, source: SourceText) -> None:
        self.source = source
        self._tables: dict[int, _Table] = {}

    def of(self, name: str, at: Node, *, fields_only: bool = False) -> Declaration | None:
        """The declaration of variable `name` visible at `at` (only fields with `fields_only`: `this.name`);
        `UNKNOWN` when declared without a written type; None when the file declares none."""
        child, node = at, at.parent
        while node is not None:
            kind = node.type
            if kind in _TYPE_BODIES or (not fields_only and (kind in _BLOCKS or kind in _PARAMETERS
                                                             or kind in _CLAUSES)):
                for start, declaration in self._table(node).get(name, ()):
                    if start < child.start_byte:  # a local only after its declaration, the rest everywhere
                        return declaration
            child, node = node, node.parent
        return None

    def _table(self, node: Node) -> _Table:
        table = self._tables.get(node.id)
        if table is None:
            table = self._tables[node.id] = {}
            for name, start, declaration in self._declared(node):
                table.setdefault(name, []).append((start, declaration))
        return table

    def _declared(self, node: Node) -> list[tuple[str, int, Declaration]]:
        kind, text = node.type, self.source.text
        if kind in _BLOCKS:
            return [(name, statement.start_byte, declaration) for statement in _named(node)
                    if statement.type == "local_variable_declaration"
                    for name, declaration in self._variables(statement)]
        if kind in _TYPE_BODIES:
            return self._fields(node)
        if kind in _PARAMETERS:
            return self._parameters(node.child_by_field_name("parameters"))
        if kind == "enhanced_for_statement":
            return [(text(node.child_by_field_name("name")), _EVERYWHERE,
                     Declaration(node.child_by_field_name("type")))]
        if kind == "catch_clause":
            parameter = next((c for c in node.named_children if c.type == "catch_formal_parameter"), None)
            return [] if parameter is None else [(text(parameter.child_by_field_name("name")), _EVERYWHERE, UNKNOWN)]
        if kind == "for_statement":
            return [(name, _EVERYWHERE, declaration) for init in node.children_by_field_name("init")
                    if init.type == "local_variable_declaration" for name, declaration in self._variables(init)]
        return [(text(r.child_by_field_name("name")), _EVERYWHERE,
                 Declaration(r.child_by_field_name("type"), r.child_by_field_name("value")))
                for r in _named(node.child_by_field_name("resources")) if r.type == "resource"]

    def _variables(self, declaration: Node, *, static_final: bool = False) -> list[tuple[str, Declaration]]:
        type_node = declaration.child_by_field_name("type")
        return [(self.source.text(d.child_by_field_name("name")),
                 Declaration(type_node, d.child_by_field_name("value"), static_final=static_final))
                for d in declaration.children_by_field_name("declarator")]

    def _fields(self, body: Node) -> list[tuple[str, int, Declaration]]:
        found: list[tuple[str, int, Declaration]] = []
        for member in body.named_children:
            if member.type == "enum_body_declarations":
                found += self._fields(member)
            elif member.type == "enum_constant":
                found.append((self.source.text(member.child_by_field_name("name")), _EVERYWHERE, UNKNOWN))
            elif member.type in ("field_declaration", "constant_declaration"):
                modifiers = next((c for c in member.children if c.type == "modifiers"), None)
                words = set((modifiers.text or b"").decode().split()) if modifiers is not None else set()
                constant = member.type == "constant_declaration" or {"static", "final"} <= words
                found += [(name, _EVERYWHERE, declaration)
                          for name, declaration in self._variables(member, static_final=constant)]
        return found

    def _parameters(self, parameters: Node | None) -> list[tuple[str, int, Declaration]]:
        if parameters is None:
            return []
        if parameters.type == "identifier":  # `x -> ..`
            return [(self.source.text(parameters), _EVERYWHERE, UNKNOWN)]
        found: list[tuple[str, int, Declaration]] = []
        for parameter in parameters.named_children:
            if parameter.type == "identifier":  # an inferred lambda parameter
                found.append((self.source.text(parameter), _EVERYWHERE, UNKNOWN))
            elif parameter.type == "formal_parameter":
                found.append((self.source.text(parameter.child_by_field_name("name")), _EVERYWHERE,
                              Declaration(parameter.child_by_field_name("type"))))
            elif parameter.type == "spread_parameter":
                words = self.source.text(parameter).split()
                found += [(words[-1], _EVERYWHERE, UNKNOWN)] if words else []
        return found


def declaration_of(name: str, at: Node, source: SourceText, *, fields_only: bool = False) -> Declaration | None:
    """`Declarations(source).of(name, at)`, for a one-off question."""
    return Declarations(source).of(name, at, fields_only=fields_only)


def _named(node: Node | None) -> list[Node]:
    return [] if node is None else [c for c in node.named_children if c.type not in _COMMENTS]

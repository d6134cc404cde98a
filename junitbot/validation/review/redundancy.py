"""Redundancy: tests that repeat another, and locals, mocks or imports nothing uses (pure)."""

from __future__ import annotations

import re

from junitbot.analysis import Node, descendants, member_node
from junitbot.validation.review.context import ReviewContext, finding
from junitbot.validation.review.models import ReviewFinding
from junitbot.validation.static import annotation_names, compact, enclosing, is_call, name_of, text_of

_THROWN = frozenset({"assertThrows", "assertThrowsExactly", "catchThrowable", "catchThrowableOfType",
                     "catchException"})
# Annotations that do not change what a test runs: two tests differing only in these are duplicates.
_NEUTRAL = frozenset({"Test", "DisplayName", "Tag", "Tags", "Disabled", "Timeout", "Order", "Override"})
_IGNORED_NAMES = re.compile(r"^(_|ignored.*|unused.*)$")


def flag_duplicate_bodies(review: ReviewContext) -> list[ReviewFinding]:
    """`duplicate-body`, at the later test's name (see the package docstring)."""
    test = review.test
    seen: dict[tuple[str, str], str] = {}
    findings = []
    for member in test.test_class.test_methods:
        node = member_node(test.tree, member)
        key = (member.owner, _shape(node))
        if key not in seen:
            seen[key] = member.name
            continue
        findings.append(finding("duplicate-body", node.child_by_field_name("name") or node,
                                f"{member.name} repeats {seen[key]} token for token", drops=True))
    return findings


def _shape(method: Node) -> str:
    """A method's tokens without comments or its name, neutral annotations left out."""
    modifiers = next((c for c in method.children if c.type == "modifiers"), None)
    annotations = [c for c in modifiers.children if c.type in ("marker_annotation", "annotation")] if modifiers else []
    kept = [a for a in annotations if compact(a.child_by_field_name("name")).rsplit(".", 1)[-1] not in _NEUTRAL]
    parts = [*kept, method.child_by_field_name("parameters"), method.child_by_field_name("body")]
    return " ".join(_tokens(p) for p in parts if p is not None)


def _tokens(node: Node) -> str:
    return " ".join(text_of(n) for n in descendants(node)
                    if n.child_count == 0 and n.type not in ("line_comment", "block_comment"))


def flag_unused_locals(review: ReviewContext) -> list[ReviewFinding]:
    """`unused-variable`, `unread-thrown` and `unused-mock` for locals (see the package docstring)."""
    findings = []
    for declaration in review.test.nodes("local"):
        scope = declaration.parent
        if declaration.type != "local_variable_declaration" or scope is None:
            continue
        for declarator in declaration.children_by_field_name("declarator"):
            name_node = declarator.child_by_field_name("name")
            name = text_of(name_node)
            if name_node is None or _IGNORED_NAMES.match(name) or _reads(scope, name, after=declarator.end_byte):
                continue
            value = declarator.child_by_field_name("value")
            findings.append(_unused_local(review, name_node, name, value))
    return findings


def _unused_local(review: ReviewContext, at: Node, name: str, value: Node | None) -> ReviewFinding:
    if review.is_mock(value) or is_call(value, ("spy",)):
        return finding("unused-mock", at, f"mock {name} is created but never used: drop it")
    if value is not None and value.type == "method_invocation" and name_of(value) in _THROWN:
        return finding("unread-thrown", at, f"the exception kept in {name} is never checked: assert its message "
                                             "(or type details), or drop the variable")
    return finding("unused-variable", at, f"{name} is never read: assert on it, or drop the variable")


def _reads(scope: Node, name: str, *, after: int = 0, fields: bool = False) -> bool:
    """Whether `name` is read inside `scope` after byte `after`: not declared, assigned, or a member name there.
    With `fields`, `this.name` counts as a read of the field."""
    for node in descendants(scope):
        if node.type != "identifier" or node.start_byte < after or text_of(node) != name:
            continue
        parent = node.parent
        if parent is None:
            return True
        field = parent.type == "field_access" and parent.child_by_field_name("field") == node
        if field and not (fields and text_of(parent.child_by_field_name("object")) == "this"):
            continue
        if parent.type in ("variable_declarator", "method_invocation", "method_declaration", "formal_parameter") \
                and parent.child_by_field_name("name") == node:
            continue
        if not _written(parent.parent if field else parent, node):
            return True
    return False


def _written(target: Node | None, node: Node) -> bool:
    """Whether `node` is what an assignment (`=`, `+=`) or `++`/`--` writes: a write whose value nothing reads."""
    if target is None:
        return False
    if target.type == "update_expression":  # `n++;` writes; `m(n++)` reads too
        return target.parent is not None and target.parent.type == "expression_statement"
    left = target.child_by_field_name("left")
    return target.type == "assignment_expression" and left is not None \
        and left.start_byte <= node.start_byte < left.end_byte


def flag_unused_mocks(review: ReviewContext) -> list[ReviewFinding]:
    """`unused-mock` for fields and `@Mock` parameters (see the package docstring)."""
    test = review.test
    findings = []
    if not review.injects:
        for var in test.fields.values():
            if var.role in ("mock", "spy") and not _reads(test.tree.root_node, var.name, fields=True):
                findings.append(finding("unused-mock", var.node.child_by_field_name("name") or var.node,
                                         f"@{'Mock' if var.role == 'mock' else 'Spy'} {var.name} is never used: "
                                         "drop it"))
    for node in test.nodes("parameter"):
        body = enclosing(node, "method_declaration")
        name = text_of(node.child_by_field_name("name"))
        if body is not None and annotation_names(node) & {"Mock", "Spy"} and not _reads(body, name,
                                                                                     after=node.end_byte):
            findings.append(finding("unused-mock", node, f"mock parameter {name} is never used: drop it"))
    return findings

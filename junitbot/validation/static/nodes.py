"""Small helpers over tree-sitter nodes of a test's source, which every static pass and the review lint share (pure)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from junitbot.analysis import TEST_ANNOTATIONS, Node, node_text
from junitbot.validation.models import Severity, ValidationIssue

ERROR, WARNING = Severity.ERROR, Severity.WARNING
_COMMENTS = frozenset({"line_comment", "block_comment"})
MOCKITO_HOLDERS = frozenset({"Mockito", "org.mockito.Mockito", "BDDMockito", "org.mockito.BDDMockito"})


text_of = node_text  # the passes' name for a node's source text


def compact(node: Node | None) -> str:
    """A node's source text without whitespace: `Mockito . mock` -> `Mockito.mock`."""
    return re.sub(r"\s+", "", text_of(node))


def line_of(node: Node) -> int:
    """The 1-based line a node starts on."""
    return node.start_point[0] + 1


def name_of(node: Node) -> str:
    """The text of a node's `name` field: a method's, call's or declaration's name."""
    return text_of(node.child_by_field_name("name"))


def simple_name(name: str) -> str:
    """`Money` for `com.acme.Money`."""
    return name.rsplit(".", 1)[-1]


def enclosing(node: Node, *types: str) -> Node | None:
    """The nearest ancestor of one of `types`."""
    parent = node.parent
    while parent is not None and parent.type not in types:
        parent = parent.parent
    return parent


def _annotations(node: Node) -> list[Node]:
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    if modifiers is None:
        return []
    return [c for c in modifiers.children if c.type in ("marker_annotation", "annotation")]


def annotation_names(node: Node) -> set[str]:
    """The simple names of a declaration's annotations."""
    return {simple_name(compact(a.child_by_field_name("name"))) for a in _annotations(node)}


def type_name(node: Node | None) -> str:
    """A type as written without its generic arguments: `Repository<A, B>` -> `Repository`."""
    if node is None:
        return ""
    if node.type == "generic_type":
        return type_name(node.named_children[0])
    if node.type == "array_type":
        return type_name(node.child_by_field_name("element")) + "[]"
    return compact(node)


def arguments_of(call: Node) -> list[Node]:
    """A call's or `new`'s arguments, without comments."""
    args = call.child_by_field_name("arguments")
    return [] if args is None else [c for c in args.named_children if c.type not in _COMMENTS]


def statements_of(block: Node | None) -> list[Node]:
    """A block's statements, without comments."""
    return [] if block is None else [c for c in block.named_children if c.type not in _COMMENTS]


def variable_name(node: Node | None) -> str | None:
    """`x` for `x` and `this.x`; None for any other expression."""
    if node is None:
        return None
    if node.type == "identifier":
        return text_of(node)
    if node.type == "field_access" and text_of(node.child_by_field_name("object")) == "this":
        return text_of(node.child_by_field_name("field"))
    return None


def is_call(node: Node | None, names: Iterable[str], holders: frozenset[str] = MOCKITO_HOLDERS) -> bool:
    """A call of one of `names`, statically imported or on one of `holders` (`Mockito.mock(...)`)."""
    if node is None or node.type != "method_invocation" or name_of(node) not in names:
        return False
    receiver = node.child_by_field_name("object")
    return receiver is None or compact(receiver) in holders


def created_type(value: Node | None) -> str | None:
    """The type a value makes: `new X(..)`, `mock(X.class)`, `spy(new X(..))`; None when unknown."""
    if value is None:
        return None
    if value.type == "object_creation_expression":
        return type_name(value.child_by_field_name("type"))
    if is_call(value, ("mock", "spy")):
        args = arguments_of(value)
        if args and args[0].type == "class_literal":
            return type_name(args[0].named_children[0])
        if args:
            return created_type(args[0])
    return None


def _test_method_name(node: Node) -> str | None:
    method = node if node.type == "method_declaration" else enclosing(node, "method_declaration")
    while method is not None and TEST_ANNOTATIONS.isdisjoint(annotation_names(method)):
        method = enclosing(method, "method_declaration")
    return None if method is None else name_of(method)


def issue_at(pass_name: str, severity: Severity, category: str, message: str, at: Node | int,
             suggestion: str) -> ValidationIssue:
    """An issue at a node (its line, and its test method if inside one) or at a bare line number."""
    if isinstance(at, int):
        line, method = at, None
    else:
        line, method = line_of(at), _test_method_name(at)
    return ValidationIssue(severity=severity, pass_name=pass_name, category=category, message=message,
                           suggestion=suggestion, line=line, method=method)


def name_node(node: Node) -> Node:
    """A declaration's name, where an issue about the whole declaration points (not at its annotations)."""
    return node.child_by_field_name("name") or node


def closest_first(name: str, choices: Iterable[str]) -> list[str]:
    """Every choice, the closest to `name` first."""
    unique = sorted(set(choices))
    close = difflib.get_close_matches(name, unique, n=len(unique), cutoff=0.0)
    return list(dict.fromkeys([*close, *unique]))


def call_target(call: Node) -> Node | None:
    """What a call is made on: `m` for `m.f()`, `verify(m).f()`, `doReturn(x).when(m).f()`, `then(m).should().f()`."""
    receiver = call.child_by_field_name("object")
    if receiver is None or receiver.type != "method_invocation":
        return receiver
    name, holder = name_of(receiver), receiver.child_by_field_name("object")
    args = arguments_of(receiver)
    if name == "verify" or (name == "when" and holder is not None and holder.type == "method_invocation"):
        return args[0] if args else None
    if name == "should" and holder is not None and is_call(holder, ("then",)):
        inner = arguments_of(holder)
        return inner[0] if inner else None
    return None


def stubbed_mock(call: Node) -> Node | None:
    """The mock a stubbing call sets up: `m` in `when(m.f())`, `given(m.f())` and `doReturn(x).when(m)`."""
    if is_call(call, ("when", "given")):
        args = arguments_of(call)
        if args and args[0].type == "method_invocation":
            return args[0].child_by_field_name("object")
    elif name_of(call) == "when" and (holder := call.child_by_field_name("object")) is not None \
            and holder.type == "method_invocation" and name_of(holder).startswith("do"):
        args = arguments_of(call)
        return args[0] if args else None
    return None

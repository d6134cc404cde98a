"""The only tree-sitter importer: the Java language, a parser and the compiled queries."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import cache
from importlib import resources

import tree_sitter
import tree_sitter_java

Node = tree_sitter.Node
Tree = tree_sitter.Tree

_local = threading.local()


@cache
def java_language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_java.language())


@cache
def java_query() -> tree_sitter.Query:
    """The declarations-and-usages query of `queries/java.scm`, compiled once per process."""
    text = resources.files("junitbot.analysis").joinpath("queries/java.scm").read_text(encoding="utf-8")
    return tree_sitter.Query(java_language(), text)


@cache
def package_query(package: str, resource: str) -> tree_sitter.Query:
    """A Java query shipped as package data (`resource` inside `package`), compiled once per process."""
    text = resources.files(package).joinpath(resource).read_text(encoding="utf-8")
    return tree_sitter.Query(java_language(), text)


def query_captures(query: tree_sitter.Query, node: Node) -> dict[str, list[Node]]:
    """A query's captures under `node`, by capture name, each list in source order (outer first)."""
    captured = tree_sitter.QueryCursor(query).captures(node)
    for nodes in captured.values():
        nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return captured


@cache
def _identifier_query() -> tree_sitter.Query:
    return tree_sitter.Query(java_language(), "(identifier) @identifier")


def identifier_nodes(tree: Tree) -> list[Node]:
    """Every identifier of a tree; only for the rare files that need it (static imports)."""
    cursor = tree_sitter.QueryCursor(_identifier_query())
    return cursor.captures(tree.root_node).get("identifier", [])


def parse_java(source: bytes) -> Tree:
    """Parse Java source bytes; syntax errors become ERROR/MISSING nodes, never exceptions."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        # Parsers are not thread-safe; one per thread, reused across files.
        parser = _local.parser = tree_sitter.Parser(java_language())
    # tree-sitter's lexer reads a NUL as the end of input, so a NUL in a string literal (legal Java: commons-text's
    # OssFuzzTest) ended the file there. A space is as wide, so every offset stays the same.
    return parser.parse(source.replace(b"\x00", b" "))


def node_text(node: Node | None) -> str:
    """A node's source text (undecodable bytes replaced); empty for no node."""
    return "" if node is None or node.text is None else node.text.decode("utf-8", "replace")


def capture_nodes(tree: Tree) -> dict[str, list[Node]]:
    """The declarations-and-usages captures over a tree, by capture name, each list in source order.

    `ref.*` lists are left unordered: their consumer deduplicates and sorts what it derives.
    """
    captured = tree_sitter.QueryCursor(java_query()).captures(tree.root_node)
    for name, nodes in captured.items():
        if not name.startswith("ref."):
            nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return captured


def capture_static_uses(tree: Tree) -> dict[str, list[Node]]:
    """Unqualified calls and declared method names, for files with static imports."""
    return query_captures(package_query("junitbot.analysis", "queries/static_uses.scm"), tree.root_node)


def capture_members(tree: Tree) -> dict[str, list[Node]]:
    """The members-and-bodies captures (`queries/members.scm`), for full ClassInfo."""
    return query_captures(package_query("junitbot.analysis", "queries/members.scm"), tree.root_node)


def syntax_errors(tree: Tree, *, limit: int = 5) -> list[tuple[int, str]]:
    """Up to `limit` (line, message) pairs for ERROR and MISSING nodes, in source order."""
    found: list[tuple[int, str]] = []
    if not tree.root_node.has_error:
        return found
    stack = [tree.root_node]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.is_missing:
            found.append((node.start_point[0] + 1, f"missing {node.type!r}"))
        elif node.is_error:
            snippet = (node.text or b"")[:40].decode("utf-8", "replace").replace("\n", " ")
            found.append((node.start_point[0] + 1, f"syntax error near {snippet!r}"))
        elif node.has_error:
            stack.extend(reversed(node.children))
    return sorted(found)


def descendants(node: Node) -> Iterator[Node]:
    """A node and everything under it, in source order."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        pending.extend(reversed(current.children))

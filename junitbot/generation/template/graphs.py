"""What the no-model generator reads of the repository's graph, as plain lookups (source text, type names)."""

from __future__ import annotations

from collections.abc import Callable

from junitbot.analysis import ClassInfo, CodeGraph, EdgeKind, TypeKind


def source_text(graph: CodeGraph) -> Callable[[str], str | None]:
    """A repo file's text by its path (None when the graph does not hold it)."""
    def source(path: str) -> str | None:
        data = graph.source(path)
        return data.decode("utf-8", errors="replace") if data is not None else None
    return source


def exception_resolver(info: ClassInfo, graph: CodeGraph) -> Callable[[str], str | None]:
    """A caught exception's FQN from its simple name: what the class catches, else the one repo type of that name,
    else `java.lang`'s."""
    caught = [fqn for fqn, kind in graph.dependencies(info.fqn) if kind is EdgeKind.CATCHES]

    def resolve(simple: str) -> str | None:
        found = [fqn for fqn in caught if fqn.rsplit(".", 1)[-1] == simple] or graph.fqns_named(simple)
        if len(found) == 1:
            return found[0]
        return f"java.lang.{simple}" if not found and simple.endswith(("Exception", "Error")) else None
    return resolve


def written_types(graph: CodeGraph) -> Callable[[str], ClassInfo | None]:
    """The repo type a test names (`Money`, `Order.Line`, or its FQN), when the name says which one."""
    def find(written: str) -> ClassInfo | None:
        found = graph.fqns_named(written)
        return graph.class_info(found[0]) if len(found) == 1 else None
    return find



def enum_test(graph: CodeGraph) -> Callable[[str], bool]:
    """Whether a type, as a test writes it (`Currency`, `Order.Status`), is one of the repo's enums."""
    def is_enum(written: str) -> bool:
        return any((info := graph.class_info(fqn)) is not None and info.kind is TypeKind.ENUM
                   for fqn in graph.fqns_named(written))
    return is_enum

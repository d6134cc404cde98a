"""The test style of the repository: its assertion library (when the classpath has it) and test naming."""

from __future__ import annotations

from typing import Literal

from junitbot.analysis import CodeGraph, parse_test_class
from junitbot.analysis.marker import generated_target
from junitbot.validation import Frameworks

AssertionStyle = Literal["junit", "assertj"]
NamingStyle = Literal["underscore", "camel"]
_ASSERTJ = b"org.assertj.core.api"
_JUNIT = b"org.junit.jupiter.api.Assertions"
# Java's reserved words and literals (with the contextual `record`, `var`, `yield`): never a name junitbot gives.
JAVA_KEYWORDS = frozenset({
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
    "default", "do", "double", "else", "enum", "extends", "false", "final", "finally", "float", "for", "goto", "if",
    "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "null", "package", "private",
    "protected", "public", "record", "return", "short", "static", "strictfp", "super", "switch", "synchronized",
    "this", "throw", "throws", "transient", "true", "try", "var", "void", "volatile", "while", "yield",
})


def assertion_style(graph: CodeGraph, frameworks: Frameworks) -> AssertionStyle:
    """AssertJ when the classpath offers it and most of the repo's own tests use it; JUnit's otherwise."""
    if frameworks.assertj is None:
        return "junit"
    assertj = junit = 0
    for path, _ in graph.source_files(test=True):
        source = graph.source(path) or b""
        if generated_target(source.decode("utf-8", "replace")) is not None:
            continue  # our own output says nothing about the team's style
        assertj += _ASSERTJ in source
        junit += _JUNIT in source
    return "assertj" if assertj > junit else "junit"


def naming_style(graph: CodeGraph) -> NamingStyle:
    """`method_whenX_returnsY` unless most of the repo's own test names are camelCase (`returnsTotalWhenEmpty`)."""
    underscore = camel = 0
    for path, _ in graph.source_files(test=True):
        source = (graph.source(path) or b"").decode("utf-8", "replace")
        if generated_target(source) is not None:
            continue
        for name in parse_test_class(source).test_names:
            if "_" in name:
                underscore += 1
            elif any(c.isupper() for c in name):
                camel += 1
    return "camel" if camel > underscore else "underscore"


def test_name(parts: list[str], style: NamingStyle) -> str:
    """Join name parts (`placeOrder`, `whenStockIsEmpty`, `throwsOutOfStock`) in the repo's style."""
    parts = [p for p in parts if p]
    if style == "camel":
        return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])
    return "_".join(parts)


def fresh_name(name: str, taken: set[str]) -> str:
    """`name`, or `name2`, `name3`, ... whichever is not in `taken` yet; it is added to `taken`."""
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    taken.add(candidate)
    return candidate

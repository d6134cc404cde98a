"""The test style of the repository: which assertion library its own tests use, when the classpath has it."""

from __future__ import annotations

from typing import Literal

from junitbot.analysis import CodeGraph
from junitbot.generation.output import generated_target
from junitbot.validation import Frameworks

AssertionStyle = Literal["junit", "assertj"]
_ASSERTJ = b"org.assertj.core.api"
_JUNIT = b"org.junit.jupiter.api.Assertions"


def assertion_style(graph: CodeGraph, frameworks: Frameworks) -> AssertionStyle:
    """AssertJ when the classpath offers it and most of the repo's own tests use it; JUnit's otherwise."""
    if frameworks.assertj is None:
        return "junit"
    assertj = junit = 0
    for path, _ in graph.source_files(test=True):
        source = graph.source(path) or b""
        if generated_target(source[:400].decode("utf-8", "replace")) is not None:
            continue  # our own output says nothing about the team's style
        assertj += _ASSERTJ in source
        junit += _JUNIT in source
    return "assertj" if assertj > junit else "junit"

"""The no-model generator: AST shells, values mined from the repo, scenarios, probe runs, observed assertions."""

from __future__ import annotations

from junitbot.generation.template.access import Scope
from junitbot.generation.template.builder import string_value
from junitbot.generation.template.context import ClassContext, ModuleContext, Style, graph_implementations
from junitbot.generation.template.pipeline import generate_tests
from junitbot.generation.template.plan import class_shell, generated_test_path
from junitbot.generation.template.scaffold import skip_reason, test_shell
from junitbot.generation.template.values import value_expression

__all__ = [
    "ClassContext",
    "ModuleContext",
    "Scope",
    "Style",
    "class_shell",
    "generate_tests",
    "generated_test_path",
    "graph_implementations",
    "skip_reason",
    "string_value",
    "test_shell",
    "value_expression",
]

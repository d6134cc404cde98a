"""Test generation: the deterministic no-model layer first (values, scaffolds), prompts and backends on top."""

from __future__ import annotations

from junitbot.generation.imports import ImportSet, split_fqn
from junitbot.generation.literals import java_string
from junitbot.generation.models import MockField, Skip, TestShell, ValueExpr, ValueStrategy
from junitbot.generation.scaffold import skip_reason, test_shell
from junitbot.generation.values import string_value, value_expression

__all__ = [
    "ImportSet",
    "MockField",
    "Skip",
    "TestShell",
    "ValueExpr",
    "ValueStrategy",
    "java_string",
    "skip_reason",
    "split_fqn",
    "string_value",
    "test_shell",
    "value_expression",
]

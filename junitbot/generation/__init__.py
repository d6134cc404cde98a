"""Test generation: `generate(targets, job, backend)` over two strategies, `template/` (no model) and `llm/`."""

from __future__ import annotations

from junitbot.analysis.marker import generated_target
from junitbot.generation.generate import generate
from junitbot.generation.imports import ImportSet, split_fqn
from junitbot.generation.literals import java_string
from junitbot.generation.models import (
    Correction,
    GenerationJob,
    GenerationResult,
    MockField,
    Origin,
    ProgressCallback,
    RoundRecord,
    Skip,
    Target,
    TargetOutcome,
    TestShell,
    ValueExpr,
    ValueStrategy,
)
from junitbot.generation.output import WriteOutcome, remove_orphans, write_tests

__all__ = [
    "Correction",
    "GenerationJob",
    "GenerationResult",
    "ImportSet",
    "MockField",
    "Origin",
    "ProgressCallback",
    "RoundRecord",
    "Skip",
    "Target",
    "TargetOutcome",
    "TestShell",
    "ValueExpr",
    "ValueStrategy",
    "WriteOutcome",
    "generate",
    "generated_target",
    "java_string",
    "remove_orphans",
    "split_fqn",
    "write_tests",
]

"""Generation with a model: context, prompts, backends, the generate-validate-repair loop, answer handling."""

from __future__ import annotations

from junitbot.generation.llm.backends import (
    Backend,
    BackendChoice,
    LLMSettings,
    choose_backend,
    get_backend,
    open_backend,
)
from junitbot.generation.llm.loop import LoopContext, LoopTarget, Validate, run_llm_loop

__all__ = [
    "Backend",
    "BackendChoice",
    "LLMSettings",
    "LoopContext",
    "LoopTarget",
    "Validate",
    "choose_backend",
    "get_backend",
    "open_backend",
    "run_llm_loop",
]

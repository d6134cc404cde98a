"""LLMSettings: the knobs of model-backed generation; defined in `junitbot.config` (`generation.llm`)."""

from __future__ import annotations

from junitbot.config import BackendName, LLMSettings

__all__ = ["BackendName", "LLMSettings"]

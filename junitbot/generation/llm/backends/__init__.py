"""Generation backends behind one batch-first interface: vllm, openai and transformers.

`template` (no model) is no backend: `get_backend` returns None for it.

Each backend module imports its engine lazily; `get_backend(settings)` picks one by documented precedence.
"""

from __future__ import annotations

from junitbot.generation.llm.backends.base import (
    Backend,
    ChatMessage,
    GenerationRequest,
    GenerationResponse,
    SaysContextLength,
    render_chat,
)
from junitbot.generation.llm.backends.openai import OpenAIBackend, server_from
from junitbot.generation.llm.backends.select import BackendChoice, choose_backend, get_backend, open_backend
from junitbot.generation.llm.backends.settings import BackendName, LLMSettings
from junitbot.generation.llm.backends.transformers_backend import TransformersBackend, load_local_model
from junitbot.generation.llm.backends.vllm import VLLMBackend

__all__ = [
    "Backend",
    "BackendChoice",
    "BackendName",
    "ChatMessage",
    "GenerationRequest",
    "GenerationResponse",
    "LLMSettings",
    "OpenAIBackend",
    "SaysContextLength",
    "TransformersBackend",
    "VLLMBackend",
    "choose_backend",
    "get_backend",
    "load_local_model",
    "open_backend",
    "render_chat",
    "server_from",
]

"""Generation backends behind one batch-first interface: vllm, openai, transformers and template.

Each backend module imports its engine lazily; `get_backend(settings)` picks one by documented precedence.
"""

from __future__ import annotations

from junitbot.generation.backends.base import (
    Backend,
    ChatMessage,
    GenerationRequest,
    GenerationResponse,
    render_chat,
)
from junitbot.generation.backends.openai import OpenAIBackend, server_from
from junitbot.generation.backends.select import BackendChoice, choose_backend, get_backend
from junitbot.generation.backends.settings import BackendName, LLMSettings
from junitbot.generation.backends.template import TemplateBackend
from junitbot.generation.backends.transformers_backend import TransformersBackend, load_local_model
from junitbot.generation.backends.vllm import VLLMBackend

__all__ = [
    "Backend",
    "BackendChoice",
    "BackendName",
    "ChatMessage",
    "GenerationRequest",
    "GenerationResponse",
    "LLMSettings",
    "OpenAIBackend",
    "TemplateBackend",
    "TransformersBackend",
    "VLLMBackend",
    "choose_backend",
    "get_backend",
    "load_local_model",
    "render_chat",
    "server_from",
]

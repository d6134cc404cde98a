"""get_backend: the backend config names, or the automatic choice, constructed and logged with its source.

`template` is no backend: it means no model, and `get_backend` returns None for it with the reason.
Precedence: an explicit `generation.backend` wins. `auto`: a GPU and vLLM importable → `vllm`; else a
server URL configured (`generation.openai_base_url` or `OPENAI_BASE_URL`) → `openai`; else `template`.
`transformers` is never chosen automatically: on CPU it is slow, so a user asks for it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Literal

import httpx

from junitbot.generation.llm.backends.base import Backend
from junitbot.generation.llm.backends.settings import LLMSettings
from junitbot.records import Record

log = logging.getLogger(__name__)

ChosenName = Literal["vllm", "openai", "transformers", "template"]


class BackendChoice(Record):
    """Which backend a run uses and why (the source the log line and the report show)."""

    name: ChosenName
    source: str


def choose_backend(
    settings: LLMSettings,
    *,
    environ: Mapping[str, str] | None = None,
    gpu_available: Callable[[], bool] | None = None,
    vllm_installed: Callable[[], bool] | None = None,
) -> BackendChoice:
    """The backend's name and why, without constructing it; the probes are injectable for tests."""
    if settings.backend != "auto":
        return BackendChoice(name=settings.backend, source="generation.backend in config or --backend")
    env = os.environ if environ is None else environ
    has_vllm = (vllm_installed or _vllm_installed)()
    if has_vllm and (gpu_available or _gpu_available)():
        return BackendChoice(name="vllm", source="auto: a GPU and vLLM are present")
    if settings.openai_base_url:
        return BackendChoice(name="openai", source="auto: generation.openai_base_url is set")
    if env.get("OPENAI_BASE_URL"):
        return BackendChoice(name="openai", source="auto: OPENAI_BASE_URL is set")
    why = "no GPU" if has_vllm else "vLLM not installed"
    return BackendChoice(name="template", source=f"auto: {why} and no server URL configured")


def get_backend(
    settings: LLMSettings,
    *,
    environ: Mapping[str, str] | None = None,
    gpu_available: Callable[[], bool] | None = None,
    vllm_installed: Callable[[], bool] | None = None,
    transport: httpx.BaseTransport | None = None,
) -> tuple[Backend | None, BackendChoice]:
    """The chosen backend, constructed (None: no model, the `template` generator), and why it was chosen.

    A backend that cannot load raises ConfigError naming the config key.
    """
    choice = choose_backend(settings, environ=environ, gpu_available=gpu_available, vllm_installed=vllm_installed)
    log.info("generation backend: %s (%s)", choice.name, choice.source)
    if choice.name == "vllm":
        from junitbot.generation.llm.backends.vllm import VLLMBackend

        return VLLMBackend(settings), choice
    if choice.name == "openai":
        from junitbot.generation.llm.backends.openai import OpenAIBackend

        return OpenAIBackend(settings, environ=environ, transport=transport), choice
    if choice.name == "transformers":
        from junitbot.generation.llm.backends.transformers_backend import TransformersBackend

        return TransformersBackend(settings), choice
    return None, choice


@contextlib.contextmanager
def open_backend(settings: LLMSettings) -> Iterator[tuple[Backend | None, BackendChoice]]:
    """`get_backend` for the length of a run: one engine (or client) for every target and round, closed when
    the run ends, however it ends; vLLM's engine processes go with it."""
    backend, choice = get_backend(settings)
    try:
        yield backend, choice
    finally:
        close = getattr(backend, "close", None)
        if callable(close):
            close()


def _vllm_installed() -> bool:
    return importlib.util.find_spec("vllm") is not None


def _gpu_available() -> bool:
    """A CUDA device torch can see; torch is imported only here, after vLLM was found."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())

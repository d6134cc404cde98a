"""Backend selection: an explicit choice wins; auto picks vllm, then openai, then template."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from junitbot.errors import ConfigError
from junitbot.generation.llm.backends import (
    LLMSettings,
    OpenAIBackend,
    TransformersBackend,
    choose_backend,
    get_backend,
)
from tests.generation.llm.doubles import ChatServer


def _yes() -> bool:
    return True


def _no() -> bool:
    return False


@pytest.mark.parametrize(("gpu", "vllm", "settings", "environ", "expected", "source"), [
    (_yes, _yes, {}, {}, "vllm", "a GPU and vLLM"),
    (_yes, _yes, {"openai_base_url": "http://h/v1"}, {}, "vllm", "a GPU and vLLM"),
    (_no, _yes, {"openai_base_url": "http://h/v1"}, {}, "openai", "generation.openai_base_url"),
    (_yes, _no, {}, {"OPENAI_BASE_URL": "http://h/v1"}, "openai", "OPENAI_BASE_URL"),
    (_no, _yes, {}, {}, "template", "no GPU"),
    (_yes, _no, {}, {"OPENAI_API_KEY": "k"}, "template", "vLLM not installed"),
    (_yes, _yes, {"backend": "template"}, {}, "template", "config"),
    (_no, _no, {"backend": "transformers"}, {}, "transformers", "config"),
])
def test_precedence(gpu: Callable[[], bool], vllm: Callable[[], bool], settings: dict[str, str],
                    environ: dict[str, str], expected: str, source: str) -> None:
    choice = choose_backend(LLMSettings.model_validate(settings), environ=environ, gpu_available=gpu,
                            vllm_installed=vllm)
    assert choice.name == expected and source in choice.source


def test_get_backend_constructs_and_logs_the_choice(chat_server: ChatServer, tiny_model: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="junitbot")
    openai, choice = get_backend(LLMSettings(), environ={"OPENAI_BASE_URL": chat_server.url}, vllm_installed=_no)
    assert isinstance(openai, OpenAIBackend) and choice.name == "openai"
    assert "generation backend: openai (auto: OPENAI_BASE_URL is set)" in caplog.text
    local, _ = get_backend(LLMSettings(backend="transformers", model=str(tiny_model), device="cpu"), environ={})
    assert isinstance(local, TransformersBackend) and local.name == "transformers"


def test_a_chosen_backend_that_cannot_load_names_the_key() -> None:
    with pytest.raises(ConfigError, match=r"generation\.openai_base_url"):
        get_backend(LLMSettings(backend="openai"), environ={})
    with pytest.raises(ConfigError, match=r"generation\.model"):
        get_backend(LLMSettings(backend="transformers", model="/no/such/model", device="cpu"), environ={})


def test_no_model_is_no_backend_with_the_reason() -> None:
    """`template` is the no-model generator, not a backend that answers with errors."""
    backend, choice = get_backend(LLMSettings(), environ={}, vllm_installed=_no)
    assert backend is None and choice.name == "template" and "vLLM not installed" in choice.source
    backend, choice = get_backend(LLMSettings(backend="template"), environ={"OPENAI_BASE_URL": "http://h/v1"})
    assert backend is None and choice.source == "generation.backend in config or --backend"

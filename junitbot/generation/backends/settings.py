"""LLMSettings: the knobs of model-backed generation (backend choice, engine, sampling, server, loop, context).

Self-contained (pydantic only) so it folds into `config.GenerationSettings`; field names are the config keys
that error messages name (`generation.<field>`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

BackendName = Literal["auto", "vllm", "openai", "transformers", "template"]


class LLMSettings(BaseModel):
    """How tests are generated with a model: which backend, which model, how it samples, how it is fed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: BackendName = Field(
        default="auto",
        description="auto: vllm with a GPU and vLLM installed, else openai when a server URL is set, else template",
    )
    model: str = Field(default="Qwen/Qwen2.5-Coder-7B-Instruct",
                       description="local model directory or model name (the served name for openai)")
    tokenizer: str | None = Field(default=None,
                                  description="local tokenizer directory for counting context tokens (default: model)")
    dtype: Literal["auto", "float16", "bfloat16", "float32"] = Field(default="auto", description="weights dtype")
    quantization: str | None = Field(default=None, description="vLLM quantization: awq, gptq, fp8, ... (None: off)")
    gpu_memory_utilization: float = Field(default=0.85, gt=0.0, le=1.0, description="share of GPU memory vLLM takes")
    max_model_len: int | None = Field(default=16384, ge=256, description="longest prompt + answer in tokens")
    enable_prefix_caching: bool = Field(default=True, description="vLLM reuses the shared system-prompt prefix")
    device: Literal["auto", "cpu", "cuda"] = Field(default="auto", description="transformers backend device")
    batch_size: int = Field(default=8, ge=1, le=256, description="prompts per transformers generate call")
    generation_timeout_s: float = Field(default=600.0, gt=0, description="wall-clock limit of one local generate call")

    temperature: float = Field(default=0.2, ge=0.0, le=2.0, description="sampling temperature (0: greedy)")
    top_p: float = Field(default=0.95, gt=0.0, le=1.0, description="nucleus sampling")
    max_tokens: int = Field(default=2048, ge=16, description="tokens one answer may have")
    n: int = Field(default=1, ge=1, le=8, description="candidates per target and round")
    seed: int | None = Field(default=0, description="sampling seed, for repeatable runs (None: random)")

    openai_base_url: str | None = Field(default=None,
                                        description="chat-completions server, e.g. http://localhost:8000/v1 "
                                                    "(else OPENAI_BASE_URL)")
    openai_api_key: SecretStr | None = Field(default=None, description="API key (else OPENAI_API_KEY); never logged")
    request_timeout_s: float = Field(default=300.0, gt=0, description="time one HTTP answer may take")
    connect_timeout_s: float = Field(default=10.0, gt=0, description="time to open a connection")
    concurrency: int = Field(default=8, ge=1, le=256, description="HTTP requests in flight at once")
    retries: int = Field(default=3, ge=0, le=10, description="retries on 429, 5xx and connection errors")
    backoff_s: float = Field(default=1.0, ge=0.0, description="first retry delay; doubles per retry")
    max_backoff_s: float = Field(default=30.0, ge=0.0, description="longest retry delay, Retry-After included")
    max_response_bytes: int = Field(default=2_000_000, ge=1024, description="larger HTTP answers are refused")

    repair_rounds: int = Field(default=2, ge=0, le=5, description="repair rounds for candidates that fail validation")
    context_tokens: int = Field(default=6000, ge=256, description="token budget of the code context in a prompt")
    similar_tests: int = Field(default=2, ge=0, le=10, description="existing tests shown as style examples")
    use_skeleton: bool = Field(default=True,
                               description="the model writes test methods into the no-model generator's class shell")
    max_answer_bytes: int = Field(default=200_000, ge=1024, description="longer model answers are rejected")

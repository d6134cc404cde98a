"""The `openai` backend: any OpenAI-compatible chat-completions server over httpx, requests in parallel.

Bounded concurrency (threads over one `httpx.Client`, so it works inside or outside an event loop), a
per-request timeout, retries with exponential backoff on 429, 5xx and connection errors (honouring
Retry-After), and an answer-size cap. A server that answers one request at a time (llama.cpp's with one slot,
a small model on a CPU) queues the rest, and a queued request would time out without the server being at fault
(issue 17: most of a batch did). So a request's timeout grows with the requests sent beside it: with k in
flight at once it is `request_timeout_s × k`, the time a one-slot server needs to reach the last of them (it
serves them in its own order, not the order they were sent), while a lone request that hangs still fails after
`request_timeout_s`. A timed-out request is not sent again: a server keeps working
on an abandoned request, and a second copy would only queue behind it.

The server and key come from config, else from the standard
`OPENAI_BASE_URL` / `OPENAI_API_KEY` variables. The key is sent, never logged nor put in an error.
"""

from __future__ import annotations

import email.utils
import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from junitbot.errors import ConfigError
from junitbot.generation.llm.backends.base import GenerationRequest, GenerationResponse
from junitbot.generation.llm.backends.settings import LLMSettings

log = logging.getLogger(__name__)

_OFFICIAL = "https://api.openai.com/v1"
_RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class _Wire(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _Message(_Wire):
    content: str | None = None


class _Choice(_Wire):
    index: int = 0
    message: _Message
    finish_reason: str | None = None


class _Usage(_Wire):
    prompt_tokens: int = 0
    completion_tokens: int = 0


class _ServedModel(_Wire):
    id: str = ""
    max_model_len: int | None = None  # vLLM says it here


class _Models(_Wire):
    data: list[_ServedModel] = []


class _Props(_Wire):  # llama.cpp's own server: GET /props
    n_ctx: int | None = None
    default_generation_settings: dict[str, Any] = {}


class _Completion(_Wire):
    choices: list[_Choice]
    usage: _Usage | None = None


class _Retry(Exception):
    """A failure worth another try, after `delay` seconds at least."""

    def __init__(self, reason: str, delay: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay = delay


def server_from(settings: LLMSettings, environ: Mapping[str, str]) -> tuple[str, str | None]:
    """(base URL, API key): config first, then OPENAI_BASE_URL / OPENAI_API_KEY; the official API with a key only.

    Raises ConfigError naming `generation.openai_base_url` when no server is known.
    """
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else environ.get("OPENAI_API_KEY")
    base = settings.openai_base_url or environ.get("OPENAI_BASE_URL") or (_OFFICIAL if key else None)
    if not base:
        raise ConfigError("the openai backend needs a server: set generation.openai_base_url in .junitbot.yml "
                          "or the OPENAI_BASE_URL environment variable (e.g. http://localhost:8000/v1)")
    return base.rstrip("/"), key or None


class OpenAIBackend:
    """Chat completions against an OpenAI-compatible server; `transport` or `client` inject the wire."""

    name = "openai"

    def __init__(
        self,
        settings: LLMSettings,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.base_url, self._key = server_from(settings, os.environ if environ is None else environ)
        timeout = httpx.Timeout(settings.request_timeout_s, connect=settings.connect_timeout_s)
        self._client = client or httpx.Client(transport=transport, timeout=timeout)
        self._owns_client = client is None
        self._sleep = sleep
        log.info("openai backend: server %s, model %s", httpx.URL(self.base_url).host, settings.model)

    @property
    def model(self) -> str:
        return self.settings.model

    def close(self) -> None:
        """Close the HTTP client when this backend made it."""
        if self._owns_client:
            self._client.close()

    def context_length(self) -> int | None:
        """The served model's context window in tokens, where the server says it (vLLM's `/models`, llama.cpp's
        `/props`); None when it does not (then `max_model_len` from config is all there is)."""
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        root = self.base_url.removesuffix("/v1")
        for url, read in ((f"{self.base_url}/models", _models_length), (f"{root}/props", _props_length)):
            try:
                response = self._client.get(url, headers=headers, timeout=self.settings.connect_timeout_s)
                length = read(response.content) if response.status_code == 200 else None
            except (httpx.HTTPError, ValidationError, ValueError):
                length = None
            if length:
                return length
        return None

    def generate(self, requests: Sequence[GenerationRequest]) -> list[GenerationResponse]:
        """All requests at once, at most `concurrency` in flight; answers in request order."""
        if not requests:
            return []
        workers = min(self.settings.concurrency, len(requests))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="junitbot-openai") as pool:
            return list(pool.map(lambda request: self._complete(request, workers), requests))

    def _complete(self, request: GenerationRequest, in_flight: int) -> GenerationResponse:
        started = time.perf_counter()
        attempts = self.settings.retries + 1
        for attempt in range(attempts):
            try:
                return self._once(request, started, self._timeout(in_flight))
            except _Retry as retry:
                if attempt + 1 == attempts:
                    return self._failure(request, f"{retry.reason} (gave up after {attempts} attempts)", started)
                delay = min(max(retry.delay, self.settings.backoff_s * 2 ** attempt), self.settings.max_backoff_s)
                log.info("request %s: %s; retry %d in %.1fs", request.id, retry.reason, attempt + 1, delay)
            except httpx.TimeoutException:
                waited = self.settings.request_timeout_s * in_flight
                return self._failure(request, f"timed out after {waited:g}s ({in_flight} requests in flight)",
                                     started)
            except httpx.HTTPError as e:
                return self._failure(request, f"HTTP error: {type(e).__name__}: {e}", started)
            self._sleep(delay)
        raise AssertionError("unreachable: the last attempt returns")  # pragma: no cover

    def _timeout(self, in_flight: int) -> httpx.Timeout:
        """The read timeout for a request sent with `in_flight` at once (itself included): the time a one-slot
        server needs to reach the last of them."""
        return httpx.Timeout(self.settings.request_timeout_s * in_flight, connect=self.settings.connect_timeout_s)

    def _once(self, request: GenerationRequest, started: float, timeout: httpx.Timeout) -> GenerationResponse:
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        try:
            with self._client.stream("POST", f"{self.base_url}/chat/completions", json=_body(request, self.model),
                                     headers=headers, timeout=timeout) as response:
                if response.status_code in _RETRY_STATUS:
                    raise _Retry(f"HTTP {response.status_code}", _retry_after(response.headers.get("Retry-After")))
                body = self._read(response)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError) as e:
            raise _Retry(f"connection failed: {type(e).__name__}") from e
        if body is None:
            return self._failure(request, f"answer larger than {self.settings.max_response_bytes} bytes", started)
        if response.status_code != 200:
            snippet = body[:300].decode("utf-8", "replace")
            return self._failure(request, f"HTTP {response.status_code}: {snippet}", started)
        try:
            completion = _Completion.model_validate_json(body)
        except ValidationError as e:
            return self._failure(request, f"not a chat-completions answer: {e.error_count()} problems", started)
        choices = sorted(completion.choices, key=lambda c: c.index)
        usage = completion.usage or _Usage()
        return GenerationResponse(
            id=request.id, texts=tuple(c.message.content or "" for c in choices), tokens_in=usage.prompt_tokens,
            tokens_out=usage.completion_tokens, seconds=round(time.perf_counter() - started, 4),
            finish_reason=choices[0].finish_reason if choices else None,
            error=None if choices else "the server answered with no choices")

    def _read(self, response: httpx.Response) -> bytes | None:
        """The body, or None once it grows past the size cap (the rest is not read)."""
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > self.settings.max_response_bytes:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    def _failure(self, request: GenerationRequest, reason: str, started: float) -> GenerationResponse:
        if self._key:
            reason = reason.replace(self._key, "***")
        log.warning("request %s failed: %s", request.id, reason)
        return GenerationResponse.failure(request.id, reason, seconds=time.perf_counter() - started)


def _models_length(body: bytes) -> int | None:
    return next((m.max_model_len for m in _Models.model_validate_json(body).data if m.max_model_len), None)


def _props_length(body: bytes) -> int | None:
    props = _Props.model_validate_json(body)
    length = props.n_ctx or props.default_generation_settings.get("n_ctx")
    return int(length) if isinstance(length, int) else None


def _body(request: GenerationRequest, model: str) -> dict[str, Any]:
    messages = [m.model_dump() for m in request.messages] or [{"role": "user", "content": request.prompt}]
    body: dict[str, Any] = {"model": model, "messages": messages, "max_tokens": request.max_tokens,
                            "temperature": request.temperature, "top_p": request.top_p, "n": request.n}
    if request.stop:
        body["stop"] = list(request.stop)
    if request.seed is not None:
        body["seed"] = request.seed
    return body


def _retry_after(value: str | None) -> float:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date); 0 when absent or unreadable."""
    if not value:
        return 0.0
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return 0.0
    return max(0.0, when.timestamp() - time.time())

"""Doubles of the engines at the backend boundary: an OpenAI-compatible HTTP server and vLLM's `LLM`.

The server is stdlib `http.server` on 127.0.0.1 in a thread, answering `/v1/chat/completions` with the
real response JSON (choices / message / usage), scripted per request. The vLLM double returns objects
of `LLM.generate`'s shape: `RequestOutput(request_id, prompt, prompt_token_ids, outputs, finished)` with
`CompletionOutput(index, text, token_ids, finish_reason)`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer: status, JSON body (or raw bytes), headers and a delay before answering."""

    status: int = 200
    body: dict[str, Any] | bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def completion(*texts: str, prompt_tokens: int = 11, completion_tokens: int = 7,
               finish_reason: str = "stop") -> dict[str, Any]:
    """A chat-completions response body as OpenAI and vLLM serve it."""
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1_700_000_000, "model": "served-model",
        "choices": [{"index": i, "message": {"role": "assistant", "content": text}, "logprobs": None,
                     "finish_reason": finish_reason} for i, text in enumerate(texts)],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


Script = Callable[[dict[str, Any], int], Reply]


class ChatServer:
    """A scripted chat-completions server; `script(body, attempt_for_this_key)` decides each reply.

    Requests are keyed by their last user message, so a script can answer the n-th try of one prompt
    differently (429 then success). `requests` records bodies and headers; `peak` the most in flight.
    """

    def __init__(self) -> None:
        self.script: Script = lambda body, attempt: Reply(body=completion("ok"))
        self.requests: list[tuple[dict[str, Any], dict[str, str]]] = []
        self.attempts: dict[str, int] = {}
        self.in_flight = 0
        self.peak = 0
        self.info: dict[str, Any] = {}  # GET path -> JSON body (e.g. "/v1/models")
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> ChatServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reset(self, script: Script) -> None:
        """A new script, once the requests of the last one are done (a timed-out client leaves them running)."""
        deadline = time.monotonic() + 10
        while self.in_flight and time.monotonic() < deadline:
            time.sleep(0.02)
        with self._lock:
            self.script = script
            self.info = {}
            self.requests.clear()
            self.attempts.clear()
            self.peak = 0

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # GET /v1/models (vLLM's shape) and /props (llama.cpp's), when scripted
                body = server.info.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                if self.path != "/v1/chat/completions":
                    self.send_error(404)
                    return
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                key = next((m["content"] for m in reversed(body["messages"]) if m["role"] == "user"), "")
                with server._lock:
                    server.requests.append((body, dict(self.headers.items())))
                    attempt = server.attempts[key] = server.attempts.get(key, 0) + 1
                    server.in_flight += 1
                    server.peak = max(server.peak, server.in_flight)
                done = False
                try:
                    reply = server.script(body, attempt)
                    if reply.delay:
                        time.sleep(reply.delay)
                    # Out of flight before the answer leaves: the client may send its next request the moment
                    # this one's answer arrives, before this thread gets scheduled again.
                    with server._lock:
                        server.in_flight -= 1
                        done = True
                    data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body or {}).encode()
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and went away
                finally:
                    if not done:
                        with server._lock:
                            server.in_flight -= 1

        return Handler


# -- vLLM ---------------------------------------------------------------------------------------------------


@dataclass
class CompletionOutput:
    """vllm.outputs.CompletionOutput's fields that callers read."""

    index: int
    text: str
    token_ids: list[int]
    cumulative_logprob: float | None = None
    logprobs: None = None
    finish_reason: str | None = "stop"


@dataclass
class RequestOutput:
    """vllm.outputs.RequestOutput's fields that callers read."""

    request_id: str
    prompt: str
    prompt_token_ids: list[int]
    outputs: list[CompletionOutput]
    finished: bool = True
    prompt_logprobs: None = None


@dataclass(frozen=True)
class SamplingParams:
    """The vllm.SamplingParams keywords the backend passes."""

    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    max_tokens: int | None = 16
    stop: list[str] | None = None
    seed: int | None = None
    repetition_penalty: float = 1.0
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    top_k: int = 0
    min_p: float = 0.0


class ModelConfig:
    """`vllm.LLM.model_config` as far as the backend reads it: the model's generation config, as vLLM's
    `get_diff_sampling_param` gives it (what it sets, `max_new_tokens` as `max_tokens`)."""

    def __init__(self, generation: dict[str, Any]) -> None:
        self.generation = generation

    def get_diff_sampling_param(self) -> dict[str, Any]:
        return dict(self.generation)


class FakeLLM:
    """`vllm.LLM` as far as the backend sees it; `answer(prompt, params)` scripts each completion text."""

    def __init__(self, answer: Callable[[str, SamplingParams], Sequence[str]], *, tokenizer: Any = None,
                 fail_when: Callable[[Sequence[str]], bool] = lambda prompts: False,
                 generation: dict[str, Any] | None = None) -> None:
        self.answer = answer
        if generation is not None:
            self.model_config = ModelConfig(generation)
        self.tokenizer = tokenizer
        self.fail_when = fail_when
        self.calls: list[list[str]] = []

    def get_tokenizer(self) -> Any:
        return self.tokenizer

    def generate(self, prompts: Sequence[str], sampling_params: Any = None, *, use_tqdm: bool = True,
                 **_: Any) -> list[RequestOutput]:
        params = sampling_params if isinstance(sampling_params, list) else [sampling_params] * len(prompts)
        self.calls.append(list(prompts))
        if self.fail_when(prompts):
            raise ValueError("The decoder prompt is longer than the maximum model length")
        outputs = []
        for number, (prompt, param) in enumerate(zip(prompts, params, strict=True)):
            texts = list(self.answer(prompt, param))[: param.n]
            outputs.append(RequestOutput(
                request_id=str(number), prompt=prompt, prompt_token_ids=list(range(len(prompt.split()))),
                outputs=[CompletionOutput(index=i, text=t, token_ids=list(range(len(t.split()) + 1)))
                         for i, t in enumerate(texts)]))
        return outputs


def serve() -> Iterator[ChatServer]:
    server = ChatServer().start()
    try:
        yield server
    finally:
        server.stop()

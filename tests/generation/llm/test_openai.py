"""The openai backend against a local OpenAI-compatible server: answers, retries, timeouts, caps, secrets."""

from __future__ import annotations

import logging
import socket
import threading
import time

import pytest

from junitbot.errors import ConfigError
from junitbot.generation.generate import PROMPT_OVERHEAD_TOKENS, context_budget
from junitbot.generation.llm.backends import ChatMessage, GenerationRequest, LLMSettings, OpenAIBackend
from tests.generation.llm.conftest import GOOD_METHODS, PROSE
from tests.generation.llm.doubles import ChatServer, Reply, completion

KEY = "sk-test-0123456789secret"


def _request(name: str, **options: object) -> GenerationRequest:
    return GenerationRequest(id=name, messages=(ChatMessage(role="system", content="rules"),
                                                ChatMessage(role="user", content=f"write tests for {name}")),
                             **options)


def _backend(server: ChatServer, delays: list[float] | None = None, **settings: object) -> OpenAIBackend:
    chosen = LLMSettings.model_validate({"request_timeout_s": 5.0, "backoff_s": 0.5, "model": "served-model",
                                         **settings})
    sleep = delays.append if delays is not None else (lambda seconds: None)
    return OpenAIBackend(chosen, environ={"OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": KEY}, sleep=sleep)


def test_a_batch_comes_back_in_order_with_token_counts(chat_server: ChatServer) -> None:
    answers = {"write tests for a": GOOD_METHODS, "write tests for b": PROSE}
    chat_server.reset(lambda body, attempt: Reply(body=completion(answers[body["messages"][-1]["content"]],
                                                                  prompt_tokens=120, completion_tokens=80)))
    responses = _backend(chat_server).generate([_request("a", temperature=0.0, max_tokens=300), _request("b")])
    assert [r.id for r in responses] == ["a", "b"]
    assert responses[0].texts == (GOOD_METHODS,) and responses[1].texts == (PROSE,)
    assert (responses[0].tokens_in, responses[0].tokens_out, responses[0].finish_reason) == (120, 80, "stop")
    body, headers = next(r for r in chat_server.requests if r[0]["messages"][-1]["content"].endswith(" a"))
    assert body["model"] == "served-model" and body["max_tokens"] == 300 and body["temperature"] == 0.0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert headers["Authorization"] == f"Bearer {KEY}"


def test_n_candidates_come_back_as_texts(chat_server: ChatServer) -> None:
    chat_server.reset(lambda body, attempt: Reply(body=completion(*(f"answer {i}" for i in range(body["n"])))))
    [response] = _backend(chat_server).generate([_request("a", n=3)])
    assert response.texts == ("answer 0", "answer 1", "answer 2")


@pytest.mark.parametrize("status", [429, 500, 503])
def test_busy_and_failing_servers_are_retried_with_backoff(chat_server: ChatServer, status: int) -> None:
    chat_server.reset(lambda body, attempt: Reply(status=status, body={"error": {"message": "busy"}})
                      if attempt < 3 else Reply(body=completion("fine")))
    delays: list[float] = []
    [response] = _backend(chat_server, delays).generate([_request("a")])
    assert response.ok and response.texts == ("fine",)
    assert delays == [0.5, 1.0]  # exponential: backoff_s, then twice that


def test_retry_after_is_honoured_and_capped(chat_server: ChatServer) -> None:
    chat_server.reset(lambda body, attempt: Reply(status=429, headers={"Retry-After": "7"})
                      if attempt == 1 else Reply(body=completion("fine")))
    delays: list[float] = []
    [response] = _backend(chat_server, delays).generate([_request("a")])
    assert response.ok and delays == [7.0]
    chat_server.reset(lambda body, attempt: Reply(status=429, headers={"Retry-After": "3600"})
                      if attempt == 1 else Reply(body=completion("fine")))
    delays.clear()
    _backend(chat_server, delays, max_backoff_s=20.0).generate([_request("a")])
    assert delays == [20.0]


def test_retries_run_out_into_an_error_response(chat_server: ChatServer) -> None:
    chat_server.reset(lambda body, attempt: Reply(status=500, body={"error": "down"}))
    [response] = _backend(chat_server, [], retries=2).generate([_request("a")])
    assert not response.ok and "HTTP 500" in (response.error or "") and "3 attempts" in (response.error or "")
    assert len(chat_server.requests) == 3


def test_a_hanging_server_times_out_and_the_others_still_answer(chat_server: ChatServer) -> None:
    chat_server.reset(lambda body, attempt: Reply(body=completion("late"), delay=1.0)
                      if body["messages"][-1]["content"].endswith("slow") else Reply(body=completion("fast")))
    started = time.perf_counter()
    slow, fast = _backend(chat_server, request_timeout_s=0.3).generate([_request("slow"), _request("fast")])
    assert time.perf_counter() - started < 0.95
    assert not slow.ok and "timed out" in (slow.error or "")
    assert fast.ok and fast.texts == ("fast",)


def test_a_server_that_answers_one_request_at_a_time_is_not_timed_out(chat_server: ChatServer) -> None:
    # Issue 17: llama.cpp with one slot queues a batch; each answer takes 0.6 s, so the last request served waits
    # 2.4 s, twice the timeout of one request alone (1.2 s, which a lone answer meets even on a loaded CPU). The
    # server picks the order: whichever request was sent second may be served last (it once timed out so).
    one_slot = threading.Lock()

    def serial(body: dict[str, object], attempt: int) -> Reply:
        with one_slot:
            time.sleep(0.6)
        return Reply(body=completion("ok"))

    chat_server.reset(serial)
    responses = _backend(chat_server, request_timeout_s=1.2, concurrency=4).generate(
        [_request(f"t{i}") for i in range(4)])
    assert [r.ok for r in responses] == [True] * 4, [r.error for r in responses]
    assert chat_server.peak == 4 and len(chat_server.requests) == 4  # all sent at once, none sent twice


def test_an_enormous_answer_is_refused_without_reading_it_all(chat_server: ChatServer) -> None:
    huge = "x" * 3_000_000
    chat_server.reset(lambda body, attempt: Reply(body=completion(huge)))
    [response] = _backend(chat_server, max_response_bytes=1_000_000).generate([_request("a")])
    assert not response.ok and "larger than 1000000 bytes" in (response.error or "")


def test_concurrency_is_bounded(chat_server: ChatServer) -> None:
    chat_server.reset(lambda body, attempt: Reply(body=completion("ok"), delay=0.1))
    responses = _backend(chat_server, concurrency=3).generate([_request(f"t{i}") for i in range(9)])
    assert all(r.ok for r in responses)
    assert 1 < chat_server.peak <= 3


def test_the_api_key_never_reaches_errors_or_logs(chat_server: ChatServer, caplog: pytest.LogCaptureFixture) -> None:
    chat_server.reset(lambda body, attempt: Reply(status=401, body={"error": f"invalid key {KEY}"}))
    caplog.set_level(logging.DEBUG)
    [response] = _backend(chat_server).generate([_request("a")])
    assert not response.ok and "HTTP 401" in (response.error or "")
    assert KEY not in (response.error or "") and KEY not in caplog.text
    assert KEY not in repr(LLMSettings.model_validate({"openai_api_key": KEY}))


def test_a_server_that_answers_garbage_is_an_error_not_a_crash(chat_server: ChatServer) -> None:
    chat_server.reset(lambda body, attempt: Reply(body=b"<html>gateway</html>"))
    [response] = _backend(chat_server).generate([_request("a")])
    assert not response.ok and "not a chat-completions answer" in (response.error or "")


def test_connection_errors_are_retried_then_reported() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens there
    settings = LLMSettings(openai_base_url=f"http://127.0.0.1:{port}/v1", retries=1, backoff_s=0.0)
    [response] = OpenAIBackend(settings, environ={}, sleep=lambda s: None).generate([_request("a")])
    assert not response.ok and "connection failed" in (response.error or "")


def test_config_wins_over_the_environment_and_a_missing_server_names_the_key(chat_server: ChatServer) -> None:
    settings = LLMSettings(openai_base_url=chat_server.url)
    assert OpenAIBackend(settings, environ={"OPENAI_BASE_URL": "http://elsewhere/v1"}).base_url == chat_server.url
    assert OpenAIBackend(LLMSettings(), environ={"OPENAI_API_KEY": KEY}).base_url == "https://api.openai.com/v1"
    with pytest.raises(ConfigError, match=r"generation\.openai_base_url"):
        OpenAIBackend(LLMSettings(), environ={})


def test_a_prompt_request_is_sent_as_one_user_turn(chat_server: ChatServer) -> None:
    chat_server.reset(lambda body, attempt: Reply(body=completion("ok")))
    [response] = _backend(chat_server).generate([GenerationRequest(id="p", prompt="complete this", stop=("```",))])
    body = chat_server.requests[0][0]
    assert response.ok and body["messages"] == [{"role": "user", "content": "complete this"}]
    assert body["stop"] == ["```"]


def test_the_context_budget_fits_the_window_the_server_says(chat_server: ChatServer) -> None:
    # Issue 17: a small model served with an 8k window got 6,000 tokens of context and a 2,048-token answer.
    settings = {"context_tokens": 6000, "max_tokens": 2048}
    chat_server.reset(lambda body, attempt: Reply(body=completion("ok")))
    chat_server.info = {"/v1/models": {"object": "list", "data": [{"id": "served-model", "max_model_len": 8192}]}}
    vllm_like = _backend(chat_server, **settings)
    assert vllm_like.context_length() == 8192
    assert context_budget(vllm_like.settings, vllm_like) == 8192 - 2048 - PROMPT_OVERHEAD_TOKENS
    chat_server.info = {"/props": {"default_generation_settings": {"n_ctx": 4096}}}  # llama.cpp's own server
    assert context_budget(vllm_like.settings, vllm_like) == 256  # no room: the floor, the prompt says little
    chat_server.info = {}  # says nothing (llama-cpp-python): max_model_len from config
    silent = _backend(chat_server, max_model_len=8192, **settings)
    assert silent.context_length() is None
    assert context_budget(silent.settings, silent) == 8192 - 2048 - PROMPT_OVERHEAD_TOKENS
    roomy = _backend(chat_server, max_model_len=32768, **settings)
    assert context_budget(roomy.settings, roomy) == 6000

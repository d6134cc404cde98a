"""The transformers backend for real on CPU with a tiny random model: batches, limits, garbage handled."""

from __future__ import annotations

from pathlib import Path

import pytest

from junitbot.errors import ConfigError
from junitbot.generation.llm.answer import extract_java
from junitbot.generation.llm.backends import ChatMessage, GenerationRequest, LLMSettings, TransformersBackend


def _chat(name: str, text: str, **options: object) -> GenerationRequest:
    return GenerationRequest(id=name, messages=(ChatMessage(role="system", content="Write JUnit 5 tests."),
                                                ChatMessage(role="user", content=text)),
                             **options)


@pytest.fixture(scope="module")
def backend(tiny_model: Path) -> TransformersBackend:
    return TransformersBackend(LLMSettings(model=str(tiny_model), device="cpu", batch_size=4))


def test_a_batch_generates_with_token_counts_and_garbage_is_a_failed_attempt(backend: TransformersBackend) -> None:
    requests = [_chat("short", "class A {}", max_tokens=24, temperature=0.0),
                _chat("long", "public class Money { private final BigDecimal amount; }" * 3, max_tokens=24,
                      temperature=0.0),
                _chat("sampled", "class B {}", max_tokens=16, temperature=0.8, n=2, seed=1)]
    responses = backend.generate(requests)
    assert [r.id for r in responses] == ["short", "long", "sampled"]
    assert all(r.ok for r in responses)
    assert responses[1].tokens_in > responses[0].tokens_in > 0
    assert 0 < responses[0].tokens_out <= 24 and len(responses[2].texts) == 2
    for response in responses:
        for text in response.texts:
            extraction = extract_java(text, expected_package="com.acme.shop.domain")
            assert not extraction.ok and extraction.reason


def test_greedy_batched_output_equals_one_at_a_time(backend: TransformersBackend) -> None:
    requests = [_chat(f"r{i}", f"class C{i} {{ int x = {i}; }}" * (i + 1), max_tokens=12, temperature=0.0)
                for i in range(3)]
    batched = [r.texts for r in backend.generate(requests)]
    single = [backend.generate([r])[0].texts for r in requests]
    assert batched == single  # left padding with an attention mask changes nothing


def test_a_prompt_past_the_position_limit_fails_alone(tiny_model: Path) -> None:
    limited = TransformersBackend(LLMSettings(model=str(tiny_model), device="cpu", max_model_len=256))
    fits, too_long = limited.generate([_chat("fits", "class A {}", max_tokens=8),
                                       _chat("too-long", "class A { int x; }" * 200, max_tokens=8)])
    assert fits.ok and not too_long.ok and "exceeds the model's 256 positions" in (too_long.error or "")


def test_the_wall_clock_limit_stops_generation(tiny_model: Path) -> None:
    slow = TransformersBackend(LLMSettings(model=str(tiny_model), device="cpu", generation_timeout_s=0.05,
                                           batch_size=1))
    responses = slow.generate([_chat(f"r{i}", "class A {}", max_tokens=2000, temperature=0.0) for i in range(3)])
    assert responses[0].finish_reason in ("timeout", "stop")
    assert any("timed out" in (r.error or "") for r in responses[1:])


def test_a_missing_model_names_the_config_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"generation\.model"):
        TransformersBackend(LLMSettings(model=str(tmp_path / "nowhere"), device="cpu"))

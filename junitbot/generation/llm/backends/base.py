"""The backend boundary: a batch of generation requests in, one response per request out (pure records).

A backend never raises for one bad request: the request's response carries the error instead, so one
prompt that is too long, times out or is refused never costs the rest of the batch.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Literal, Protocol, Self, runtime_checkable

from pydantic import Field, model_validator

from junitbot.records import Record

log = logging.getLogger(__name__)

Role = Literal["system", "user", "assistant"]


class ChatMessage(Record):
    """One chat turn; backends with a tokenizer render turns through its chat template."""

    role: Role
    content: str


class GenerationRequest(Record):
    """One prompt: chat `messages` or a ready `prompt` string (exactly one), with its sampling knobs."""

    id: str
    messages: tuple[ChatMessage, ...] = ()
    prompt: str | None = None
    max_tokens: int = Field(default=1024, ge=1)
    temperature: float = Field(default=0.2, ge=0.0, le=2.0)
    top_p: float = Field(default=0.95, gt=0.0, le=1.0)
    n: int = Field(default=1, ge=1, le=16, description="candidates wanted for this prompt")
    stop: tuple[str, ...] = ()
    seed: int | None = None

    @model_validator(mode="after")
    def _one_input(self) -> Self:
        if bool(self.messages) == (self.prompt is not None):
            raise ValueError("a generation request needs either messages or a prompt, not both")
        return self


class GenerationResponse(Record):
    """What one request produced: `n` texts (none on error), token counts and the seconds it took."""

    id: str
    texts: tuple[str, ...] = ()
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    finish_reason: str | None = Field(default=None, description="stop, length, timeout, ... as the engine says")
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and bool(self.texts)

    @classmethod
    def failure(cls, request_id: str, error: str, *, seconds: float = 0.0, tokens_in: int = 0) -> GenerationResponse:
        """A response that carries why the request produced nothing."""
        return cls(id=request_id, error=error, seconds=round(seconds, 4), tokens_in=tokens_in, finish_reason="error")


@runtime_checkable
class Backend(Protocol):
    """A text generator, batch first: all the prompts of a round go in one call."""

    @property
    def name(self) -> str:
        """`vllm`, `openai`, `transformers` or `template`."""
        ...

    @property
    def model(self) -> str:
        """The model it generates with, as configured (a path or a name)."""
        ...

    def generate(self, requests: Sequence[GenerationRequest]) -> list[GenerationResponse]:
        """One response per request, in request order; a failed request becomes a response with an error."""
        ...


@runtime_checkable
class SaysContextLength(Protocol):
    """A backend that can ask its engine or server for the model's context window."""

    def context_length(self) -> int | None:
        """Tokens of prompt and answer together; None when the engine does not say."""
        ...


class ChatTokenizer(Protocol):
    """The part of a Hugging Face tokenizer that renders chat turns."""

    chat_template: str | None

    def apply_chat_template(self, conversation: list[dict[str, str]], *, tokenize: bool,
                            add_generation_prompt: bool) -> object: ...


def render_chat(messages: Sequence[ChatMessage], tokenizer: ChatTokenizer | None) -> str:
    """The prompt text of a conversation: the tokenizer's chat template, or a plain role-tagged layout."""
    turns = [{"role": m.role, "content": m.content} for m in messages]
    if tokenizer is not None and getattr(tokenizer, "chat_template", None):
        rendered = tokenizer.apply_chat_template(turns, tokenize=False, add_generation_prompt=True)
        return str(rendered)
    # A base model has no template; this layout is what such models most often saw.
    return "".join(f"### {m.role.title()}\n{m.content}\n\n" for m in messages) + "### Assistant\n"


def prompt_text(request: GenerationRequest, tokenizer: ChatTokenizer | None) -> str:
    """The request as one prompt string for engines that take text."""
    return request.prompt if request.prompt is not None else render_chat(request.messages, tokenizer)


def one_by_one(
    requests: Sequence[GenerationRequest], generate_one: Callable[[GenerationRequest], GenerationResponse]
) -> list[GenerationResponse]:
    """Run requests singly, turning any exception of one into its error response.

    The fallback after a batched call failed as a whole: the bad request is found, the others still answer.
    """
    responses = []
    for request in requests:
        started = time.perf_counter()
        try:
            responses.append(generate_one(request))
        except Exception as e:  # an engine may raise anything; one request's failure is a value
            log.warning("request %s failed: %s", request.id, type(e).__name__)
            responses.append(GenerationResponse.failure(request.id, f"{type(e).__name__}: {e}"[:500],
                                                        seconds=time.perf_counter() - started))
    return responses

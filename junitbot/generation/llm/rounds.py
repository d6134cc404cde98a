"""What the model loop's rounds share: its context, each target's state, the record of its attempts and outcome."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import jinja2

from junitbot.analysis import ClassInfo
from junitbot.generation.llm.backends.base import Backend, GenerationResponse
from junitbot.generation.llm.backends.settings import LLMSettings
from junitbot.generation.llm.context import ContextBuilder, TargetContext
from junitbot.generation.llm.transcripts import Transcripts
from junitbot.generation.models import AttemptStatus, RoundRecord, TargetOutcome, TestShell
from junitbot.records import Record
from junitbot.validation import Severity, TestCandidate, Verdict

Validate = Callable[[Sequence[TestCandidate]], Sequence[Verdict]]
_ADDS_NOTHING = "adds no "  # validation's reason for a passing method that adds nothing (selection.NOTHING_NEW)


class LoopTarget(Record):
    """A class to test with the model: its FQN, the test file's repo-relative path and the skeleton, if any.

    `header` opens a class the model writes without the skeleton (the skeleton has it already): the
    licence header and junitbot's marker.
    """

    fqn: str
    path: str
    shell: TestShell | None = None
    header: str = ""
    instructions: str | None = None  # a maintainer's guidance (`/junitbot regenerate Foo -- ...`), quoted as data


@dataclass(frozen=True)
class LoopContext:
    """What every round of the model loop uses, built once per run: the backend, the context builder, the prompt
    templates, the validator (`validate(candidates) -> verdicts`: the real one, or a double), the model settings, and
    where each prompt and answer is kept."""

    backend: Backend
    builder: ContextBuilder
    env: jinja2.Environment
    validate: Validate
    settings: LLMSettings
    transcripts: Transcripts = field(default_factory=lambda: Transcripts(None))


@dataclass(frozen=True)
class TargetState:
    """One target on its way through the rounds: its context, its attempts, its latest candidate and verdict; each
    step of the loop returns it updated."""

    target: LoopTarget
    context: TargetContext
    subject: ClassInfo
    skeleton: str | None
    history: tuple[RoundRecord, ...] = ()
    candidate: TestCandidate | None = None
    answer: str = ""
    failure: str | None = None
    problems: tuple[str, ...] = ()
    verdict: Verdict | None = None
    done: bool = False
    stalled: bool = False  # the last repair round repeated the round before's errors: asking again is no use
    best: tuple[TestCandidate, Verdict] | None = None  # the compiled candidate that ran the most tests, kept or not

    def attempted(self, record: RoundRecord) -> TargetState:
        """The state with one more attempt recorded."""
        return replace(self, history=(*self.history, record))

    def with_last(self, update: Mapping[str, object]) -> TargetState:
        """The state with its last attempt's record updated."""
        return replace(self, history=(*self.history[:-1], self.history[-1].model_copy(update=dict(update))))


def attempt(state: TargetState, response: GenerationResponse, status: AttemptStatus, *,
            problems: tuple[str, ...] = (), notes: tuple[str, ...] = ()) -> RoundRecord:
    """The record of the target's next attempt: its status, the response's tokens and time, problems and notes."""
    return RoundRecord(round=len(state.history), status=status, tokens_in=response.tokens_in,
                       tokens_out=response.tokens_out, seconds=response.seconds, problems=problems, notes=notes)


def figures(verdict: Verdict | None) -> dict[str, object]:
    """How far a candidate got: compiled, test methods, how many passed, how many were kept."""
    if verdict is None:
        return {}
    passed = sum(1 for m in verdict.methods if m.kept or (m.reason or "").startswith(_ADDS_NOTHING))
    return {"compiled": verdict.compiled, "methods": len(verdict.methods), "passed": passed if verdict.compiled else 0,
            "kept": sum(1 for m in verdict.methods if m.kept)}


def close_round(state: TargetState, problems: tuple[str, ...], *,
                status: AttemptStatus | None = None) -> TargetState:
    """The state with the round's problems (and what the round fixed) recorded on its last attempt."""
    fixed = tuple(p for p in state.problems if p not in problems)
    closed = state.with_last({"problems": problems, "fixed": fixed, "status": status or state.history[-1].status})
    return replace(closed, problems=problems)


def verdict_problems(verdict: Verdict | None) -> tuple[str, ...]:
    """What failed, as stable keys a later round can be compared against."""
    if verdict is None:
        return ("no verdict from validation",)
    keys = [f"{i.pass_name}/{i.category}{f' in {i.method}' if i.method else ''}" for i in verdict.issues
            if i.severity is Severity.ERROR]
    if verdict.compiled:  # before that a method's reason is the class's ("does not compile")
        keys += [f"test {m.name} failed" for m in verdict.methods if not m.kept]
    return tuple(dict.fromkeys(keys)) or ("not kept",)


def remember(state: TargetState, candidate: TestCandidate, verdict: Verdict | None) -> TargetState:
    """The state keeping the compiled candidate that ran the most tests: the one whose failing expectations can be
    corrected."""
    if verdict is not None and verdict.compiled and (state.best is None
                                                     or len(verdict.methods) > len(state.best[1].methods)):
        return replace(state, best=(candidate, verdict))
    return state


def outcome(state: TargetState, backend: Backend) -> TargetOutcome:
    """What came of the target: kept or failed and why, its rounds, tokens, history and methods."""
    verdict = state.verdict
    kept = state.done and verdict is not None and verdict.kept
    methods = verdict.methods if verdict is not None else ()
    reason = None if kept else "; ".join(state.problems) or state.failure or "no test class kept"
    repairs = sum(1 for r in state.history if r.round > 0 and r.status != "filtered")
    return TargetOutcome(
        target=state.context.target, path=state.target.path, backend=backend.name, model=backend.model,
        status="kept" if kept else "failed", reason=reason, rounds=repairs,
        tokens_in=sum(r.tokens_in for r in state.history), tokens_out=sum(r.tokens_out for r in state.history),
        context_tokens=state.context.tokens, context_estimated=state.context.estimated,
        used_skeleton=state.skeleton is not None, history=tuple(state.history),
        source=(verdict.source or state.candidate.source) if kept and verdict and state.candidate else None,
        kept_methods=tuple(m.name for m in methods if m.kept) if kept else (),
        dropped_methods=tuple(m.name for m in methods if not m.kept), verdict=verdict)

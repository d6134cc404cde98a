"""The request a target sends in a round of the model loop: its generation or repair prompt, with the round's sampling.

A repair prompt shows the previous code and what went wrong; those tokens come out of the code context's budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from junitbot.generation.llm.backends.base import ChatMessage, GenerationRequest
from junitbot.generation.llm.backends.settings import LLMSettings
from junitbot.generation.llm.context import ContextBuilder, TargetContext
from junitbot.generation.llm.prompts import RepairInput, compiler_lines, generation_messages, repair_messages
from junitbot.generation.llm.rounds import LoopContext, TargetState
from junitbot.generation.llm.symbols import existing_symbols
from junitbot.generation.output import without_file_header
from junitbot.validation import Severity, ValidationIssue, expected_and_actual

_ANSWER_SHOWN = 4000  # characters of an unusable answer shown back to the model
# Problems (and failing tests) a repair prompt lists: issue 17's MoneyUtils answer had 60 javac errors, each shown as
# a problem, a compiler line and a failing test, and the prompt outgrew the model's 8k window.
_PROBLEMS_SHOWN = 12


def request_for(state: TargetState, number: int, loop: LoopContext) -> GenerationRequest:
    """The target's request in round `number`: the generation prompt first (and after an answer with no code), then
    a repair prompt with what went wrong, with the round's sampling."""
    env, settings, builder = loop.env, loop.settings, loop.builder
    test_class = PurePosixPath(state.target.path).stem
    messages: tuple[ChatMessage, ...]
    guidance = state.target.instructions
    if number == 0 or (state.candidate is None and not state.answer):
        messages = generation_messages(env, state.context, test_class=test_class, skeleton=state.skeleton,
                                       instructions=guidance)
    else:
        repair = _repair_input(state, number, builder)
        shown = [repair.previous_code, *(i.message for i in repair.issues), *repair.compiler, *repair.symbols,
                 *(message for _, message in repair.failures)]
        messages = repair_messages(env, room_for(state, builder, shown), repair, test_class=test_class,
                                   skeleton=state.skeleton, instructions=guidance)
    return with_settings(f"{state.target.fqn}#{number}", messages, settings, number)


def with_settings(request_id: str, messages: tuple[ChatMessage, ...], settings: LLMSettings,
                  number: int) -> GenerationRequest:
    """The request with the round's sampling: the first round as configured; later rounds warmer and with a seed of
    their own (issue 17: at temperature 0.2 and one seed the 1.5B model answered each repair prompt with the very
    code it was asked to repair)."""
    later = number > 0
    return GenerationRequest(
        id=request_id, messages=messages, max_tokens=settings.max_tokens,
        temperature=max(settings.temperature, settings.repair_temperature) if later else settings.temperature,
        top_p=settings.top_p, n=settings.n, seed=settings.seed + number if settings.seed is not None else None)


def _repair_input(state: TargetState, number: int, builder: ContextBuilder) -> RepairInput:
    if state.candidate is None:
        issue = ValidationIssue(severity=Severity.ERROR, pass_name="extraction", category="unusable-answer",
                                message=state.failure or "the answer could not be used")
        return RepairInput(previous_code=state.answer[:_ANSWER_SHOWN], issues=(issue,), round=number)
    verdict = state.verdict
    issues = tuple(i for i in verdict.issues if i.severity is not Severity.INFO) if verdict else ()
    failures = tuple((m.name, m.reason or "failed") for m in verdict.methods
                     if not m.kept) if verdict and verdict.compiled else ()
    symbols = existing_symbols(issues, subject=state.subject, class_info=builder.graph.class_info,
                               lookup=lambda name: _only(builder.graph.fqns_named(name)))
    issues, failures = _once_each(issues), tuple(dict.fromkeys(failures))
    shown, failing = issues[:_PROBLEMS_SHOWN], failures[:_PROBLEMS_SHOWN]
    return RepairInput(previous_code=without_file_header(state.candidate.source), issues=shown,
                       compiler=compiler_lines(shown), failures=failing, round=number, symbols=symbols,
                       more_problems=len(issues) - len(shown) + len(failures) - len(failing),
                       wrong_values=any(expected_and_actual(m.removeprefix("failed: ")) for _, m in failing))


def _once_each(issues: Sequence[ValidationIssue]) -> tuple[ValidationIssue, ...]:
    """Each problem once, with how often it was seen: issue 17's CaseUtils answer repeated one method eight times,
    and its repair prompt listed "is already defined" eight times before the failing tests that mattered."""
    seen: dict[tuple[str, str, str], list[ValidationIssue]] = {}
    for issue in issues:
        seen.setdefault((issue.pass_name, issue.category, issue.message), []).append(issue)
    return tuple(same[0] if len(same) == 1 else same[0].model_copy(
        update={"message": f"{same[0].message} ({len(same)} times)"}) for same in seen.values())


def room_for(state: TargetState, builder: ContextBuilder, shown: Sequence[str]) -> TargetContext:
    """The target's context with room left for what a later round shows besides it (its previous code, the
    problems): those tokens come out of the context budget, so the prompt fits the model's window as the first
    did (issue 17: a 9,659-token repair prompt for an 8k window)."""
    extra = builder.counter.count("\n".join(shown))
    if state.context.tokens + extra <= builder.budget:
        return state.context
    return builder.build(state.target.fqn, budget=max(256, builder.budget - extra))


def _only(names: Sequence[str]) -> str | None:
    return names[0] if len(names) == 1 else None

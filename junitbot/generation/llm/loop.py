"""The model loop, batched across targets: generate, extract, validate, salvage, repair, then what is missing.

Every round sends one batch to the backend: the generation prompt of each target first, then one repair
prompt per target that failed (its previous code with the validation issues, compiler diagnostics, the
constructors and methods that do exist, and the failing tests). Validation is injected (`validate(candidates)
-> verdicts`), so the loop runs the same on the real validator and on a double; it keeps the methods that
compile and pass, so a repair round is only for a class that kept nothing. A candidate that does not compile is
salvaged at method level before any repair round: the test methods its errors point at are removed and the rest
validated once more, in one batch. A target whose round repeats the previous round's errors stops there (a small
model asked again repeats itself). A target still failing after the last round leaves its best candidate (the
compiled one that ran the most tests) for the expected-value corrections that follow. A kept class then gets up
to `coverage_rounds` more rounds that show the model the lines its tests leave uncovered and the mutants they let
survive; new methods are added to the kept class when every method kept before stays kept. Every prompt and
answer is written to the run directory (`Transcripts`). Targets left without a kept class are for the no-model
generator; each outcome says why.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from junitbot.analysis import JavaTestClass, insert_members, parse_test_class, remove_methods
from junitbot.errors import ClassEditError, JunitbotError
from junitbot.generation.llm.answer import extract_java, hostile_reasons
from junitbot.generation.llm.backends.base import GenerationRequest, GenerationResponse
from junitbot.generation.llm.context import ContextBuilder
from junitbot.generation.llm.prompts import MissingInput, missing_messages
from junitbot.generation.llm.requests import request_for, room_for, with_settings
from junitbot.generation.llm.rounds import (
    LoopContext,
    LoopTarget,
    TargetState,
    Validate,
    attempt,
    close_round,
    figures,
    outcome,
    remember,
    verdict_problems,
)
from junitbot.generation.llm.skeleton import fit_class, merge_into_shell
from junitbot.generation.llm.transcripts import Transcripts
from junitbot.generation.models import AttemptStatus, TargetOutcome
from junitbot.generation.output import with_file_header, without_file_header
from junitbot.validation import Severity, TestCandidate, Verdict

__all__ = ["LoopContext", "LoopTarget", "Validate", "run_llm_loop"]

log = logging.getLogger(__name__)

_MISSING_SHOWN = 25  # uncovered lines and surviving mutants shown in a coverage round


def run_llm_loop(targets: Sequence[LoopTarget], loop: LoopContext) -> list[TargetOutcome]:
    """Generate, validate and repair tests for all targets, batched per round; one outcome per target."""
    states, skipped = _prepare(targets, loop)
    for number in range(loop.settings.repair_rounds + 1):
        pending = [i for i, s in enumerate(states) if not s.done and not s.stalled]
        if not pending:
            break
        for index, state in zip(pending, _round([states[i] for i in pending], number, loop), strict=True):
            states[index] = state
        failing = sum(not s.done and not s.stalled for s in states)
        log.info("round %d: %d of %d targets still failing", number, failing, len(states))
    # A later round's answer may not even compile: a target still failing goes on with its best candidate.
    states = [replace(s, candidate=s.best[0], verdict=s.best[1]) if not s.done and s.best is not None else s
              for s in states]
    for _ in range(loop.settings.coverage_rounds):
        kept = [i for i, s in enumerate(states) if s.done]
        grown = _missing_round([states[i] for i in kept], loop)
        if grown is None:
            break
        for index, state in zip(kept, grown, strict=True):
            states[index] = state
    return [*skipped, *(outcome(s, loop.backend) for s in states)]


def _round(states: Sequence[TargetState], number: int, loop: LoopContext) -> list[TargetState]:
    """One round for the targets still failing: their requests in one batch, each answer made a candidate, the
    candidates validated and salvaged, the transcripts kept."""
    requests = [request_for(s, number, loop) for s in states]
    responses = {r.id: r for r in loop.backend.generate(requests)}
    taken = [_take(state, responses.get(asked.id), loop) for state, asked in zip(states, requests, strict=True)]
    judged = _judge(taken, loop.validate, number, responses, requests)
    return _keep_transcripts(_salvage(judged, loop.validate), requests, responses, loop.transcripts)


def _keep_transcripts(states: Sequence[TargetState], requests: Sequence[GenerationRequest],
                      responses: dict[str, GenerationResponse], transcripts: Transcripts) -> list[TargetState]:
    """Write each target's prompt and answer of this round and link the file from the round's record."""
    kept = []
    for state, request in zip(states, requests, strict=True):
        path = transcripts.record(state.target.fqn, len(state.history) - 1, request, responses.get(request.id))
        kept.append(state.with_last({"transcript": path}) if path is not None and state.history else state)
    return kept


def _prepare(targets: Sequence[LoopTarget], loop: LoopContext) -> tuple[list[TargetState], list[TargetOutcome]]:
    """Each target's context and skeleton; an outcome "skipped" for a target whose context cannot be built."""
    builder, settings = loop.builder, loop.settings
    states: list[TargetState] = []
    skipped: list[TargetOutcome] = []
    for target in targets:
        try:
            context = builder.build(target.fqn)
        except JunitbotError as e:
            skipped.append(TargetOutcome(target=target.fqn, path=target.path, backend="", model="", status="skipped",
                                         reason=str(e)))
            continue
        subject = builder.graph.class_info(context.target)
        assert subject is not None  # the builder resolved it
        skeleton = target.shell.render([]) if target.shell is not None and settings.use_skeleton else None
        states.append(TargetState(target=target, context=context, subject=subject, skeleton=skeleton))
    return states, skipped


def _take(state: TargetState, response: GenerationResponse | None, loop: LoopContext) -> TargetState:
    """The state with the backend's answer turned into the next candidate, or with why there is none."""
    state = replace(state, verdict=None)
    if response is None or not response.ok:
        return replace(state, failure=f"backend: {response.error if response else 'no response'}", candidate=None,
                       answer="")
    reasons: list[str] = []
    for text in response.texts:  # n candidates: the first usable one goes on
        candidate, why, notes = _assemble(state, text, loop)
        if candidate is not None:
            state = replace(state, candidate=candidate, answer=text, failure=None)
            return state.attempted(attempt(state, response, "failed", notes=notes))
        reasons.append(why)
    state = replace(state, candidate=None, answer=response.texts[0], failure=reasons[0])
    status: AttemptStatus = "refused" if reasons[0].startswith("refused") else "no-code"
    return state.attempted(attempt(state, response, status, problems=(reasons[0],)))


def _assemble(state: TargetState, text: str, loop: LoopContext) -> tuple[TestCandidate | None, str, tuple[str, ...]]:
    """The candidate an answer makes (its methods merged into the skeleton, or its class fitted), or why none."""
    builder, settings = loop.builder, loop.settings
    extraction = extract_java(text, expected_package=state.context.package, max_bytes=settings.max_answer_bytes)
    if not extraction.ok or extraction.code is None:
        return None, extraction.reason or "unusable answer", ()
    code = extraction.code
    notes: tuple[str, ...] = ()
    test_class = PurePosixPath(state.target.path).stem
    # A whole class with its own set-up builds the subject its tests assert on (issue 17: the model's
    # `new CurrencyMismatchException(GBP, EUR)`), so it is kept whole rather than merged into the skeleton, whose
    # set-up would build another one.
    own_setup = code.class_name is not None and any(m.is_lifecycle for m in code.members)
    if state.skeleton is not None and not own_setup:
        merge = merge_into_shell(state.skeleton, code)
        source = merge.source
        notes = (*merge.left_out, *(f"renamed {old} to {new}" for old, new in merge.renamed))
    elif code.class_name is not None:
        source = fit_class(code, package=state.context.package, class_name=test_class)
        notes = ("the model's class kept whole: its own set-up builds what its tests assert on",) if own_setup \
            else ()
    else:
        header = f"package {state.context.package};\n\n" if state.context.package else ""
        source = insert_members(f"{header}class {test_class} {{\n}}\n", [m.source for m in code.members],
                                imports=code.imports)
    if (state.skeleton is None or own_setup) and state.target.header:
        source = with_file_header(source, state.target.header)
    candidate = TestCandidate(path=state.target.path, source=source, target=state.context.target)
    hostile = hostile_reasons(candidate, subject=state.subject, context=state.context.test_context,
                              frameworks=builder.frameworks, class_info=builder.graph.class_info)
    if hostile:
        return None, "refused: " + "; ".join(hostile), notes
    return candidate, "", notes


def _judge(states: Sequence[TargetState], validate: Validate, number: int, responses: dict[str, GenerationResponse],
           requests: Sequence[GenerationRequest]) -> list[TargetState]:
    """Validate this round's candidates in one call; each state with what is wrong and what got fixed."""
    ready = [s for s in states if s.candidate is not None]
    verdicts = {v.path: v for v in validate([s.candidate for s in ready if s.candidate])} if ready else {}
    judged = []
    for state, request in zip(states, requests, strict=True):
        before = state.problems
        candidate = state.candidate
        if candidate is None:
            if not state.history or state.history[-1].round != number:
                response = responses.get(request.id) or GenerationResponse.failure(request.id, "no response")
                state = state.attempted(attempt(state, response, "backend-error", problems=(state.failure or "",)))
            state = close_round(state, (state.failure or "no candidate",))
        else:
            verdict = verdicts.get(candidate.path)
            state = remember(replace(state, verdict=verdict).with_last(figures(verdict)), candidate, verdict)
            if verdict is not None and verdict.kept:
                judged.append(close_round(replace(state, done=True), (), status="kept"))
                continue
            state = close_round(state, verdict_problems(verdict))
        if number > 0 and state.problems == before:
            state = replace(state, stalled=True).with_last({"notes": (
                *state.history[-1].notes, "stopped: this round repeated the errors of the round before")})
        judged.append(state)
    return judged


def _salvage(states: Sequence[TargetState], validate: Validate) -> list[TargetState]:
    """Candidates that did not compile, without the test methods their errors point at, validated in one batch:
    what is left is kept when it compiles and passes, before any repair round is asked for (issue 17)."""
    trimmed: list[tuple[int, TestCandidate, list[str]]] = []
    for index, state in enumerate(states):
        if state.done or state.candidate is None or state.verdict is None or state.verdict.compiled:
            continue  # a compiled candidate already kept each method that passed: removing more saves nothing
        parsed = parse_test_class(state.candidate.source)
        bad = _blamed_methods(parsed, state.verdict)
        names = parsed.test_names
        if not bad or not bad <= set(names) or set(names) <= bad:
            continue
        source = remove_methods(state.candidate.source, bad)
        trimmed.append((index, state.candidate.model_copy(update={"source": source}), sorted(bad)))
    salvaged = list(states)
    verdicts = {v.path: v for v in validate([c for _, c, _ in trimmed])} if trimmed else {}
    for index, candidate, removed in trimmed:
        verdict = verdicts.get(candidate.path)
        state = remember(states[index], candidate, verdict)
        last = state.history[-1]
        note = f"salvaged: removed {', '.join(removed)}"
        if verdict is None or not verdict.kept:
            salvaged[index] = state.with_last({"notes": (*last.notes, f"{note}; the rest failed too")})
            continue
        counts = {k: v for k, v in figures(verdict).items() if k in ("passed", "kept")}
        state = state.with_last({**counts, "status": "kept", "salvaged": tuple(removed), "problems": (),
                                 "notes": (*last.notes, note)})
        salvaged[index] = replace(state, candidate=candidate, verdict=verdict, done=True, stalled=False, problems=())
    return salvaged


def _missing_round(states: Sequence[TargetState], loop: LoopContext) -> list[TargetState] | None:
    """One round for kept classes that leave lines uncovered or mutants alive: the model writes more methods, added
    to the kept class; the grown class replaces it when every method kept before is still kept. The states after
    it; None when no class had anything missing."""
    builder, settings = loop.builder, loop.settings
    asked = [(i, m) for i, s in enumerate(states) if (m := _missing(s, builder)) is not None]
    if not asked:
        return None
    requests = [with_settings(f"{states[i].target.fqn}#more{m.round}", missing_messages(
        loop.env, room_for(states[i], builder, [m.kept_code, *m.uncovered, *m.mutants]), m,
        test_class=PurePosixPath(states[i].target.path).stem, instructions=states[i].target.instructions),
        settings, m.round) for i, m in asked]
    responses = {r.id: r for r in loop.backend.generate(requests)}
    after_round = list(states)
    grown: list[tuple[int, TestCandidate]] = []
    for (index, _), request in zip(asked, requests, strict=True):
        state = states[index]
        response = responses.get(request.id) or GenerationResponse.failure(request.id, "no response")
        candidate, why = _grown(state, response, loop)
        if candidate is None:
            state = state.attempted(attempt(state, response, "no-code" if why.startswith("no Java") else "failed",
                                            problems=(why,), notes=("more tests for what is missing",)))
        else:
            grown.append((index, candidate))
            state = state.attempted(attempt(state, response, "failed", notes=("more tests for what is missing",)))
        [after_round[index]] = _keep_transcripts([state], [request], responses, loop.transcripts)
    verdicts = {v.path: v for v in loop.validate([c for _, c in grown])} if grown else {}
    for index, candidate in grown:
        after_round[index] = _grown_verdict(after_round[index], candidate, verdicts.get(candidate.path))
    return after_round


def _grown_verdict(state: TargetState, candidate: TestCandidate, verdict: Verdict | None) -> TargetState:
    """The state with the grown class in place of the kept one when it keeps every method kept before and more."""
    before = {m.name for m in state.verdict.methods if m.kept} if state.verdict else set()
    after = {m.name for m in verdict.methods if m.kept} if verdict is not None and verdict.kept else set()
    state = state.with_last(figures(verdict))
    if before < after and verdict is not None:
        added = f"added {', '.join(sorted(after - before))}"
        return replace(state, candidate=candidate, verdict=verdict).with_last({"status": "kept", "fixed": (added,)})
    return state.with_last({"problems": ("no new method kept",)})


def _missing(state: TargetState, builder: ContextBuilder) -> MissingInput | None:
    """What the kept class leaves untested: uncovered (or partly covered) lines as source, surviving mutants."""
    verdict = state.verdict
    if verdict is None or not verdict.kept or not verdict.source:
        return None
    coverage = verdict.coverage
    lines = sorted({*coverage.uncovered_lines, *coverage.partly_covered_lines}) if coverage else []
    text = (builder.graph.source(state.subject.file) or b"").decode("utf-8", "replace").splitlines()
    uncovered = tuple(f"line {n}: {text[n - 1].strip()}" for n in lines if 0 < n <= len(text) and text[n - 1].strip())
    mutants = verdict.survivors
    if not uncovered and not mutants:
        return None
    return MissingInput(kept_code=without_file_header(verdict.source), uncovered=uncovered[:_MISSING_SHOWN],
                        mutants=mutants[:_MISSING_SHOWN], round=len(state.history))


def _grown(state: TargetState, response: GenerationResponse, loop: LoopContext) -> tuple[TestCandidate | None, str]:
    """The kept class with the answer's new methods (names it already has are left out), or why there is none."""
    assert state.verdict is not None and state.verdict.source is not None
    if not response.ok:
        return None, f"backend: {response.error}"
    extraction = extract_java(response.texts[0], expected_package=state.context.package,
                              max_bytes=loop.settings.max_answer_bytes)
    if not extraction.ok or extraction.code is None:
        return None, extraction.reason or "unusable answer"
    kept = state.verdict.source
    have = {m.name for m in parse_test_class(kept).top_members}
    new = [m for m in extraction.code.members if m.kind == "method" and m.name not in have]
    if not any(m.is_test for m in new):
        return None, "no new @Test method"
    try:
        source = insert_members(kept, [m.source for m in new], imports=extraction.code.imports)
    except ClassEditError as e:
        return None, f"the new methods could not be added: {e}"
    candidate = TestCandidate(path=state.target.path, source=source, target=state.context.target)
    hostile = hostile_reasons(candidate, subject=state.subject, context=state.context.test_context,
                              frameworks=loop.builder.frameworks, class_info=loop.builder.graph.class_info)
    if hostile:
        return None, "refused: " + "; ".join(hostile)
    return candidate, ""


def _blamed_methods(parsed: JavaTestClass, verdict: Verdict) -> set[str] | None:
    """Test methods that errors point at (by name or line); None when an error lies outside every test method.

    javac's lines are of the source as it compiled (repaired, methods removed), so a javac error counts only by
    the method validation named; the static passes' lines are the candidate's own.
    """
    blamed: set[str] = set()
    for issue in verdict.issues:
        if issue.severity is not Severity.ERROR:
            continue
        owner = issue.method or (parsed.test_at(issue.line) if issue.pass_name != "javac" else None)
        if owner is None:
            return None
        blamed.add(owner)
    return blamed

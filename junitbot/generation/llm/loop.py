"""The model loop, batched across targets: generate → extract → validate → salvage → repair (≤ N rounds) →
rounds for what is still missing.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import jinja2

from junitbot.analysis import (
    ClassInfo,
    JavaTestClass,
    insert_members,
    parse_test_class,
    remove_methods,
)
from junitbot.errors import ClassEditError, JunitbotError
from junitbot.generation.llm.answer import extract_java, hostile_reasons
from junitbot.generation.llm.backends.base import Backend, ChatMessage, GenerationRequest, GenerationResponse
from junitbot.generation.llm.backends.settings import LLMSettings
from junitbot.generation.llm.context import ContextBuilder, TargetContext
from junitbot.generation.llm.prompts import (
    MissingInput,
    RepairInput,
    compiler_lines,
    generation_messages,
    missing_messages,
    repair_messages,
)
from junitbot.generation.llm.skeleton import fit_class, merge_into_shell
from junitbot.generation.llm.symbols import existing_symbols
from junitbot.generation.llm.transcripts import Transcripts
from junitbot.generation.models import AttemptStatus, RoundRecord, TargetOutcome, TestShell
from junitbot.generation.output import with_file_header, without_file_header
from junitbot.records import Record
from junitbot.validation import Severity, TestCandidate, ValidationIssue, Verdict, expected_and_actual

log = logging.getLogger(__name__)

Validate = Callable[[Sequence[TestCandidate]], Sequence[Verdict]]
_ANSWER_SHOWN = 4000  # characters of an unusable answer shown back to the model
_ADDS_NOTHING = "adds no "  # validation's reason for a passing method that adds nothing (selection.NOTHING_NEW)
_MISSING_SHOWN = 25  # uncovered lines and surviving mutants shown in a coverage round
# Problems (and failing tests) a repair prompt lists: issue 17's MoneyUtils answer had 60 javac errors, each shown as
# a problem, a compiler line and a failing test, and the prompt outgrew the model's 8k window.
_PROBLEMS_SHOWN = 12


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


@dataclass
class _State:
    """One target on its way through the rounds."""

    target: LoopTarget
    context: TargetContext
    subject: ClassInfo
    skeleton: str | None
    history: list[RoundRecord] = field(default_factory=list)
    candidate: TestCandidate | None = None
    answer: str = ""
    failure: str | None = None
    problems: tuple[str, ...] = ()
    verdict: Verdict | None = None
    done: bool = False
    stalled: bool = False  # the last repair round repeated the round before's errors: asking again is no use
    best: tuple[TestCandidate, Verdict] | None = None  # the compiled candidate that ran the most tests, kept or not


def run_llm_loop(
    targets: Sequence[LoopTarget],
    *,
    backend: Backend,
    builder: ContextBuilder,
    env: jinja2.Environment,
    validate: Validate,
    settings: LLMSettings,
    transcripts: Transcripts | None = None,
) -> list[TargetOutcome]:
    """Generate, validate and repair tests for all targets, batched per round; one outcome per target."""
    states, skipped = _prepare(targets, builder, settings)
    kept = transcripts or Transcripts(None)
    pending = list(states)
    for number in range(settings.repair_rounds + 1):
        if not pending:
            break
        requests = [_request(s, number, env, settings, builder) for s in pending]
        responses = {r.id: r for r in backend.generate(requests)}
        for state, request in zip(pending, requests, strict=True):
            _take(state, responses.get(request.id), builder, settings)
        _judge(pending, validate, number, responses, requests)
        _salvage([s for s in pending if not s.done], validate)
        _keep_transcripts(pending, requests, responses, kept)
        pending = [s for s in pending if not s.done and not s.stalled]
        log.info("round %d: %d of %d targets still failing", number, len(pending), len(states))
    for state in states:
        if not state.done and state.best is not None:  # a later round's answer may not even compile
            state.candidate, state.verdict = state.best
    for _ in range(settings.coverage_rounds):
        if not _missing_round([s for s in states if s.done], backend=backend, builder=builder, env=env,
                              validate=validate, settings=settings, transcripts=kept):
            break
    return [*skipped, *(_outcome(s, backend) for s in states)]


def _keep_transcripts(states: Sequence[_State], requests: Sequence[GenerationRequest],
                      responses: dict[str, GenerationResponse], transcripts: Transcripts) -> None:
    """Write each target's prompt and answer of this round and link the file from the round's record."""
    for state, request in zip(states, requests, strict=True):
        path = transcripts.record(state.target.fqn, len(state.history) - 1, request, responses.get(request.id))
        if path is not None and state.history:
            state.history[-1] = state.history[-1].model_copy(update={"transcript": path})


def _prepare(targets: Sequence[LoopTarget], builder: ContextBuilder,
             settings: LLMSettings) -> tuple[list[_State], list[TargetOutcome]]:
    states: list[_State] = []
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
        states.append(_State(target=target, context=context, subject=subject, skeleton=skeleton))
    return states, skipped


def _request(state: _State, number: int, env: jinja2.Environment, settings: LLMSettings,
             builder: ContextBuilder) -> GenerationRequest:
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
        messages = repair_messages(env, _room_for(state, builder, shown), repair, test_class=test_class,
                                   skeleton=state.skeleton, instructions=guidance)
    return _with_settings(f"{state.target.fqn}#{number}", messages, settings, number)


def _with_settings(request_id: str, messages: tuple[ChatMessage, ...], settings: LLMSettings,
                   number: int) -> GenerationRequest:
    """The request with the round's sampling: the first round as configured; later rounds warmer and with a seed of
    their own (issue 17: at temperature 0.2 and one seed the 1.5B model answered each repair prompt with the very
    code it was asked to repair)."""
    later = number > 0
    return GenerationRequest(
        id=request_id, messages=messages, max_tokens=settings.max_tokens,
        temperature=max(settings.temperature, settings.repair_temperature) if later else settings.temperature,
        top_p=settings.top_p, n=settings.n, seed=settings.seed + number if settings.seed is not None else None)


def _repair_input(state: _State, number: int, builder: ContextBuilder) -> RepairInput:
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


def _room_for(state: _State, builder: ContextBuilder, shown: Sequence[str]) -> TargetContext:
    """The target's context with room left for what a later round shows besides it (its previous code, the
    problems): those tokens come out of the context budget, so the prompt fits the model's window as the first
    did (issue 17: a 9,659-token repair prompt for an 8k window)."""
    extra = builder.counter.count("\n".join(shown))
    if state.context.tokens + extra <= builder.budget:
        return state.context
    return builder.build(state.target.fqn, budget=max(256, builder.budget - extra))


def _only(names: Sequence[str]) -> str | None:
    return names[0] if len(names) == 1 else None


def _take(state: _State, response: GenerationResponse | None, builder: ContextBuilder,
          settings: LLMSettings) -> None:
    """Turn the backend's answer into the next candidate, or record why there is none."""
    state.verdict = None
    if response is None or not response.ok:
        state.failure = f"backend: {response.error if response else 'no response'}"
        state.candidate, state.answer = None, ""
        return
    reasons: list[str] = []
    for text in response.texts:  # n candidates: the first usable one goes on
        candidate, why, notes = _assemble(state, text, builder, settings)
        if candidate is not None:
            state.candidate, state.answer, state.failure = candidate, text, None
            state.history.append(_attempt(state, response, "failed", notes=notes))
            return
        reasons.append(why)
    state.candidate, state.answer, state.failure = None, response.texts[0], reasons[0]
    status: AttemptStatus = "refused" if reasons[0].startswith("refused") else "no-code"
    state.history.append(_attempt(state, response, status, problems=(reasons[0],)))


def _assemble(state: _State, text: str, builder: ContextBuilder,
              settings: LLMSettings) -> tuple[TestCandidate | None, str, tuple[str, ...]]:
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


def _attempt(state: _State, response: GenerationResponse, status: AttemptStatus, *,
             problems: tuple[str, ...] = (), notes: tuple[str, ...] = ()) -> RoundRecord:
    return RoundRecord(round=len(state.history), status=status, tokens_in=response.tokens_in,
                       tokens_out=response.tokens_out, seconds=response.seconds, problems=problems, notes=notes)


def _judge(states: Sequence[_State], validate: Validate, number: int, responses: dict[str, GenerationResponse],
           requests: Sequence[GenerationRequest]) -> None:
    """Validate this round's candidates in one call; record per target what is wrong and what got fixed."""
    ready = [s for s in states if s.candidate is not None]
    verdicts = {v.path: v for v in validate([s.candidate for s in ready if s.candidate])} if ready else {}
    for state, request in zip(states, requests, strict=True):
        before = state.problems
        if state.candidate is None:
            if not state.history or state.history[-1].round != number:
                response = responses.get(request.id) or GenerationResponse.failure(request.id, "no response")
                state.history.append(_attempt(state, response, "backend-error", problems=(state.failure or "",)))
            _close_round(state, (state.failure or "no candidate",))
        else:
            verdict = verdicts.get(state.candidate.path)
            state.verdict = verdict
            state.history[-1] = state.history[-1].model_copy(update=_figures(verdict))
            _remember(state, state.candidate, verdict)
            if verdict is not None and verdict.kept:
                state.done = True
                _close_round(state, (), status="kept")
                continue
            _close_round(state, _problems(verdict))
        if number > 0 and state.problems == before:
            state.stalled = True
            state.history[-1] = state.history[-1].model_copy(update={"notes": (
                *state.history[-1].notes, "stopped: this round repeated the errors of the round before")})


def _figures(verdict: Verdict | None) -> dict[str, object]:
    """How far a candidate got: compiled, test methods, how many passed, how many were kept."""
    if verdict is None:
        return {}
    passed = sum(1 for m in verdict.methods if m.kept or (m.reason or "").startswith(_ADDS_NOTHING))
    return {"compiled": verdict.compiled, "methods": len(verdict.methods), "passed": passed if verdict.compiled else 0,
            "kept": sum(1 for m in verdict.methods if m.kept)}


def _close_round(state: _State, problems: tuple[str, ...], *, status: AttemptStatus | None = None) -> None:
    last = state.history[-1]
    fixed = tuple(p for p in state.problems if p not in problems)
    state.history[-1] = last.model_copy(update={"problems": problems, "fixed": fixed,
                                                "status": status or last.status})
    state.problems = problems


def _problems(verdict: Verdict | None) -> tuple[str, ...]:
    """What failed, as stable keys a later round can be compared against."""
    if verdict is None:
        return ("no verdict from validation",)
    keys = [f"{i.pass_name}/{i.category}{f' in {i.method}' if i.method else ''}" for i in verdict.issues
            if i.severity is Severity.ERROR]
    if verdict.compiled:  # before that a method's reason is the class's ("does not compile")
        keys += [f"test {m.name} failed" for m in verdict.methods if not m.kept]
    return tuple(dict.fromkeys(keys)) or ("not kept",)


def _remember(state: _State, candidate: TestCandidate, verdict: Verdict | None) -> None:
    """Keep the compiled candidate that ran the most tests: the one whose failing expectations can be corrected."""
    if verdict is not None and verdict.compiled and (state.best is None
                                                     or len(verdict.methods) > len(state.best[1].methods)):
        state.best = (candidate, verdict)


def _salvage(states: Sequence[_State], validate: Validate) -> None:
    """Candidates that did not compile, without the test methods their errors point at, validated in one batch:
    what is left is kept when it compiles and passes, before any repair round is asked for (issue 17)."""
    trimmed: list[tuple[_State, TestCandidate, list[str]]] = []
    for state in states:
        if state.candidate is None or state.verdict is None or state.verdict.compiled:
            continue  # a compiled candidate already kept each method that passed: removing more saves nothing
        parsed = parse_test_class(state.candidate.source)
        bad = _blamed_methods(parsed, state.verdict)
        names = parsed.test_names
        if not bad or not bad <= set(names) or set(names) <= bad:
            continue
        source = remove_methods(state.candidate.source, bad)
        trimmed.append((state, state.candidate.model_copy(update={"source": source}), sorted(bad)))
    if not trimmed:
        return
    verdicts = {v.path: v for v in validate([c for _, c, _ in trimmed])}
    for state, candidate, removed in trimmed:
        verdict = verdicts.get(candidate.path)
        _remember(state, candidate, verdict)
        last = state.history[-1]
        note = f"salvaged: removed {', '.join(removed)}"
        if verdict is None or not verdict.kept:
            state.history[-1] = last.model_copy(update={"notes": (*last.notes, f"{note}; the rest failed too")})
            continue
        figures = {k: v for k, v in _figures(verdict).items() if k in ("passed", "kept")}
        state.history[-1] = last.model_copy(update={**figures, "status": "kept", "salvaged": tuple(removed),
                                                    "problems": (), "notes": (*last.notes, note)})
        state.candidate, state.verdict, state.done, state.stalled = candidate, verdict, True, False
        state.problems = ()


def _missing_round(states: Sequence[_State], *, backend: Backend, builder: ContextBuilder, env: jinja2.Environment,
                   validate: Validate, settings: LLMSettings, transcripts: Transcripts) -> bool:
    """One round for kept classes that leave lines uncovered or mutants alive: the model writes more methods, added
    to the kept class; the grown class replaces it when every method kept before is still kept. False when no
    class had anything missing."""
    asked = [(s, m) for s in states if (m := _missing(s, builder)) is not None]
    if not asked:
        return False
    requests = [_with_settings(f"{s.target.fqn}#more{m.round}", missing_messages(
        env, _room_for(s, builder, [m.kept_code, *m.uncovered, *m.mutants]), m,
        test_class=PurePosixPath(s.target.path).stem, instructions=s.target.instructions), settings, m.round)
        for s, m in asked]
    responses = {r.id: r for r in backend.generate(requests)}
    grown: list[tuple[_State, TestCandidate, GenerationResponse]] = []
    for (state, _), request in zip(asked, requests, strict=True):
        response = responses.get(request.id) or GenerationResponse.failure(request.id, "no response")
        candidate, why = _grown(state, response, builder, settings)
        if candidate is None:
            state.history.append(_attempt(state, response, "no-code" if why.startswith("no Java") else "failed",
                                          problems=(why,), notes=("more tests for what is missing",)))
        else:
            grown.append((state, candidate, response))
            state.history.append(_attempt(state, response, "failed", notes=("more tests for what is missing",)))
        _keep_transcripts([state], [request], responses, transcripts)
    verdicts = {v.path: v for v in validate([c for _, c, _ in grown])} if grown else {}
    for state, candidate, _ in grown:
        verdict = verdicts.get(candidate.path)
        before = {m.name for m in state.verdict.methods if m.kept} if state.verdict else set()
        after = {m.name for m in verdict.methods if m.kept} if verdict is not None and verdict.kept else set()
        record = state.history[-1].model_copy(update=_figures(verdict))
        if before < after and verdict is not None:
            state.candidate, state.verdict = candidate, verdict
            added = f"added {', '.join(sorted(after - before))}"
            record = record.model_copy(update={"status": "kept", "fixed": (added,)})
        else:
            record = record.model_copy(update={"problems": ("no new method kept",)})
        state.history[-1] = record
    return True


def _missing(state: _State, builder: ContextBuilder) -> MissingInput | None:
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


def _grown(state: _State, response: GenerationResponse, builder: ContextBuilder,
           settings: LLMSettings) -> tuple[TestCandidate | None, str]:
    """The kept class with the answer's new methods (names it already has are left out), or why there is none."""
    assert state.verdict is not None and state.verdict.source is not None
    if not response.ok:
        return None, f"backend: {response.error}"
    extraction = extract_java(response.texts[0], expected_package=state.context.package,
                              max_bytes=settings.max_answer_bytes)
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
                              frameworks=builder.frameworks, class_info=builder.graph.class_info)
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


def _outcome(state: _State, backend: Backend) -> TargetOutcome:
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

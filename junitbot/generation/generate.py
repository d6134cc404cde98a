"""generate(targets, job, backend): the one entry of test generation, with a model or without.

Without a model (`backend` None) it is the no-model generator (`template/`). With one, the no-model
generator's class shells are the skeletons; the model loop (`llm/`) writes, validates and repairs tests;
an `assertEquals` that failed only on its expected literal gets the value the code returned, validated
again; then the no-model generator runs on every target the model's class does not cover completely:
where the model kept nothing its class is the fallback, and where both kept tests its methods are merged
into the model's class when that raises coverage (`merge.py`). Each target's outcome says which (`origin`:
llm, corrected, merged or template) and why (`notes`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from junitbot.analysis import DependencyAnalyzer
from junitbot.generation.javalevel import JavaLevel
from junitbot.generation.llm.backends import Backend, LLMSettings, SaysContextLength
from junitbot.generation.llm.context import ContextBuilder, Examples, TokenCounter, token_counter
from junitbot.generation.llm.corrections import correct_expected
from junitbot.generation.llm.loop import LoopContext, LoopTarget, run_llm_loop
from junitbot.generation.llm.prompts import prompt_environment
from junitbot.generation.llm.similar import open_similar_tests
from junitbot.generation.llm.transcripts import Transcripts
from junitbot.generation.merge import complete, merge_outcomes
from junitbot.generation.models import (
    Correction,
    GenerationJob,
    GenerationResult,
    Skip,
    Target,
    TargetOutcome,
    TestShell,
)
from junitbot.generation.output import PERSON_S_FILE, file_header, licence_header, person_s_file
from junitbot.generation.template import (
    ModuleContext,
    class_shell,
    generate_tests,
    generated_test_path,
    graph_implementations,
)
from junitbot.validation import (
    IndexedRepo,
    ProjectClasspath,
    TestCandidate,
    ValidationReport,
    Verdict,
    discover_classpaths,
    merge_reports,
    validate_candidates,
)

log = logging.getLogger(__name__)
# The prompt beyond the code context: the rules, the request's wording, the skeleton or the previous code, the
# compiler's output; the chars/4 estimate undercounts Java, so this is generous.
PROMPT_OVERHEAD_TOKENS = 2000


def generate(targets: Sequence[Target], job: GenerationJob, backend: Backend | None) -> GenerationResult:
    """Tests for `targets`: the no-model generator's when `backend` is None, else the model's as described above.

    The model's settings (sampling, repair rounds, context budget) are `job.config.generation.llm`.
    """
    targets, owned = _not_people_s(targets, job)
    classpath = discover_classpaths(job.root, job.config.validation, state=job.state)
    if job.licence_header is None:
        job = job.model_copy(update={"licence_header": licence_header(job.graph)})
    if not targets:
        result = GenerationResult(candidates=(), validation=None)
    elif backend is None:
        result = generate_tests(targets, job, classpath=classpath)
    else:
        result = _with_model(list(targets), backend, job.config.generation.llm_settings(), _Validator(job, classpath))
    return result.model_copy(update={"classpath": classpath, "skipped": (*owned, *result.skipped)})


def _not_people_s(targets: Sequence[Target], job: GenerationJob) -> tuple[list[Target], list[Skip]]:
    """The targets whose generated test file junitbot may write, and a Skip for each whose file is a person's
    (`person_s_file`): its tests could never be written, so none are generated, probed, validated or mutated."""
    mine, owned = [], []
    for target in targets:
        info = job.graph.class_info(target.fqn)
        path = generated_test_path(info, job.config.generation) if info is not None else None
        if path is not None and person_s_file(job.root, path):
            owned.append(Skip(target=target.fqn, reason=f"{path}: {PERSON_S_FILE}, and junitbot never writes over "
                                                        "a person's test (rename it, or delete it to let junitbot "
                                                        "write its own)"))
        else:
            mine.append(target)
    return mine, owned


@dataclass
class _Validator:
    """The real validator for the loop and the later stages; remembers every candidate and its verdict."""

    job: GenerationJob
    classpath: ProjectClasspath
    reports: list[ValidationReport] = field(default_factory=list)
    seen: list[tuple[TestCandidate, Verdict]] = field(default_factory=list)

    def __call__(self, candidates: Sequence[TestCandidate]) -> tuple[Verdict, ...]:
        job = self.job
        report = validate_candidates(list(candidates), repo=IndexedRepo(root=job.root, graph=job.graph,
                                                                        state=job.state),
                                     config=job.config, classpath=self.classpath)
        self.reports.append(report)
        by_path = {c.path: c for c in candidates}
        self.seen += [(by_path[v.path], v) for v in report.verdicts if v.path in by_path]
        return report.verdicts

    def candidate_of(self, verdict: Verdict) -> TestCandidate | None:
        """The candidate as validated (failing methods still in) that got `verdict`."""
        return next((c for c, v in reversed(self.seen) if v == verdict), None)


def _with_model(targets: list[Target], backend: Backend, settings: LLMSettings,
                validator: _Validator) -> GenerationResult:
    job = validator.job
    seconds: dict[str, float] = {}
    tick = time.perf_counter()
    # A module without JUnit Jupiter gets no model call: the no-model generator below says why, once per class.
    loop_targets = _loop_targets([t for t in targets if _runs_jupiter(t, validator)], validator)
    seconds["plan"] = time.perf_counter() - tick
    tick = time.perf_counter()
    with open_similar_tests(job.state, job.config, job.root) as similar:
        builder = ContextBuilder(job.graph, frameworks=validator.classpath.primary.frameworks,
                                 budget=context_budget(settings, backend), counter=_counter(settings, backend),
                                 examples=Examples(similar, settings.similar_tests),
                                 level=_lowest_level(validator.classpath))
        loop = LoopContext(backend=backend, builder=builder, env=prompt_environment(job.root), validate=validator,
                           settings=settings, transcripts=Transcripts(job.run_directory))
        outcomes = run_llm_loop(loop_targets, loop) if loop_targets else []
    seconds["llm"] = time.perf_counter() - tick
    job.progress("llm", len(loop_targets), len(loop_targets))
    tick = time.perf_counter()
    outcomes = _correct(outcomes, validator)
    seconds["correct"] = time.perf_counter() - tick
    tick = time.perf_counter()
    # A kept model class that covers every line and branch leaves the no-model generator nothing to add.
    done = {o.target for o in outcomes if o.status == "kept" and o.verdict and complete(o.verdict)}
    rest = [t for t in targets if t.fqn not in done]
    template = generate_tests(rest, job, classpath=validator.classpath) if rest else \
        GenerationResult(candidates=(), validation=None)
    seconds["template"] = time.perf_counter() - tick
    tick = time.perf_counter()
    outcomes = merge_outcomes(outcomes, _verdicts(template), validator)
    seconds["merge"] = time.perf_counter() - tick
    job.progress("merge", len(outcomes), len(outcomes))
    seconds.update({f"template_{k}": v for k, v in template.seconds.items()})
    return _result(targets, outcomes, template, validator, backend.name, {k: round(v, 3) for k, v in seconds.items()})


def _runs_jupiter(target: Target, validator: _Validator) -> bool:
    info = validator.job.graph.class_info(target.fqn)
    module = validator.classpath.module_for(info.file) if info is not None else validator.classpath.primary
    return module.frameworks.junit_jupiter is not None


def _loop_targets(targets: Sequence[Target], validator: _Validator) -> list[LoopTarget]:
    """Each known target with its test file and, where the no-model generator can build one, its skeleton."""
    job = validator.job
    analyzer = DependencyAnalyzer(job.graph)
    implementations = graph_implementations(job.graph)
    found = []
    for target in targets:
        info = job.graph.class_info(target.fqn)
        if info is None:
            continue  # the no-model generator reports it: "not in the graph"
        module = validator.classpath.module_for(info.file)
        writing = ModuleContext(lookup=job.graph.class_info, frameworks=module.frameworks,
                                level=JavaLevel(release=module.release), implementations=implementations)
        shell = class_shell(info, job, writing, analyzer=analyzer)
        found.append(LoopTarget(fqn=info.fqn, path=generated_test_path(info, job.config.generation),
                                shell=shell if isinstance(shell, TestShell) else None,
                                header=file_header(info.fqn, job.commit, job.licence_header),
                                instructions=job.instructions.get(info.fqn)))
    return found


def context_budget(settings: LLMSettings, backend: Backend) -> int:
    """Tokens of code context a prompt may carry: `context_tokens`, less when the model's window (what the server
    says, else `max_model_len`) minus the answer (`max_tokens`) and the prompt's own text leaves less (issue 17: a
    small model served with an 8k window got prompts it could not take)."""
    served = backend.context_length() if isinstance(backend, SaysContextLength) else None
    window = served or settings.max_model_len
    if window is None:
        return settings.context_tokens
    room = window - settings.max_tokens - PROMPT_OVERHEAD_TOKENS
    if room < settings.context_tokens:
        log.info("context budget %d tokens: the model's window is %d (%s), answers up to %d", max(room, 256), window,
                 "the server's" if served else "max_model_len", settings.max_tokens)
    return max(256, min(settings.context_tokens, room))


def _lowest_level(project: ProjectClasspath) -> JavaLevel:
    """The lowest Java release of the build's modules: one prompt's rules serve every target, and code that
    compiles there compiles in every module."""
    releases = [m.release for m in project.modules if m.release is not None]
    return JavaLevel(release=min(releases) if releases else None)


def _counter(settings: LLMSettings, backend: Backend) -> TokenCounter:
    """The model's tokenizer where it is local (in-process engines, or a tokenizer configured); else the estimate."""
    if backend.name in ("vllm", "transformers") or settings.tokenizer:
        return token_counter(settings.tokenizer or settings.model)
    return token_counter(None)


# -- assertEquals correction ------------------------------------------------------------------------------


def _correct(outcomes: Sequence[TargetOutcome], validator: _Validator) -> list[TargetOutcome]:
    """Failing `assertEquals` literals set to what the code returned, validated again in one batch."""
    planned: dict[str, tuple[TestCandidate, tuple[Correction, ...]]] = {}
    for outcome in outcomes:
        verdict = outcome.verdict
        candidate = validator.candidate_of(verdict) if verdict is not None and verdict.compiled else None
        failures = {m.name: m.reason for m in verdict.methods if not m.kept} if verdict is not None else {}
        if candidate is None or not failures:
            continue
        source, corrections = correct_expected(candidate.source, failures)
        if corrections:
            planned[outcome.target] = (candidate.model_copy(update={"source": source}), corrections)
    if not planned:
        return list(outcomes)
    verdicts = {v.target: v for v in validator([candidate for candidate, _ in planned.values()])}
    return [_corrected(o, *planned[o.target], verdicts.get(o.target)) if o.target in planned else o
            for o in outcomes]


def _corrected(outcome: TargetOutcome, candidate: TestCandidate, corrections: tuple[Correction, ...],
               verdict: Verdict | None) -> TargetOutcome:
    """The outcome with the corrected class, if it keeps every method kept before and some corrected one."""
    kept = {m.name for m in verdict.methods if m.kept} if verdict is not None and verdict.kept else set()
    fixed = tuple(c for c in corrections if c.method in kept)
    if verdict is None or not fixed or not set(outcome.kept_methods) <= kept:
        names = ", ".join(sorted({c.method for c in corrections}))
        return outcome.model_copy(update={"notes": (*outcome.notes, f"corrected expected values of {names} "
                                                                    "failed validation: not kept")})
    notes = tuple(f"{c.method} line {c.line}: expected {c.expected} corrected to {c.actual}, the value the code "
                  "returned in every run" for c in fixed)
    return outcome.model_copy(update={
        "status": "kept", "reason": None, "verdict": verdict, "source": verdict.source, "corrections": fixed,
        "kept_methods": tuple(m.name for m in verdict.methods if m.kept),
        "dropped_methods": tuple(m.name for m in verdict.methods if not m.kept), "notes": (*outcome.notes, *notes),
    })


# -- the result ---------------------------------------------------------------------------------------------


def _verdicts(template: GenerationResult) -> dict[str, Verdict]:
    """The no-model generator's verdicts by target."""
    return {v.target: v for v in (template.validation.verdicts if template.validation else ()) if v.target}


def _result(targets: Sequence[Target], outcomes: Sequence[TargetOutcome], template: GenerationResult,
            validator: _Validator, backend: str, seconds: dict[str, float]) -> GenerationResult:
    """Final verdicts, sources and skips per target, from the origin each outcome settled on."""
    template_verdicts = _verdicts(template)
    by_target = {o.target: o for o in outcomes}
    verdicts: list[Verdict] = []
    skipped: list[Skip] = []
    for target in targets:
        outcome = by_target.get(target.fqn)
        verdict = _final_verdict(outcome, template_verdicts.get(target.fqn))
        if verdict is not None:
            verdicts.append(verdict)
        if verdict is None or not verdict.kept:
            skipped.append(_skip(target.fqn, outcome, template))
    reports = [*validator.reports, *([template.validation] if template.validation else [])]
    candidates = tuple(TestCandidate(path=v.path, source=v.source, target=v.target)
                       for v in verdicts if v.kept and v.source)
    return GenerationResult(candidates=candidates, validation=_report(verdicts, reports),
                            skipped=tuple(skipped), scenarios=template.scenarios, observed=template.observed,
                            seconds=seconds, backend=backend, llm=tuple(outcomes),
                            frameworks=validator.classpath.primary.frameworks,
                            java_release=_lowest_level(validator.classpath).release)


def _final_verdict(outcome: TargetOutcome | None, template: Verdict | None) -> Verdict | None:
    """The kept class's verdict (the outcome holds the model's, corrected or merged one); else the last failing."""
    if outcome is None or outcome.origin == "template":
        return template
    return outcome.verdict or template


def _skip(target: str, outcome: TargetOutcome | None, template: GenerationResult) -> Skip:
    """Why nothing was kept: the model's reason and the no-model generator's."""
    theirs = next((s.reason for s in template.skipped if s.target == target), None)
    if outcome is None:
        return Skip(target=target, reason=theirs or "nothing was generated")
    return Skip(target=target, reason=f"model: {outcome.reason or 'no test class kept'}; no-model generator: "
                                      f"{theirs or 'no test passed validation'}")


def _report(verdicts: Sequence[Verdict], reports: Sequence[ValidationReport]) -> ValidationReport | None:
    """One report of the final verdicts; its seconds add up every validation the run made."""
    if not reports:
        return None
    return merge_reports(reports).model_copy(update={"verdicts": tuple(verdicts)})

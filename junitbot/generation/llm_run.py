"""generate_with_backend: generation with any backend, the model's loop followed by correction, fallback and merge.

The template backend is `generate_tests` itself. With a model, the no-model generator's class shells are
the skeletons; `run_llm_loop` writes, validates and repairs tests; an `assertEquals` that failed only on
its expected literal gets the value the code returned, validated again; then the no-model generator runs
on every target the model's class does not cover completely: where the model kept nothing its class is
the fallback, and where both kept tests its methods are merged into the model's class when that raises
coverage. Each target's outcome says which (`origin`: llm, corrected, merged or template) and why (`notes`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from junitbot.analysis import CodeGraph, DependencyAnalyzer
from junitbot.config import JunitbotConfig
from junitbot.generation.backends import Backend, LLMSettings, choose_backend, get_backend
from junitbot.generation.context import ContextBuilder, TokenCounter, token_counter
from junitbot.generation.corrections import correct_expected
from junitbot.generation.generate import (
    GenerationResult,
    ProgressCallback,
    class_shell,
    generate_tests,
    generated_test_path,
)
from junitbot.generation.llm_loop import LoopTarget, Origin, TargetOutcome, run_llm_loop
from junitbot.generation.llm_output import parse_code
from junitbot.generation.models import Correction, Skip, TestShell
from junitbot.generation.prompts import prompt_environment
from junitbot.generation.similar import open_similar_tests
from junitbot.generation.skeleton import merge_into_shell
from junitbot.generation.targets import Target
from junitbot.state import StateDir
from junitbot.validation import (
    Classpath,
    TestCandidate,
    ValidationReport,
    Verdict,
    discover_classpath,
    validate_candidates,
)

log = logging.getLogger(__name__)


def generate_with_backend(
    targets: Sequence[Target],
    *,
    root: Path,
    graph: CodeGraph,
    config: JunitbotConfig,
    state: StateDir,
    commit: str | None,
    settings: LLMSettings | None = None,
    backend: Backend | None = None,
    progress: ProgressCallback | None = None,
) -> GenerationResult:
    """Tests for `targets` with the backend `settings` choose (or `backend`, already built); one result.

    The template backend gives exactly `generate_tests`. A model backend gives the model's tests, corrected,
    merged with or replaced by the no-model generator's as described in this module's docstring.
    """
    settings = settings or config.generation.llm_settings()
    if backend is None:
        choice = choose_backend(settings)
        if choice.name != "template":
            backend = get_backend(settings)
        else:
            log.info("generation backend: template (%s)", choice.source)
    if backend is None or backend.name == "template":
        return generate_tests(targets, root=root, graph=graph, config=config, state=state, commit=commit,
                              progress=progress)
    return _with_model(list(targets[: config.generation.max_classes_per_run]), backend, settings,
                       _Validator(root=root, graph=graph, config=config, state=state,
                                  classpath=discover_classpath(root, config.validation)),
                       commit=commit, progress=progress or (lambda stage, done, total: None))


@dataclass
class _Validator:
    """The real validator for the loop and the later stages; remembers every candidate and its verdict."""

    root: Path
    graph: CodeGraph
    config: JunitbotConfig
    state: StateDir
    classpath: Classpath
    reports: list[ValidationReport] = field(default_factory=list)
    seen: list[tuple[TestCandidate, Verdict]] = field(default_factory=list)

    def __call__(self, candidates: Sequence[TestCandidate]) -> tuple[Verdict, ...]:
        report = validate_candidates(list(candidates), root=self.root, graph=self.graph, config=self.config,
                                     state=self.state, classpath=self.classpath)
        self.reports.append(report)
        by_path = {c.path: c for c in candidates}
        self.seen += [(by_path[v.path], v) for v in report.verdicts if v.path in by_path]
        return report.verdicts

    def candidate_of(self, verdict: Verdict) -> TestCandidate | None:
        """The candidate as validated (failing methods still in) that got `verdict`."""
        return next((c for c, v in reversed(self.seen) if v == verdict), None)


def _with_model(targets: list[Target], backend: Backend, settings: LLMSettings, validator: _Validator, *,
                commit: str | None, progress: ProgressCallback) -> GenerationResult:
    seconds: dict[str, float] = {}
    tick = time.perf_counter()
    loop_targets = _loop_targets(targets, validator, commit)
    seconds["plan"] = time.perf_counter() - tick
    tick = time.perf_counter()
    with open_similar_tests(validator.state, validator.config, validator.root) as similar:
        builder = ContextBuilder(validator.graph, frameworks=validator.classpath.frameworks,
                                 budget=settings.context_tokens, counter=_counter(settings, backend),
                                 similar_tests=similar, k_similar=settings.similar_tests)
        outcomes = run_llm_loop(loop_targets, backend=backend, builder=builder,
                                env=prompt_environment(validator.root), validate=validator,
                                settings=settings) if loop_targets else []
    seconds["llm"] = time.perf_counter() - tick
    progress("llm", len(loop_targets), len(loop_targets))
    tick = time.perf_counter()
    outcomes = _correct(outcomes, validator)
    seconds["correct"] = time.perf_counter() - tick
    tick = time.perf_counter()
    # A kept model class that covers every line and branch leaves the no-model generator nothing to add.
    complete = {o.target for o in outcomes if o.status == "kept" and o.verdict and _complete(o.verdict)}
    rest = [t for t in targets if t.fqn not in complete]
    template = generate_tests(rest, root=validator.root, graph=validator.graph, config=validator.config,
                              state=validator.state, commit=commit, progress=progress) if rest else \
        GenerationResult(candidates=(), validation=None)
    seconds["template"] = time.perf_counter() - tick
    tick = time.perf_counter()
    template_verdicts = {v.target: v for v in (template.validation.verdicts if template.validation else ())}
    outcomes = _merge(outcomes, template_verdicts, validator)
    seconds["merge"] = time.perf_counter() - tick
    progress("merge", len(outcomes), len(outcomes))
    seconds.update({f"template_{k}": v for k, v in template.seconds.items()})
    return _result(targets, outcomes, template, template_verdicts, validator, backend.name,
                   {k: round(v, 3) for k, v in seconds.items()})


def _loop_targets(targets: Sequence[Target], validator: _Validator, commit: str | None) -> list[LoopTarget]:
    """Each known target with its test file and, where the no-model generator can build one, its skeleton."""
    analyzer = DependencyAnalyzer(validator.graph)
    found = []
    for target in targets:
        info = validator.graph.class_info(target.fqn)
        if info is None:
            continue  # the no-model generator reports it: "not in the graph"
        shell = class_shell(info, graph=validator.graph, analyzer=analyzer, frameworks=validator.classpath.frameworks,
                            config=validator.config, commit=commit)
        found.append(LoopTarget(fqn=info.fqn, path=generated_test_path(info, validator.config),
                                shell=shell if isinstance(shell, TestShell) else None))
    return found


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


# -- merge with the no-model generator ----------------------------------------------------------------------


@dataclass
class _Merge:
    outcome: TargetOutcome
    candidate: TestCandidate
    notes: tuple[str, ...]


def _merge(outcomes: Sequence[TargetOutcome], template: dict[str, Verdict],
           validator: _Validator) -> list[TargetOutcome]:
    """Per target, the kept class: the model's, the model's plus no-model methods, or the no-model one."""
    merges: list[_Merge] = []
    decided: dict[str, TargetOutcome] = {}
    for outcome in outcomes:
        other = template.get(outcome.target)
        mine = outcome.verdict if outcome.status == "kept" else None
        if mine is not None and _complete(mine):
            why: str | None = "the model's class covers every line and branch"
        elif mine is not None and mine.coverage is None:
            why = "no coverage was measured for the model's class"
        else:
            why = None
        both = mine is not None and other is not None and other.kept
        planned = _merged_candidate(mine, other) if mine and other and both and not why else None
        if planned is None:
            why = why or ("the classes could not be merged" if both else None)
            decided[outcome.target] = _without_merge(outcome, mine, other, why if mine else None)
        else:
            merges.append(_Merge(outcome, *planned))
    verdicts = {v.target: v for v in validator([m.candidate for m in merges])} if merges else {}
    for merge in merges:
        decided[merge.outcome.target] = _after_merge(merge, verdicts.get(merge.outcome.target),
                                                     template[merge.outcome.target])
    return [decided[o.target] for o in outcomes]


def _complete(verdict: Verdict) -> bool:
    coverage = verdict.coverage
    return coverage is not None and coverage.lines.missed == 0 and coverage.branches.missed == 0


def _merged_candidate(mine: Verdict, other: Verdict) -> tuple[TestCandidate, tuple[str, ...]] | None:
    """The model's kept class with the no-model class's members in (clashing test names get a suffix)."""
    code = parse_code(other.source or "")
    if code is None or mine.source is None:
        return None
    try:
        merge = merge_into_shell(mine.source, code)
    except ValueError:
        return None
    notes = tuple(f"no-model test {old} renamed to {new}" for old, new in merge.renamed)
    return TestCandidate(path=mine.path, source=merge.source, target=mine.target), notes


def _after_merge(merge: _Merge, merged: Verdict | None, other: Verdict) -> TargetOutcome:
    """Keep the merged class when every method passed and coverage grew, lines never lower; else the better one."""
    outcome = merge.outcome
    mine = outcome.verdict
    assert mine is not None  # only kept outcomes are merged
    if merged is not None and merged.kept and all(m.kept for m in merged.methods) and \
            _lines(merged) >= _lines(mine) and _covered(merged) > _covered(mine):
        added = tuple(m.name for m in merged.methods if m.name not in set(outcome.kept_methods))
        note = f"merged {len(added)} no-model tests: covered lines {_lines(mine)} → {_lines(merged)}, " \
               f"branches {_branches(mine)} → {_branches(merged)}"
        return outcome.model_copy(update={
            "origin": "merged", "merged_methods": added, "verdict": merged, "source": merged.source,
            "kept_methods": tuple(m.name for m in merged.methods), "notes": (*outcome.notes, *merge.notes, note)})
    if merged is None or not merged.kept or not all(m.kept for m in merged.methods):
        why = "the merged class failed some tests"
    else:
        why = "the no-model tests added no coverage"
    return _without_merge(outcome, mine, other, why)


def _without_merge(outcome: TargetOutcome, mine: Verdict | None, other: Verdict | None,
                   why: str | None) -> TargetOutcome:
    """The model's class, or the no-model class when the model kept none or it covers more lines."""
    notes: tuple[str, ...] = (f"not merged: {why}",) if why else ()
    own: Origin = "corrected" if outcome.corrections else "llm"
    if mine is not None and (other is None or not other.kept or _lines(other) <= _lines(mine)):
        return outcome.model_copy(update={"origin": own, "notes": (*outcome.notes, *notes)})
    if other is not None and other.kept:
        if mine is not None:
            notes += (f"the no-model class covers more lines ({_lines(other)} > {_lines(mine)}): it is kept",)
        return outcome.model_copy(update={"origin": "template", "notes": (*outcome.notes, *notes)})
    return outcome.model_copy(update={"origin": None, "notes": (*outcome.notes, *notes)})


def _lines(verdict: Verdict) -> int:
    return verdict.coverage.lines.covered if verdict.coverage else 0


def _branches(verdict: Verdict) -> int:
    return verdict.coverage.branches.covered if verdict.coverage else 0


def _covered(verdict: Verdict) -> int:
    return _lines(verdict) + _branches(verdict)


# -- the result ---------------------------------------------------------------------------------------------


def _result(targets: Sequence[Target], outcomes: Sequence[TargetOutcome], template: GenerationResult,
            template_verdicts: dict[str, Verdict], validator: _Validator, backend: str,
            seconds: dict[str, float]) -> GenerationResult:
    """Final verdicts, sources and skips per target, from the origin each outcome settled on."""
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
    return GenerationResult(candidates=candidates, validation=_report(verdicts, reports, validator.classpath),
                            skipped=tuple(skipped), scenarios=template.scenarios, observed=template.observed,
                            seconds=seconds, backend=backend, llm=tuple(outcomes))


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


def _report(verdicts: Sequence[Verdict], reports: Sequence[ValidationReport],
            classpath: Classpath) -> ValidationReport | None:
    """One report of the final verdicts; its seconds add up every validation the run made."""
    if not reports:
        return None
    seconds: dict[str, float] = {}
    for report in reports:
        for stage, value in report.seconds.items():
            seconds[stage] = round(seconds.get(stage, 0.0) + value, 3)
    return ValidationReport(verdicts=tuple(verdicts), classpath_source=classpath.source,
                            frameworks=classpath.frameworks, isolation=reports[-1].isolation,
                            main_build_reused=all(r.main_build_reused for r in reports),
                            main_build_failed=tuple(dict.fromkeys(f for r in reports for f in r.main_build_failed)),
                            seconds=seconds)

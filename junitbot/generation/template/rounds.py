"""The probe rounds of one module: probe runs, the feedback rounds after the first, the final tests, coverage rounds.

Each step takes the plans and what the rounds before it observed and returns what it adds: feedback rounds return the
plans with their new scenarios and what the first run taught; the final tests return what each class's tests say.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from junitbot.analysis import ClassInfo, remove_unused_imports
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.models import GenerationJob
from junitbot.generation.template.answers import answer_stub
from junitbot.generation.template.feedback import Refinement, refine
from junitbot.generation.template.final import Written, final_tests
from junitbot.generation.template.fixtures import named_fixtures
from junitbot.generation.template.identity import Amplified, amplified, settled
from junitbot.generation.template.observations import Observation, ObservedCall
from junitbot.generation.template.plan import ClassPlan, method_scenarios
from junitbot.generation.template.probe import ProbeClass, ProbeRun, Scenario, probe_method, run_probes
from junitbot.generation.template.results import result_calls
from junitbot.generation.template.scenarios import MORE_VARIANTS, callable_methods
from junitbot.generation.template.sequences import (
    ITERATORS,
    MAX_DEPTH,
    MAX_QUERIES,
    extend,
    locked,
    prefixes,
    queries,
)
from junitbot.validation import (
    Classpath,
    IndexedRepo,
    TestCandidate,
    ValidationReport,
    Verdict,
    review_sources,
    validate_candidates,
)


@dataclass(frozen=True)
class ModuleRun:
    """What generating one module's tests shares, built once per module: the job, the module's classpath, how its
    probes run, and how a test's fixtures find the repo type a name means."""

    job: GenerationJob
    classpath: Classpath
    probes: ProbeRun
    types: Callable[[str], ClassInfo | None]


def probe(plans: Sequence[ClassPlan], scenarios: Mapping[str, Sequence[Scenario]],
          run: ProbeRun) -> tuple[dict[str, Observation], dict[str, str]]:
    """Probe the scenarios (by target) of the plans that have some: (observations by scenario id, why a target's
    probe class did not compile)."""
    chosen = [p for p in plans if scenarios.get(p.target.fqn)]
    probes = [ProbeClass(path=p.path, source=p.shell.render([probe_method(s) for s in scenarios[p.target.fqn]],
                                                            imports=p.context.imports),
                         test_class=p.test_class) for p in chosen]
    observations, failed = run_probes(probes, run)
    by_class = {p.test_class: p.target.fqn for p in chosen}
    return observations, {by_class[name]: why for name, why in failed.items() if name in by_class}


def feedback(plans: Sequence[ClassPlan], observations: Mapping[str, Observation],
             run: ProbeRun) -> tuple[list[ClassPlan], dict[str, Observation]]:
    """The rounds after the first probe run: scenarios that died on a mock's default answer again with that call
    stubbed, scenarios without the stubs whose answers did not matter, and call sequences, each round extending the
    sequences that changed state with the calls still failing alone (the first round's with the others, in one probe
    run). The plans with their new scenarios and refinements, and every observation so far."""
    plans, seen = list(plans), dict(observations)
    unchanged: dict[str, list[Amplified]] = {}
    for depth in range(1, MAX_DEPTH):
        if depth == 1:
            plans = [replace(p, refinement=_refinement(p, seen)) for p in plans]
            unchanged = {p.target.fqn: amplified(p.scenarios, seen, prefix=f"i{n}") for n, p in enumerate(plans)}
        batch = {p.target.fqn: [*p.refinement.scenarios, *(v.scenario for v in unchanged[p.target.fqn])]
                 for p in plans} if depth == 1 else {}
        for number, plan in enumerate(plans):
            own = plan.info.fqn
            cursor = any(resolved_fqn(ref) in ITERATORS for ref in plan.info.implements)
            starts = [s for s in prefixes(plan.scenarios, seen, own_type=own, iterator=cursor)
                      if len(s.after) == depth - 1]
            found = extend(starts, locked(plan.scenarios, seen), prefix=f"q{depth}c{number}") if starts else []
            if depth == 1:
                found += extend(prefixes(plan.scenarios, seen, void_too=True, own_type=own),
                                queries(plan.scenarios, seen), prefix=f"u{depth}c{number}", limit=MAX_QUERIES)
            if depth == 2:  # once the queries after state-changing calls ran: what the objects they made do
                found += result_calls(plan.context, plan.scenarios, seen, prefix=f"t{depth}c{number}")
            batch.setdefault(plan.target.fqn, []).extend(found)
        batch = {fqn: found for fqn, found in batch.items() if found}
        if not batch:
            break
        more, _ = probe(plans, batch, run)
        seen.update(more)
        plans = [replace(p, scenarios=(*p.scenarios, *batch.get(p.target.fqn, []))) for p in plans]
    return [replace(p, refinement=_settled(p.refinement, unchanged.get(p.target.fqn, []), seen)) for p in plans], seen


def _settled(refinement: Refinement, variants: Sequence[Amplified],
             observations: Mapping[str, Observation]) -> Refinement:
    """A text input handed back unchanged: its test goes where a variant's input came back changed, and variants
    that came back unchanged as well go."""
    superseded, unchanged = settled(variants, observations)
    return replace(refinement, superseded=superseded, redundant=refinement.redundant | unchanged)


def _refinement(plan: ClassPlan, observations: dict[str, Observation]) -> Refinement:
    """The scenarios the first probe run's observations call for (feedback.refine)."""
    def stub_for(call: ObservedCall) -> str | None:
        return answer_stub(plan.context, call.mock, call.method, call.arguments)
    return refine(plan.scenarios, observations, stub_for=stub_for)


def final_methods(plan: ClassPlan, scenarios: Sequence[Scenario], observations: Mapping[str, Observation],
                  written: Written) -> tuple[Written, list[str]]:
    """New tests for scenarios whose outcome both probe runs agreed on, skipping outcomes already tested: what the
    class's tests say with them, and their names."""
    return final_tests(scenarios, observations, context=plan.context, written=written, refinement=plan.refinement,
                       known={s.id: s for s in plan.scenarios})


def candidate(plan: ClassPlan, written: Written, run: ModuleRun) -> TestCandidate:
    """The test class of `plan` with the methods written, repeated literals made named fixtures."""
    # The imports are collected for every scenario tried (and the shell adds `Mockito.*` whenever Mockito is
    # there): the final class keeps only those its methods use.
    fixtures = named_fixtures(list(written.methods.values()), lookup=run.types)
    shell = plan.shell.model_copy(update={"fields": (*plan.shell.fields, *fixtures.fields)})
    source = remove_unused_imports(shell.render([*fixtures.methods, *fixtures.helpers], imports=plan.context.imports))
    return TestCandidate(path=plan.path, source=source, target=plan.target.fqn)


def coverage_round(run: ModuleRun, plans: Sequence[ClassPlan], written: Mapping[str, Written],
                   validation: ValidationReport, number: int) -> tuple[ValidationReport, dict[str, Written], bool]:
    """Aim new scenarios at methods with uncovered lines; a class keeps them only if they add to it (`adds_to`).
    (The report with the verdicts that improved, what each class's tests say now, whether any class improved.)"""
    job = run.job
    verdicts = {v.target: v for v in validation.verdicts}
    now = dict(written)
    extra: dict[str, list[Scenario]] = {}
    for index, plan in enumerate(plans):
        fqn = plan.target.fqn
        verdict = verdicts.get(fqn)
        if verdict is None or not verdict.kept or verdict.coverage is None:
            continue
        # Methods already dropped stay dropped: keep only what validation kept.
        now[fqn] = now[fqn].keeping({m.name for m in verdict.methods if m.kept})
        missed = set(verdict.coverage.uncovered_lines) | set(verdict.coverage.partly_covered_lines)
        for count, method in enumerate(callable_methods(plan.info, through_constants=plan.through_constants,
                                                        lookup=plan.context.lookup)):
            span = method.span
            if span is None or not any(span.start_line <= line <= span.end_line for line in missed):
                continue
            extra.setdefault(fqn, []).extend(method_scenarios(plan, method, prefix=f"r{number}c{index}m{count}",
                                                              extra_variants=MORE_VARIANTS))
    if not extra:
        return validation, now, False
    observations, failed = probe(plans, extra, run.probes)
    before: dict[str, Written] = {}
    added: dict[str, set[str]] = {}
    candidates = []
    for plan in plans:
        fqn = plan.target.fqn
        if fqn not in extra or fqn in failed:
            continue
        before[fqn] = now[fqn]
        now[fqn], new = final_methods(plan, extra[fqn], observations, now[fqn])
        if new:
            added[fqn] = set(new)
            candidates.append(candidate(plan, now[fqn], run))
    if not candidates:
        return validation, now, False
    again = validate_candidates(candidates, repo=IndexedRepo(root=job.root, graph=job.graph, state=job.state),
                                config=job.config, classpath=run.classpath)
    improved = {v.target: v for v in again.verdicts
                if v.target is not None and adds_to(v, verdicts[v.target], added.get(v.target, set()))}
    for fqn, previous in before.items():
        if fqn not in improved:  # the new tests added nothing: drop them
            now[fqn] = Written(previous.methods, now[fqn].outcomes, now[fqn].bodies, previous.made_up,
                               previous.chosen)
    merged = tuple(improved.get(v.target or "", v) for v in validation.verdicts)
    # The lint's counts are the kept files', as they are after the round.
    review = review_sources(v.source for v in merged if v.kept and v.source is not None)
    return validation.model_copy(update={"verdicts": merged, "review": review}), now, bool(improved)


def adds_to(again: Verdict, before: Verdict, new_methods: Collection[str]) -> bool:
    """Whether a class's tests with a coverage round's `new_methods` (`again`) add to those it had (`before`): their
    coverage grows, or a new method is kept for what it adds (the keep rule's judgment: an edge or a mutant the
    existing tests and the methods before it leave). A test that kills a mutant on lines already covered (an
    invalid code point that a removed check lets through) adds no coverage, but is what the round is for. Never
    where they cover or kill less than before (a test on made-up texts the round's own replaced)."""
    if not again.kept or _covered(again) < _covered(before) or _killed(again) < _killed(before):
        return False
    if _covered(again) > _covered(before):
        return True
    return any(m.kept and m.adds and m.name in new_methods for m in again.methods)


def _killed(verdict: Verdict) -> int:
    """The mutants the class's suite kills with its kept methods, where measured (0 where not)."""
    mutants = verdict.gain.after.mutants if verdict.gain is not None else None
    return 0 if mutants is None else mutants.covered


def _covered(verdict: Verdict) -> int:
    coverage = verdict.coverage
    return 0 if coverage is None else coverage.lines.covered + coverage.branches.covered

"""The keep rule: what each passing test method adds beyond the repository's own tests (TestGen-LLM's filter, with
mutants), and the class's suite before → after the kept methods.

A method stays only if it covers an edge or kills a mutant that the existing tests of its class and the methods
before it do not (`validation.require_gain`, junitbot's tests only). Without the rule nothing is dropped, but what
each method adds and the suite's figures are measured all the same.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from junitbot.analysis import CodeGraph, parse_test_class
from junitbot.errors import JunitbotError
from junitbot.validation.context import ValidationContext
from junitbot.validation.judge.models import Candidacy, SuiteFigures, SuiteGain
from junitbot.validation.judge.selection import (
    COVERED_BY_EXISTING,
    COVERED_UNMEASURED,
    NOTHING_NEW,
    select_methods,
)
from junitbot.validation.measure.baseline import Baseline, measure_baselines
from junitbot.validation.measure.models import ClassCoverage, Counter, Mutant, MutationReport, PitOptions, ProbeHits
from junitbot.validation.measure.pit import run_mutation_analysis

log = logging.getLogger(__name__)


def keep_what_adds(
    classes: Sequence[Candidacy], hits: Mapping[str, ProbeHits], *, context: ValidationContext, graph: CodeGraph,
    replaced: Sequence[str],
) -> list[Candidacy]:
    """Each class (naming its target) after the keep rule: per method what it adds, the methods that add nothing
    dropped (or the class, saying its own tests already do everything), the suite's gain and the mutants nobody
    kills. `hits`: per-test probes of the run just made; `replaced`: the files the candidates will replace."""
    settings = context.settings
    targets = sorted({c.candidate.target for c in classes if c.candidate.target is not None})
    try:
        baselines = measure_baselines(targets, context=context, graph=graph, replaced=replaced,
                                      mutation=settings.mutation)
    except JunitbotError as e:  # the existing tests could not be measured: judge the new ones against nothing
        log.warning("the existing tests could not be measured as the baseline: %s", e)
        baselines = {t: Baseline(target=t, note=f"existing tests not measured: {e}") for t in targets}
    settled = settled_methods([baselines[t] for t in targets])
    mutants = None
    if settings.mutation:
        options = PitOptions(tools_dir=context.tools_dir, java_home=context.java_home, isolation=context.isolation,
                             history_file=_pit_history(context), excluded_methods=settled)
        mutants = within_budget(lambda o: _mutants(targets, classes, context=context, graph=graph, options=o),
                                options)
    if mutants is not None and (mutants.error or mutants.timed_out):
        log.warning("mutation analysis: %s", mutants.error or "PIT ran out of its time budget")
    judged = []
    for candidacy in classes:
        binary = graph.binary_name(candidacy.candidate.target or "")
        prune = settings.require_gain and candidacy.candidate.written_by == "junitbot"
        judged.append(_judged(candidacy, hits, baselines[candidacy.candidate.target or ""],
                              _class_mutants(mutants, binary), binary, prune))
    return judged


def within_budget(analyse: Callable[[PitOptions], MutationReport], options: PitOptions) -> MutationReport:
    """`analyse` with `options`, and where that ran out of its time budget, once more naming only the first killer
    of each mutant: running every test of every mutant (the full matrix) is what overran, and a kill credited to
    one method beats no kill known at all (the keep rule would judge by coverage alone)."""
    report = analyse(options)
    if report.timed_out and options.full_matrix:
        log.info("mutation analysis: PIT ran out of its time budget naming every killer; again, naming the first")
        report = analyse(options.model_copy(update={"full_matrix": False}))
    return report


def _mutants(targets: Sequence[str], classes: Sequence[Candidacy], *, context: ValidationContext, graph: CodeGraph,
             options: PitOptions) -> MutationReport:
    return run_mutation_analysis(
        target_classes=[graph.binary_name(t) for t in targets], test_classes=[c.test_class for c in classes],
        classpath=context.test_classpath, workdir=context.scratch / "pit", settings=context.settings, options=options)


def settled_methods(baselines: Sequence[Baseline]) -> tuple[str, ...]:
    """The names of the methods in which the existing tests kill every mutant, in each of `baselines`: no new test
    can add a kill there, so the keep rule's PIT run leaves them out (PIT's `--excludedMethods` matches names, so
    a name stays in where any target has a survivor in a method so named). Nothing is left out where a target's
    existing mutants are unknown (no tests, or PIT failed on them)."""
    if not baselines or any(b.empty or b.mutants_total is None for b in baselines):
        return ()
    killed = {_method_of(key) for b in baselines for key in b.mutants_killed}
    alive = {described.split("@", 1)[0] for b in baselines for described in b.mutants_alive}
    return tuple(sorted(killed - alive))


def _method_of(key: str) -> str:
    """`Mutant.key`'s method name: `com.acme.Foo$Inner.format(J)V@12:...` → `format`."""
    return key.split("@", 1)[0].split("(", 1)[0].rsplit(".", 1)[-1]


def _judged(
    candidacy: Candidacy, hits: Mapping[str, ProbeHits], baseline: Baseline, mine: Sequence[Mutant], binary: str,
    prune: bool,
) -> Candidacy:
    """One class under the rule: `mine` are its target's mutants; `prune` drops what adds nothing. Fewer than the
    baseline's: methods whose every mutant the existing tests kill were not mutated (`settled_methods`), so the
    class's total is the baseline's and what the generated tests kill alone is not known."""
    partial = baseline.mutants_total is not None and 0 < len(mine) < baseline.mutants_total
    # Whether the existing tests' kills are known (none, or PIT measured them). A kill counts as new only against
    # kills that were measured: where PIT failed on the existing tests, every mutant a generated test kills may be
    # one they kill too, so such a class is judged by its coverage alone.
    known = baseline.empty or baseline.mutants_total is not None
    kills: dict[str, set[str]] = defaultdict(set)
    for mutant in mine if known else ():
        for test in mutant.killing_tests:
            kills[test].add(mutant.key)
    test_class, dropped = candidacy.test_class, dict(candidacy.dropped)
    methods = [m for m in parse_test_class(candidacy.source).test_names if m not in dropped]
    gains = select_methods([f"{test_class}#{m}" for m in methods], hits=hits, kills=kills,
                           baseline_probes=baseline.probes, baseline_kills=baseline.mutants_killed, classes=[binary])
    adds = dict(candidacy.adds)
    for method in methods:
        added = gains[f"{test_class}#{method}"]
        if added.adds:
            adds[method] = added.describe()
        elif prune:
            dropped[method] = NOTHING_NEW
    total = baseline.mutants_total if partial else len(mine) if mine else None
    before = None if baseline.empty else _figures(
        baseline.coverage, len(baseline.mutants_killed) if total and known else None, total)
    if not adds and prune:
        failure = NOTHING_NEW if baseline.empty else COVERED_BY_EXISTING if mine and known else COVERED_UNMEASURED
        return candidacy.model_copy(update={"dropped": dropped, "adds": adds, "failure": failure,
                                            "baseline": before})
    kept_ids = {f"{test_class}#{m}" for m in methods if m not in dropped}
    generated = {m.key for m in mine if set(m.killing_tests) & kept_ids}
    gain = SuiteGain(
        existing_tests=baseline.tests,
        before=before,
        generated=_figures(None, len(generated) if total and not partial else None, total),
        after=_figures(None, len(set(baseline.mutants_killed) | generated) if total and known else None, total),
        note=baseline.note)
    # What no test kills yet, for the model's next round (issue 17: mutant-guided prompts, as Meta's ACH).
    killed = generated | set(baseline.mutants_killed)
    survivors = tuple(f"line {m.line}: {m.description or m.mutator} (in {m.method})"
                      for m in sorted(mine, key=lambda m: (m.line, m.key)) if m.key not in killed)
    return candidacy.model_copy(update={"dropped": dropped, "adds": adds, "gain": gain, "baseline": before,
                                        "baseline_exec": baseline.exec_file, "survivors": survivors})


def with_coverage(candidacy: Candidacy, generated: ClassCoverage, with_existing: ClassCoverage | None) -> Candidacy:
    """The class with its gain's lines and branches: the kept methods' alone (`generated`), and with the existing
    tests' (`with_existing`, their exec data merged with the kept methods'; `generated` when not measured)."""
    gain = candidacy.gain
    if gain is None:
        return candidacy
    after = with_existing or generated
    return candidacy.model_copy(update={"gain": gain.model_copy(update={
        "generated": gain.generated.model_copy(update={"lines": generated.lines, "branches": generated.branches}),
        "after": gain.after.model_copy(update={"lines": after.lines, "branches": after.branches})})})


def _figures(coverage: ClassCoverage | None, killed: int | None, total: int | None) -> SuiteFigures:
    mutants = None if killed is None or total is None else Counter(covered=killed, missed=max(0, total - killed))
    if coverage is None:
        return SuiteFigures(mutants=mutants)
    return SuiteFigures(lines=coverage.lines, branches=coverage.branches, mutants=mutants)


def _class_mutants(report: MutationReport | None, binary: str) -> list[Mutant]:
    if report is None or report.error or report.timed_out:
        return []
    return [m for m in report.mutants if m.class_name == binary or m.class_name.startswith(binary + "$")]


def _pit_history(context: ValidationContext) -> Path:
    return context.state_root / "pit" / (context.module.module.replace("/", "_") or "_root") / "history.bin"

"""Merge of the model's kept class with the no-model generator's: the model path never keeps less than the
no-model path on the same class (issue 17).

Per target: the model's class, the model's class with the no-model methods in (clashing names renamed; one that
fails beside the model's is left out), or the no-model class when the model kept nothing or its class covers and
kills less (lines + branches + mutants killed). Each outcome says why (`notes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from junitbot.generation.llm.answer import parse_code
from junitbot.generation.llm.loop import Validate
from junitbot.generation.llm.skeleton import merge_into_shell
from junitbot.generation.models import Origin, TargetOutcome
from junitbot.validation import TestCandidate, Verdict


@dataclass
class _Merge:
    outcome: TargetOutcome
    candidate: TestCandidate
    notes: tuple[str, ...]


def merge_outcomes(outcomes: Sequence[TargetOutcome], template: dict[str, Verdict],
                   validate: Validate) -> list[TargetOutcome]:
    """Per target, the kept class: the model's, the model's plus no-model methods, or the no-model one."""
    merges: list[_Merge] = []
    decided: dict[str, TargetOutcome] = {}
    for outcome in outcomes:
        other = template.get(outcome.target)
        mine = outcome.verdict if outcome.status == "kept" else None
        if mine is not None and complete(mine):
            why: str | None = "the model's class covers every line and branch and kills every mutant measured"
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
    verdicts = {v.target: v for v in validate([m.candidate for m in merges])} if merges else {}
    for merge in merges:
        decided[merge.outcome.target] = _after_merge(merge, verdicts.get(merge.outcome.target),
                                                     template[merge.outcome.target])
    return [decided[o.target] for o in outcomes]


def complete(verdict: Verdict) -> bool:
    """Every line and branch of the class under test covered and every mutant measured killed: nothing left for
    another generator to add (issue 17: a model class covering every line of a class but killing a third of its
    mutants kept the no-model class's 100 % from being tried). Where the class's existing tests were measured, the
    mutants are those left alive by them and the kept tests together: the kept tests alone may have no score of their
    own (the keep rule's PIT leaves out methods whose mutants the suite kills), which says nothing of the mutants the
    suite leaves alive (joda-money's CurrencyMismatchException: the model's 4 tests kept whole, the no-model
    generator's never tried)."""
    coverage = verdict.coverage
    gain = verdict.gain
    mutants = None
    if gain is not None:
        suite_measured = gain.before is not None and gain.before.mutants is not None
        mutants = gain.after.mutants if suite_measured else gain.generated.mutants
    return coverage is not None and coverage.lines.missed == 0 and coverage.branches.missed == 0 and \
        (mutants is None or mutants.missed == 0)


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
    """Keep the merged class when every method the model kept is still kept and it covers or kills more than the
    model's class and no less than the no-model one (a no-model method that fails beside the model's is dropped
    there, as validation drops any failing method); else the better of the two."""
    outcome = merge.outcome
    mine = outcome.verdict
    assert mine is not None  # only kept outcomes are merged
    kept = {m.name for m in merged.methods if m.kept} if merged is not None and merged.kept else set()
    if merged is not None and set(outcome.kept_methods) <= kept and _score(merged) > _score(mine) and \
            _score(merged) >= _score(other):
        added = tuple(m.name for m in merged.methods if m.kept and m.name not in set(outcome.kept_methods))
        failed = [m.name for m in merged.methods if not m.kept]
        note = f"merged {len(added)} no-model tests: covered lines {_lines(mine)} → {_lines(merged)}, " \
               f"branches {_branches(mine)} → {_branches(merged)}, mutants killed {_killed(mine)} → {_killed(merged)}"
        notes = (*outcome.notes, *merge.notes, note,
                 *([f"no-model tests left out of the merge (failed beside the model's): {', '.join(failed)}"]
                   if failed else []))
        return outcome.model_copy(update={
            "origin": "merged", "merged_methods": added, "verdict": merged, "source": merged.source,
            "kept_methods": tuple(sorted(kept, key=[m.name for m in merged.methods].index)), "notes": notes})
    if merged is None or not set(outcome.kept_methods) <= kept:
        why = "the merged class failed some of the model's tests"
    else:
        why = "the no-model tests added no coverage and killed no more mutants"
    return _without_merge(outcome, mine, other, why)


def _without_merge(outcome: TargetOutcome, mine: Verdict | None, other: Verdict | None,
                   why: str | None) -> TargetOutcome:
    """The model's class, or the no-model class when the model kept none or it covers and kills more."""
    notes: tuple[str, ...] = (f"not merged: {why}",) if why else ()
    own: Origin = "corrected" if outcome.corrections else "llm"
    if mine is not None and (other is None or not other.kept or _score(other) <= _score(mine)):
        return outcome.model_copy(update={"origin": own, "notes": (*outcome.notes, *notes)})
    if other is not None and other.kept:
        if mine is not None:
            notes += (f"the no-model class covers or kills more (lines {_lines(other)} vs {_lines(mine)}, mutants "
                      f"killed {_killed(other)} vs {_killed(mine)}): it is kept",)
        return outcome.model_copy(update={"origin": "template", "notes": (*outcome.notes, *notes)})
    return outcome.model_copy(update={"origin": None, "notes": (*outcome.notes, *notes)})


def _score(verdict: Verdict) -> int:
    """What a class's tests reach: covered lines and branches, and mutants killed (each counts one)."""
    return _covered(verdict) + _killed(verdict)


def _killed(verdict: Verdict) -> int:
    mutants = verdict.gain.generated.mutants if verdict.gain else None
    return mutants.covered if mutants else 0


def _lines(verdict: Verdict) -> int:
    return verdict.coverage.lines.covered if verdict.coverage else 0


def _branches(verdict: Verdict) -> int:
    return verdict.coverage.branches.covered if verdict.coverage else 0


def _covered(verdict: Verdict) -> int:
    return _lines(verdict) + _branches(verdict)

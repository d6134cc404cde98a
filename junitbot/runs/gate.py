"""The build gate's verdicts applied to a run's generation result: what `mvn test` dropped leaves it."""

from __future__ import annotations

from collections.abc import Mapping

from junitbot.analysis import remove_methods
from junitbot.generation import GenerationResult, TargetOutcome
from junitbot.validation import GateClass, GateResult, MethodVerdict, Severity, TestCandidate, ValidationIssue, Verdict

JUNITBOT_RUNNER = "junitbot runner"


def apply_gate(result: GenerationResult, gate: GateResult) -> GenerationResult:
    """`result` with the gate recorded and what the build dropped taken out of its verdicts (methods, sources,
    whole classes), its candidates and its model outcomes."""
    seconds = {**result.seconds, **({"build_gate": gate.seconds} if gate.ran else {})}
    judged = {c.path: c for c in gate.classes if c.dropped or not c.kept}
    if not judged:
        return result.model_copy(update={"gate": gate, "seconds": seconds})
    validation = result.validation
    verdicts = {v.path: _verdict(v, judged[v.path], gate.runner)
                for v in (validation.verdicts if validation else ()) if v.path in judged}
    if validation is not None:
        validation = validation.model_copy(update={"verdicts": tuple(verdicts.get(v.path, v)
                                                                     for v in validation.verdicts)})
    candidates = tuple(_candidate(c, judged.get(c.path)) for c in result.candidates
                       if c.path not in judged or judged[c.path].kept)
    llm = tuple(_outcome(o, judged[o.path], verdicts.get(o.path)) if o.path in judged else o for o in result.llm)
    return result.model_copy(update={"gate": gate, "seconds": seconds, "validation": validation,
                                     "candidates": candidates, "llm": llm})


def judged_by(verdict: Verdict | None, gate: GateResult | None) -> tuple[str, ...]:
    """Which runners said pass or fail for the class of `verdict`: junitbot's, and the build's when it judged."""
    if verdict is None or not verdict.compiled:
        return ()
    judged = gate is not None and any(c.path == verdict.path and c.judged for c in gate.classes)
    return (JUNITBOT_RUNNER, gate.runner) if judged and gate is not None else (JUNITBOT_RUNNER,)


def _verdict(verdict: Verdict, gated: GateClass, runner: str) -> Verdict:
    dropped = {m.name: m.reason or "" for m in gated.dropped}
    whole = None if gated.kept else gated.reason or f"dropped by {runner}"
    methods = tuple(MethodVerdict(name=m.name, kept=False, reason=dropped.get(m.name) or whole)
                    if m.kept and (m.name in dropped or whole) else m for m in verdict.methods)
    kept = gated.kept and any(m.kept for m in methods)
    issues = verdict.issues if whole is None else (*verdict.issues, ValidationIssue(
        severity=Severity.ERROR, pass_name="build", category="build-failure", message=f"{runner}: {whole}"))
    return verdict.model_copy(update={"methods": methods, "kept": kept, "issues": issues,
                                      "source": gated.source if kept else None})


def _candidate(candidate: TestCandidate, gated: GateClass | None) -> TestCandidate:
    if gated is None:
        return candidate
    return candidate.model_copy(update={"source": remove_methods(candidate.source, {m.name for m in gated.dropped})})


def _outcome(outcome: TargetOutcome, gated: GateClass, verdict: Verdict | None) -> TargetOutcome:
    dropped: Mapping[str, str] = {m.name: m.reason or "" for m in gated.dropped}
    update: dict[str, object] = {
        "kept_methods": tuple(m for m in outcome.kept_methods if gated.kept and m not in dropped),
        "dropped_methods": (*outcome.dropped_methods, *(m for m in dropped if m not in outcome.dropped_methods)),
        "source": gated.source, "verdict": verdict or outcome.verdict}
    if not gated.kept:
        update |= {"status": "failed", "origin": None, "reason": gated.reason}
    return outcome.model_copy(update=update)

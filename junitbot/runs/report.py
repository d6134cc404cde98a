"""The run's report: one ClassResult per target from the generation result, saved as JSON and markdown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from junitbot.generation import GenerationResult, Skip, Target, TargetOutcome
from junitbot.quoting import inline_code, markdown_cell
from junitbot.runs.gate import judged_by
from junitbot.runs.models import ChangeCheck, ClassResult, ModuleSummary, RunReport, new_run_id
from junitbot.state import StateDir
from junitbot.validation import DependencyAdvice, GateResult, SuiteFigures, Verdict, missing_test_dependencies

# Where a run shows that a test needed junit-jupiter-params: javac's complaint, or a test the model wrote.
_PARAMS = ("org.junit.jupiter.params", "@ParameterizedTest")
_NO_MOCKITO = "has no Mockito"
_VALUE_CHARS = 120
_LISTED = 15  # classes left alone named in the report; a change to a widely used class reaches hundreds


def class_results(targets: Sequence[Target], result: GenerationResult) -> tuple[ClassResult, ...]:
    """What became of each target: kept or dropped tests with coverage, or why it was skipped; and its origin."""
    verdicts = {v.target: v for v in (result.validation.verdicts if result.validation else ())}
    outcomes = {o.target: o for o in result.llm}
    return tuple(_with_gate(_with_origin(_plain_result(t.fqn, t.reason, verdicts.get(t.fqn), result.skipped), result,
                                         outcomes.get(t.fqn)), verdicts.get(t.fqn), result.gate) for t in targets)


def _with_gate(result: ClassResult, verdict: Verdict | None, gate: GateResult | None) -> ClassResult:
    """Which runners judged the class; when the build ran but did not judge it, a note saying why."""
    gated = next((c for c in gate.classes if verdict and c.path == verdict.path), None) if gate else None
    notes = result.notes
    if gate is not None and gated is not None and not gated.judged:
        notes = (*notes, f"not judged by {gate.runner}: {gated.reason}")
    return result.model_copy(update={"judged_by": judged_by(verdict, gate), "notes": notes})


def _dropped_because(verdict: Verdict) -> str | None:
    """Why a class kept nothing: what dropped most of its methods (`failed: expected 3, got 4`, `adds nothing the
    existing tests do not`), with how many of its methods it dropped."""
    reasons = Counter(m.reason for m in verdict.methods if not m.kept and m.reason)
    if not reasons:
        return None
    reason, count = reasons.most_common(1)[0]
    return f"{count} of {len(verdict.methods)} methods dropped: {reason}"


def _plain_result(target: str, reason: str, verdict: Verdict | None, skipped: Sequence[Skip]) -> ClassResult:
    skip = next((s for s in skipped if s.target == target), None)
    if skip is not None:
        return ClassResult(target=target, status="skipped", reason=skip.reason)
    if verdict is None:
        return ClassResult(target=target, status="skipped", reason="nothing was generated")
    coverage = verdict.coverage
    return ClassResult(
        target=target,
        status="kept" if verdict.kept else "dropped",
        reason=reason if verdict.kept else _dropped_because(verdict) or reason,
        test_path=verdict.path,
        kept=tuple(m.name for m in verdict.methods if m.kept),
        dropped=tuple((m.name, m.reason or "") for m in verdict.methods if not m.kept),
        line_coverage=coverage.lines.ratio if coverage else None,
        branch_coverage=coverage.branches.ratio if coverage else None,
        issues=tuple(f"{i.severity.value} {i.category}: {i.message}" for i in verdict.issues
                     if i.severity.value == "ERROR"),
        mutation_score=verdict.gain.generated.mutation_score if verdict.gain else None,
        gain=verdict.gain,
        baseline=verdict.baseline,
    )


def _with_origin(result: ClassResult, generation: GenerationResult, outcome: TargetOutcome | None) -> ClassResult:
    """Where a kept class came from and what the model run did to it (rounds, tokens, corrections)."""
    if outcome is None:
        return result.model_copy(update={"origin": generation.origin(result.target)})
    notes = [f"round {r.round} ({r.status}): {'fixed ' if r.fixed else ''}"
             f"{'; '.join(r.fixed) or '; '.join(r.problems[:3]) or r.status}" for r in outcome.history]
    return result.model_copy(update={
        "origin": generation.origin(result.target), "model": outcome.model, "rounds": outcome.rounds,
        "tokens_in": outcome.tokens_in, "tokens_out": outcome.tokens_out, "notes": (*notes, *outcome.notes),
        "corrections": outcome.corrections, "attempts": outcome.history, "merged_methods": outcome.merged_methods})


def dependency_advice(result: GenerationResult) -> tuple[DependencyAdvice, ...]:
    """The test dependencies the module lacks for the generated tests, from what the run saw."""
    if result.frameworks is None:
        return ()
    verdicts = result.validation.verdicts if result.validation else ()
    texts = [*(i.message for v in verdicts for i in v.issues), *(v.source or "" for v in verdicts),
             *(o.source or "" for o in result.llm), *(p for o in result.llm for r in o.history for p in r.problems)]
    parameterized = any(marker in text for text in texts for marker in _PARAMS)
    mocking = any(_NO_MOCKITO in s.reason for s in result.skipped)
    return tuple(missing_test_dependencies(result.frameworks, release=result.java_release,
                                           parameterized=parameterized, mocking=mocking))


def module_summaries(result: GenerationResult) -> tuple[ModuleSummary, ...]:
    """Each module's classpath and test stack, as the run found them."""
    if result.classpath is None:
        return ()
    return tuple(ModuleSummary(
        module=m.module, source=m.source, entries=len(m.entries), release=m.release,
        junit_jupiter=m.frameworks.junit_jupiter, mockito=m.frameworks.mockito,
        mockito_extension=m.frameworks.mockito_extension, assertj=m.frameworks.assertj,
        main_classes="build" if m.main_classes else "junitbot") for m in result.classpath.modules)


def module_table(report: RunReport) -> list[str]:
    """The build's modules as a markdown table (empty without a build)."""
    if not report.modules:
        return []
    lines = ["", f"## Build ({report.resolution or 'none'})", "",
             "| module | classpath | release | JUnit Jupiter | Mockito | AssertJ | main classes by |",
             "|---|---|---|---|---|---|---|"]
    for m in report.modules:
        mockito = f"{m.mockito}{' + mockito-junit-jupiter' if m.mockito_extension else ''}" if m.mockito else "–"
        lines.append(f"| `{m.module or '.'}` | {m.source}, {m.entries} entries | {m.release or '–'} | "
                     f"{m.junit_jupiter or '–'} | {mockito} | {m.assertj or '–'} | {m.main_classes} |")
    return lines


def run_directory(state: StateDir, run_id: str) -> Path:
    """Where one run's report, and the prompts and answers of its model rounds, are kept."""
    return state.root / "runs" / run_id


def save_report(report: RunReport, state: StateDir) -> RunReport:
    """Write report.json and report.md into the run's directory (where its prompts may already be); returns the
    report with its path."""
    directory = run_directory(state.ensure(), report.run_id or new_run_id())
    directory.mkdir(parents=True, exist_ok=True)
    report = report.model_copy(update={"report_dir": str(directory)})
    (directory / "report.json").write_text(report.model_dump_json(indent=2))
    (directory / "report.md").write_text(markdown_report(report))
    return report


def percent(value: float | None) -> str:
    """A ratio as a whole percentage, or an en dash when it was not measured."""
    return "–" if value is None else f"{value:.0%}"


def markdown_report(report: RunReport) -> str:
    """The run as markdown: a summary line, a table per class, dropped tests with reasons."""
    lines = [
        "# junitbot run",
        "",
        f"{report.kept} of {report.targets} classes got tests ({report.mode}; backend `{report.backend}`"
        f"{f' ({report.backend_reason})' if report.backend_reason else ''}"
        f"{'; dry run, nothing written' if report.dry_run else ''}).",
        "",
        *([gate_summary(report.gate), ""] if report.gate else []),
        *([f"**Not published**: {report.publish_blocked}.", ""] if report.publish_blocked else []),
        *(change_lines(report.changes) if report.changes else []),
        "| class | status | from | tests kept | dropped | lines | branches | mutants killed | judged by | note |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report.results:
        note = r.reason.replace("|", "\\|")
        lines.append(f"| `{r.target}` | {r.status} | {r.origin or '–'} | {len(r.kept)} | {len(r.dropped)} | "
                     f"{percent(r.line_coverage)} | {percent(r.branch_coverage)} | {percent(r.mutation_score)} | "
                     f"{', '.join(r.judged_by) or '–'} | {note} |")
    lines += suite_table(report)
    if report.review is not None:
        lines += ["", "## Reviewer lint", "", f"Over the {report.review.classes} kept test "
                  f"file{'s' if report.review.classes != 1 else ''}: {report.review.total} finding"
                  f"{'s' if report.review.total != 1 else ''}.", "", *report.review.markdown_rows()]
    if report.gate and report.gate.errors:
        lines += ["", f"Maven's first errors ({report.gate.runner}):", "", "```", *report.gate.errors, "```"]
    lines += expectation_lines(report.results)
    model_runs = [r for r in report.results if r.model]
    if model_runs:
        lines += ["", "## Model", "", "| class | model | rounds | tokens in | tokens out | prompts and answers |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| `{r.target}` | {r.model} | {r.rounds} | {r.tokens_in} | {r.tokens_out} | "
                  f"{transcript_links(r)} |" for r in model_runs]
    noted = [(r.target, note) for r in report.results for note in r.notes]
    if noted:
        lines += ["", "## Notes", ""]
        lines += [f"- `{target}`: {note}" for target, note in noted]
    dropped = [(r.target, name, why) for r in report.results for name, why in r.dropped]
    if dropped:
        lines += ["", "## Dropped tests", ""]
        lines += [f"- `{target}.{name}`: {why}" for target, name, why in dropped]
    if report.advice:
        lines += ["", "## Test dependencies to add", ""]
        for advice in report.advice:
            lines += [f"- `{advice.coordinates}`: {advice.reason}.", "", "```xml", advice.pom_snippet, "```", ""]
        lines.pop()
    lines += module_table(report)
    if report.files:
        lines += ["", "## Files", ""]
        lines += [f"- {f.action}: `{f.path}`" + (f" ({f.reason})" if f.reason else "") for f in report.files]
    return "\n".join(lines) + "\n"


def expectation_lines(results: Sequence[ClassResult], *, heading: str = "##") -> list[str]:
    """The model's expected values the code did not return, as possible bugs: the kept test asserts what the code
    does, and a person decides which is right (issue 17). Empty when there are none."""
    found = [(r, c) for r in results for c in r.corrections]
    if not found:
        return []
    lines = ["", f"{heading} Expected values to check", "",
             "The model expected one value and the code returned another, in every run. The kept test asserts what "
             "the code returns; if the model was right, this is a bug.", "",
             "| test | line | the model expected | the code returns |", "|---|---|---|---|"]
    for result, c in found:
        test = f"{PurePosixPath(result.test_path or result.target).stem}.{c.method}"
        lines.append(f"| {inline_code(test)} | {c.line} | {_value(c.expected)} | {_value(c.actual)} |")
    return lines


def transcript_links(result: ClassResult) -> str:
    """Markdown links to the rounds' prompts and answers (relative to the run directory), or an en dash."""
    links = [f"[{r.round}]({r.transcript})" for r in result.attempts if r.transcript]
    return " ".join(links) or "–"


def change_lines(check: ChangeCheck, *, heading: str = "##", findings_only: bool = False) -> list[str]:
    """The change check as markdown, behaviour changes first: the generated tests that fail on the new head (what
    they expected, what the code does now), the new tests that catch the change, and (unless `findings_only`)
    what was regenerated or left alone and why. Ends with a blank line; empty when there is nothing to say."""
    lines: list[str] = []
    at = f" at {check.head[:12]}" if check.head else ""
    if check.behaviour_changes:
        count = len(check.behaviour_changes)
        lines += [f"{heading} Behaviour changes", "",
                  f"{count} generated test{'s' if count != 1 else ''} that passed before "
                  f"fail{'s' if count == 1 else ''}{at}. Check that the change is intended: their classes' tests "
                  "were regenerated for the new behaviour, and the diff shows the old assertion beside the new one.",
                  "", "| test | expected (before) | got (now) | changed code |", "|---|---|---|---|"]
        for change in check.behaviour_changes:
            where = f" (line {change.line})" if change.line else ""
            expected, actual = ((change.expected, change.actual) if change.expected is not None
                                or change.actual is not None else (None, change.message or change.status))
            code = ", ".join(f"{inline_code(path)}:{line}" for path, line in change.at[:3]) or ", ".join(
                inline_code(key) for key in change.changes[:3]) or "–"
            test = f"{change.test_class.rsplit('.', 1)[-1]}.{change.method}"
            lines.append(f"| {inline_code(test)}{where} | "
                         f"{_value(expected)} | {_value(actual)} | {code} |")
        lines.append("")
    if check.catching:
        base = check.catching[0].base_commit[:12]
        lines += [f"{heading} Tests that catch this change", "",
                  f"These new tests fail before this change (on {base}) and pass after it:", ""]
        lines += [f"- {inline_code(f'{PurePosixPath(c.test_path).stem}.{c.method}')}: on {base}, "
                  f"{markdown_cell(c.base_failure)}" for c in check.catching]
        lines.append("")
    if findings_only:
        return lines
    if check.regenerated or check.left_alone:
        lines += [f"{heading} What changed", ""]
        changed = sorted({f"{inline_code(member_label(c.key))} ({c.kind})" for c in check.member_changes})
        if changed:
            lines += [f"Changed since {check.base[:12] if check.base else 'the last run'}: {', '.join(changed[:30])}"
                      f"{f' and {len(changed) - 30} more' if len(changed) > 30 else ''}.", ""]
        lines += [f"- regenerated {inline_code(fqn)}: {markdown_cell(why)}" for fqn, why in check.regenerated.items()]
        alone = list(check.left_alone.items())
        lines += [f"- left alone {inline_code(fqn)}: {markdown_cell(why)}" for fqn, why in alone[:_LISTED]]
        if len(alone) > _LISTED:
            lines.append(f"- and {len(alone) - _LISTED} more classes left alone (the run's `report.json` lists them)")
        lines.append("")
    if check.flaky:
        lines += [f"Failed once, then passed (not counted as changes): {', '.join(map(inline_code, check.flaky))}.",
                  ""]
    return lines


def member_label(key: str) -> str:
    """`com.acme.Money#plus/1` → `Money.plus`: a changed member as a reader names it."""
    owner, _, member = key.partition("#")
    return f"{owner.rsplit('.', 1)[-1]}.{member.split('/')[0]}"


def _value(value: str | None) -> str:
    """A value a test expected or got, as a code span that holds in a table cell."""
    return "–" if value is None else markdown_cell(inline_code(value, limit=_VALUE_CHARS))


def suite_table(report: RunReport) -> list[str]:
    """Each kept class's whole suite before → after the generated tests: the existing tests alone, then with the
    kept methods (lines, branches, mutation score), as markdown lines (none when nothing was measured)."""
    gained = [r for r in report.results if r.gain is not None]
    if not gained:
        return []
    lines = ["", "## The suite before → after", "",
             "| class | existing tests | lines | branches | mutation score | generated alone (lines, branches, "
             "mutants) |", "|---|---:|---|---|---|---|"]
    for r in gained:
        gain = r.gain
        assert gain is not None
        before = gain.before or SuiteFigures()
        lines.append(
            f"| `{r.target}` | {len(gain.existing_tests)} | {_change(before.lines.ratio, gain.after.lines.ratio)} | "
            f"{_change(before.branches.ratio, gain.after.branches.ratio)} | "
            f"{_change(before.mutation_score, gain.after.mutation_score)} | "
            f"{percent(gain.generated.lines.ratio)}, {percent(gain.generated.branches.ratio)}, "
            f"{percent(gain.generated.mutation_score)} |")
    return lines


def _change(before: float | None, after: float | None) -> str:
    return f"{percent(before)} → {percent(after)}"


def gate_summary(gate: GateResult) -> str:
    """One line on the build gate: not run and why, not judged and why, or what the build dropped."""
    if not gate.ran:
        return f"Build gate: not run ({gate.why})."
    how = f"{gate.runner}, {gate.runs} run{'s' if gate.runs != 1 else ''}, {gate.seconds:.0f} s"
    how += f"; went online once ({gate.online})" if gate.online else ""
    if gate.why and not gate.judged:
        return f"Build gate ({how}): not judged by the build: {gate.why}; nothing dropped."
    methods = sum(len(c.dropped) for c in gate.classes)
    classes = sum(1 for c in gate.classes if not c.kept)
    judged = sum(1 for c in gate.classes if c.judged)
    dropped = f"{methods} method{'s' if methods != 1 else ''}"
    dropped += f" and {classes} whole class{'es' if classes != 1 else ''}" if classes else ""
    also = f"; {gate.why}" if gate.why else ""
    return f"Build gate ({how}): judged {judged} of {len(gate.classes)} test classes, dropped {dropped}{also}."


def coverage_table(report: RunReport) -> str:
    """Per class: status, tests kept, line and branch coverage, as a markdown table."""
    rows = [f"| `{r.target}` | {r.status} | {len(r.kept)} | {percent(r.line_coverage)} | {percent(r.branch_coverage)} |"
            for r in report.results]
    header = "| class | status | tests | lines | branches |\n|---|---|---|---|---|\n"
    return header + "\n".join(rows) if rows else "(none)"

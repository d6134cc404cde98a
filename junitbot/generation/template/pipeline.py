"""The template backend's pipeline: shells, scenarios, probe runs, tests asserting what was observed, validation.

Per target: the test class shell from the AST; per method, scenarios that take its branches; one probe
run (twice, under changed conditions) records what each scenario does; feedback rounds probe what that
taught (scenarios that died on a mock's default answer with the call stubbed, scenarios without the stubs
that did not matter, call sequences that unlock a call failing alone); the final test asserts what was
observed in both runs, and validation keeps only methods that compile and pass.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from junitbot.analysis import (
    ClassInfo,
    CodeGraph,
    DependencyAnalyzer,
    MethodInfo,
    remove_unused_imports,
)
from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.generation.imports import ImportSet
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.models import GenerationJob, GenerationResult, Skip, Target, TestShell
from junitbot.generation.output import file_header, test_path
from junitbot.generation.style import AssertionStyle, NamingStyle, assertion_style, naming_style
from junitbot.generation.template.bodies import BodyContext
from junitbot.generation.template.compensation import compensations
from junitbot.generation.template.feedback import Refinement, refine
from junitbot.generation.template.final import Style, Written, final_tests
from junitbot.generation.template.fixtures import named_fixtures
from junitbot.generation.template.graphs import enum_test, exception_resolver, source_text, written_types
from junitbot.generation.template.observations import Observation, ObservedCall
from junitbot.generation.template.probe import ProbeClass, Scenario, probe_method, run_probes
from junitbot.generation.template.scaffold import test_shell
from junitbot.generation.template.scenarios import (
    answer_stub,
    constructor_scenarios,
    scenarios_for,
    testable_constructors,
    testable_methods,
)
from junitbot.generation.template.sequences import MAX_DEPTH, extend, locked, prefixes
from junitbot.generation.template.subtypes import Receiver, receivers
from junitbot.state import StateDir
from junitbot.validation import (
    Classpath,
    Frameworks,
    ProjectClasspath,
    TestCandidate,
    ValidationReport,
    Verdict,
    as_project,
    discover_classpaths,
    merge_reports,
    validate_candidates,
)
from junitbot.validation.compiling.main_classes import module_main_classes
from junitbot.validation.run.sandbox import detect_isolation

log = logging.getLogger(__name__)

_STATIC_IMPORTS: dict[str, tuple[str, ...]] = {
    "junit": ("org.junit.jupiter.api.Assertions.*", "org.mockito.Mockito.*"),
    "assertj": ("org.assertj.core.api.Assertions.*", "org.mockito.Mockito.*"),
}


@dataclass
class _Plan:
    target: Target
    info: ClassInfo
    shell: TestShell
    imports: ImportSet
    scenarios: list[Scenario] = field(default_factory=list)
    written: Written = field(default_factory=Written)
    receivers: list[Receiver] = field(default_factory=list)
    style: AssertionStyle = "junit"
    naming: NamingStyle = "underscore"
    level: JavaLevel = MODERN
    parameterized: bool = False
    refinement: Refinement = field(default_factory=Refinement)
    types: Callable[[str], ClassInfo | None] = field(default=lambda name: None)  # a type as the test writes it

    @property
    def methods(self) -> dict[str, str]:
        return self.written.methods

    @methods.setter
    def methods(self, value: dict[str, str]) -> None:
        self.written.methods = value


def generate_tests(targets: Sequence[Target], job: GenerationJob, *,
                   classpath: Classpath | ProjectClasspath | None = None) -> GenerationResult:
    """Generate, probe and validate tests for `targets`, each module's with its own classpath and release; one
    class that fails never stops the others.

    `classpath` is the one discovered for the run (discovered here when not given).
    """
    project = as_project(classpath) or discover_classpaths(job.root, job.config.validation, state=job.state)
    groups: dict[str, list[Target]] = {}
    for target in targets:
        info = job.graph.class_info(target.fqn)
        module = project.module_for(info.file).module if info is not None else project.primary.module
        groups.setdefault(module, []).append(target)
    modules = {m.module: m for m in project.modules}
    results = [_generate_module(group, job, modules.get(module, project.primary))
               for module, group in sorted(groups.items())]
    return merge_results(results) if results else _generate_module([], job, project.primary)


def merge_results(results: Sequence[GenerationResult]) -> GenerationResult:
    """One result of the modules' generations."""
    if len(results) == 1:
        return results[0]
    reports = [r.validation for r in results if r.validation is not None]
    seconds: dict[str, float] = {}
    for result in results:
        for stage, value in result.seconds.items():
            seconds[stage] = round(seconds.get(stage, 0.0) + value, 3)
    return GenerationResult(candidates=tuple(c for r in results for c in r.candidates),
                            validation=merge_reports(reports) if reports else None,
                            skipped=tuple(s for r in results for s in r.skipped),
                            scenarios=sum(r.scenarios for r in results), observed=sum(r.observed for r in results),
                            seconds=seconds, frameworks=results[0].frameworks,
                            java_release=min((r.java_release for r in results if r.java_release), default=None))


def _generate_module(targets: Sequence[Target], job: GenerationJob, classpath: Classpath) -> GenerationResult:
    root, graph, config, state, report = job.root, job.graph, job.config, job.state, job.progress
    seconds: dict[str, float] = {}
    tick = time.perf_counter()
    style = assertion_style(graph, classpath.frameworks)
    naming = naming_style(graph)
    level = JavaLevel(release=classpath.release)
    plans, skipped = _plan(targets, graph, config, classpath.frameworks, job, style, naming, level)
    report("plan", len(targets), len(targets))
    seconds["plan"] = time.perf_counter() - tick
    if not plans:
        return GenerationResult(candidates=(), validation=None, skipped=tuple(skipped), seconds=seconds,
                                frameworks=classpath.frameworks, java_release=classpath.release)
    tick = time.perf_counter()
    main = module_main_classes(root, graph.source_files(test=False), classpath=classpath,
                               cache_root=state.root / "build" / "main")
    uncompiled = set(main.failed)
    plans, skipped = _compiled_only(plans, skipped, graph, uncompiled) if uncompiled else (plans, skipped)
    probe = _Prober(classpath=[str(main.classes_dir), *classpath.entries], state=state, config=config,
                    module=classpath)
    observations, failed = probe.run(plans, {p.target.fqn: p.scenarios for p in plans})
    _feedback(plans, observations, probe, graph)
    seconds["probe"] = time.perf_counter() - tick
    report("probe", len(plans), len(plans))
    candidates = []
    for plan in plans:
        why = failed.get(plan.target.fqn)
        if why is not None:
            skipped.append(Skip(target=plan.target.fqn, reason=f"the generated test class does not compile: {why}"))
            continue
        new = _final_methods(plan, plan.scenarios, observations, graph)
        if not new:
            skipped.append(Skip(target=plan.target.fqn, reason="no scenario could be observed"))
            continue
        candidates.append(_candidate(plan, config))
    tick = time.perf_counter()
    validation = validate_candidates(candidates, root=root, graph=graph, config=config, state=state,
                                     classpath=classpath, progress=report) if candidates else None
    seconds["validate"] = time.perf_counter() - tick
    for round_number in range(1, config.generation.coverage_rounds + 1):
        if validation is None:
            break
        tick = time.perf_counter()
        validation, more = _coverage_round(plans, validation, probe, job=job, classpath=classpath,
                                           round_number=round_number)
        seconds[f"coverage_round_{round_number}"] = time.perf_counter() - tick
        if not more:
            break
    kept = {v.target: v for v in validation.verdicts} if validation else {}
    final = tuple(_candidate(p, config) for p in plans if p.target.fqn in kept)
    return GenerationResult(candidates=final, validation=validation, skipped=tuple(skipped),
                            scenarios=sum(len(p.scenarios) for p in plans), observed=len(observations),
                            seconds={k: round(v, 3) for k, v in seconds.items()}, frameworks=classpath.frameworks,
                            java_release=classpath.release)


def _compiled_only(plans: Sequence[_Plan], skipped: Sequence[Skip], graph: CodeGraph,
                   uncompiled: set[str]) -> tuple[list[_Plan], list[Skip]]:
    """The plans whose class compiled in the main build; the others skipped with that reason, not javac's
    "cannot find symbol" for the test that names it."""
    kept, left = [], list(skipped)
    for plan in plans:
        info = graph.class_info(plan.target.fqn)
        if info is not None and info.file in uncompiled:
            left.append(Skip(target=plan.target.fqn,
                             reason=f"its source ({info.file}) does not compile here, so no test can run against it"))
        else:
            kept.append(plan)
    return kept, left


class _Prober:
    """Runs probe classes for plans' scenarios in scratch directories of the state directory."""

    def __init__(self, *, classpath: list[str], state: StateDir, config: JunitbotConfig, module: Classpath) -> None:
        self.classpath = classpath
        self.state = state
        self.config = config
        self.module = module  # probes compile as the module's tests do: its release, processors and JDK

    def run(
        self, plans: Sequence[_Plan], scenarios: dict[str, list[Scenario]]
    ) -> tuple[dict[str, Observation], dict[str, str]]:
        """(observations by scenario id, why a target's probe class did not compile)."""
        chosen = [p for p in plans if scenarios.get(p.target.fqn)]
        scratch = Path(tempfile.mkdtemp(prefix="generate-", dir=self.state.ensure().root))
        try:
            probes = [ProbeClass(path=_path(p, self.config),
                                 source=p.shell.render([probe_method(s) for s in scenarios[p.target.fqn]],
                                                       imports=p.imports),
                                 test_class=_test_class(p)) for p in chosen]
            observations, failed = run_probes(
                probes, classpath=self.classpath, scratch=scratch, cache_dir=self.state.root / "build" / "recorder",
                settings=self.config.validation, isolation=detect_isolation(self.config.validation.isolation),
                tools_dir=self.state.tools, release=self.module.release, processor_path=self.module.processor_path,
                java_home=self.module.java_home)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        by_class = {_test_class(p): p.target.fqn for p in chosen}
        return observations, {by_class[name]: why for name, why in failed.items() if name in by_class}


def _test_class(plan: _Plan) -> str:
    return f"{plan.shell.package}.{plan.shell.class_name}".lstrip(".")


def _candidate(plan: _Plan, config: JunitbotConfig) -> TestCandidate:
    # The imports are collected for every scenario tried (and the shell adds `Mockito.*` whenever Mockito is
    # there): the final class keeps only those its methods use.
    fixtures = named_fixtures(list(plan.methods.values()), lookup=plan.types)
    shell = plan.shell.model_copy(update={"fields": (*plan.shell.fields, *fixtures.fields)})
    source = remove_unused_imports(shell.render([*fixtures.methods, *fixtures.helpers], imports=plan.imports))
    return TestCandidate(path=_path(plan, config), source=source, target=plan.target.fqn)


def _coverage_round(
    plans: Sequence[_Plan], validation: ValidationReport, probe: _Prober, *, job: GenerationJob,
    classpath: Classpath, round_number: int,
) -> tuple[ValidationReport, bool]:
    """Aim new scenarios at methods with uncovered lines; a class keeps them only if its coverage grows."""
    graph, config = job.graph, job.config
    verdicts = {v.target: v for v in validation.verdicts}
    extra: dict[str, list[Scenario]] = {}
    for plan in plans:
        verdict = verdicts.get(plan.target.fqn)
        if verdict is None or not verdict.kept or verdict.coverage is None:
            continue
        # Methods already dropped stay dropped: keep only what validation kept.
        kept_names = {m.name for m in verdict.methods if m.kept}
        plan.methods = {name: text for name, text in plan.methods.items() if name in kept_names}
        missed = set(verdict.coverage.uncovered_lines) | set(verdict.coverage.partly_covered_lines)
        for number, method in enumerate(testable_methods(plan.info)):
            span = method.span
            if span is None or not any(span.start_line <= line <= span.end_line for line in missed):
                continue
            extra.setdefault(plan.target.fqn, []).extend(_method_scenarios(
                plan, method, graph=graph, prefix=f"r{round_number}c{plans.index(plan)}m{number}",
                limit=config.generation.max_scenarios_per_method, extra_variants=(2, 3)))
    if not extra:
        return validation, False
    observations, failed = probe.run(plans, extra)
    before: dict[str, dict[str, str]] = {}
    candidates = []
    for plan in plans:
        if plan.target.fqn not in extra or plan.target.fqn in failed:
            continue
        before[plan.target.fqn] = dict(plan.methods)
        if _final_methods(plan, extra[plan.target.fqn], observations, graph):
            candidates.append(_candidate(plan, config))
    if not candidates:
        return validation, False
    again = validate_candidates(candidates, root=job.root, graph=graph, config=config, state=job.state,
                                classpath=classpath)
    improved = {v.target: v for v in again.verdicts if v.kept and _covered(v) > _covered(verdicts[v.target])}
    for plan in plans:
        if plan.target.fqn in before and plan.target.fqn not in improved:
            plan.methods = before[plan.target.fqn]  # the new tests added no coverage: drop them
    merged = tuple(improved.get(v.target, v) for v in validation.verdicts)
    return validation.model_copy(update={"verdicts": merged}), bool(improved)


def _covered(verdict: Verdict) -> int:
    coverage = verdict.coverage
    return 0 if coverage is None else coverage.lines.covered + coverage.branches.covered


def _path(plan: _Plan, config: JunitbotConfig) -> str:
    return generated_test_path(plan.info, config)


def generated_test_path(info: ClassInfo, config: JunitbotConfig) -> str:
    """The repo-relative path of the generated test of `info` (every backend writes to the same file)."""
    return test_path(info.fqn, info.package, info.file, suffix=config.generation.test_suffix)


def class_shell(
    info: ClassInfo, *, graph: CodeGraph, analyzer: DependencyAnalyzer, frameworks: Frameworks,
    config: JunitbotConfig, commit: str | None, level: JavaLevel = MODERN, licence: str | None = None,
) -> TestShell | Skip:
    """The test class shell of `info` as the no-model generator writes it (the model's skeleton), or why not.

    The shell opens with the file header (`licence`, then the marker): every file the no-model generator
    writes and every skeleton the model fills starts from here, so validation, the final gate and the
    written file all see the same text.
    """
    try:
        context = analyzer.test_context_for(info.fqn)
        return test_shell(info, context, frameworks, lookup=graph.class_info,
                          test_class_name=Path(generated_test_path(info, config)).stem,
                          header_comment=file_header(info.fqn, commit, licence), level=level)
    except JunitbotError as e:
        return Skip(target=info.fqn, reason=str(e))


class_shell.__test__ = False  # type: ignore[attr-defined]  # pytest must not collect it where tests import it


def _plan(
    targets: Sequence[Target], graph: CodeGraph, config: JunitbotConfig, frameworks: Frameworks, job: GenerationJob,
    style: AssertionStyle,
    naming: NamingStyle,
    level: JavaLevel,
) -> tuple[list[_Plan], list[Skip]]:
    analyzer = DependencyAnalyzer(graph)
    plans: list[_Plan] = []
    skipped: list[Skip] = []
    for index, target in enumerate(targets):
        info = graph.class_info(target.fqn)
        if info is None:
            skipped.append(Skip(target=target.fqn, reason="not in the graph"))
            continue
        shell = class_shell(info, graph=graph, analyzer=analyzer, frameworks=frameworks, config=config,
                            commit=job.commit, level=level, licence=job.licence_header)
        if isinstance(shell, Skip):
            skipped.append(shell)
            continue
        imports = shell.import_set(local=lambda fqn: graph.class_info(fqn) is not None)
        for member in _STATIC_IMPORTS[style]:
            imports.add_static(member)
        plan = _Plan(target=target, info=info, shell=shell, imports=imports, style=style, naming=naming, level=level,
                     parameterized=frameworks.junit_params, types=written_types(graph))
        if shell.subject_field is not None:
            taken = {shell.subject_field, "result", "thrown", *(m.name for m in shell.mocks),
                     *(p.name for m in testable_methods(info) for p in m.parameters)}
            plan.receivers = receivers(
                info, field_name=shell.subject_field, built=shell.subject_class, lookup=graph.class_info,
                implementations=analyzer.test_context_for(info.fqn).implementations if info.is_abstract else (),
                imports=imports, taken=taken, level=level)
        mocks = {mock.name: mock.fqn for mock in shell.mocks}
        for number, method in enumerate(testable_methods(info)):
            plan.scenarios += _method_scenarios(plan, method, graph=graph, prefix=f"c{index}m{number}",
                                                limit=config.generation.max_scenarios_per_method)
        for number, constructor in enumerate(testable_constructors(info)):
            plan.scenarios += constructor_scenarios(
                info, constructor, mocks=mocks, lookup=graph.class_info, imports=imports, prefix=f"c{index}k{number}",
                limit=config.generation.max_scenarios_per_method, level=level)
        if plan.scenarios:
            plans.append(plan)
        else:
            skipped.append(Skip(target=target.fqn, reason="no public behaviour to exercise"))
    return plans, skipped


def _method_scenarios(plan: _Plan, method: MethodInfo, *, graph: CodeGraph, prefix: str,
                      limit: int, extra_variants: Sequence[int] = ()) -> list[Scenario]:
    """A method's scenarios: on the class for a static one, else once per receiver (per implementation
    of an abstract subject)."""
    info, shell, imports, lookup = plan.info, plan.shell, plan.imports, graph.class_info
    mocks = {mock.name: mock.fqn for mock in shell.mocks}
    static = "static" in method.modifiers
    paths = compensations(info, method, mocks=mocks, lookup=lookup, source=source_text(graph),
                          resolve=exception_resolver(info, graph)) if mocks and not extra_variants else []
    if static or not plan.receivers:
        receiver = shell.subject_field if not static and shell.subject_field else imports.name(
            info.fqn, package=info.package)
        return scenarios_for(info, method, receiver=receiver, mocks=mocks, lookup=lookup, imports=imports,
                             prefix=prefix, limit=limit, extra_variants=extra_variants,
                             instance=not static and bool(shell.subject_field), level=plan.level,
                             compensations=paths)
    found: list[Scenario] = []
    for number, each in enumerate(plan.receivers):
        found += scenarios_for(info, method, receiver=each.name, mocks=mocks, lookup=lookup, imports=imports,
                               prefix=f"{prefix}r{number}" if number else prefix, limit=limit,
                               extra_variants=extra_variants, setup=each.arrange, title=each.title,
                               bindings=each.bindings, level=plan.level, compensations=paths)
    return found


def _feedback(plans: Sequence[_Plan], observations: dict[str, Observation], probe: _Prober, graph: CodeGraph) -> None:
    """The rounds after the first probe run, their observations joining `observations`: scenarios that died on
    a mock's default answer again with that call stubbed, scenarios without the stubs whose answers did not
    matter, and call sequences, each round extending the sequences that changed state with the calls still
    failing alone (the first round's with the others, in one probe run)."""
    for depth in range(1, MAX_DEPTH):
        batch = _refinements(plans, observations, graph) if depth == 1 else {}
        for number, plan in enumerate(plans):
            starts = [s for s in prefixes(plan.scenarios, observations) if len(s.after) == depth - 1]
            found = extend(starts, locked(plan.scenarios, observations), prefix=f"q{depth}c{number}") if starts else []
            batch.setdefault(plan.target.fqn, []).extend(found)
        batch = {fqn: found for fqn, found in batch.items() if found}
        if not batch:
            return
        more, _ = probe.run(plans, batch)
        observations.update(more)
        for plan in plans:
            plan.scenarios += batch.get(plan.target.fqn, [])


def _refinements(plans: Sequence[_Plan], observations: dict[str, Observation],
                 graph: CodeGraph) -> dict[str, list[Scenario]]:
    """Per target, the scenarios its first probe run's observations call for (feedback.refine)."""
    found: dict[str, list[Scenario]] = {}
    for plan in plans:
        mocks = {mock.name: mock.fqn for mock in plan.shell.mocks}

        def stub_for(call: ObservedCall, plan: _Plan = plan, mocks: dict[str, str | None] = mocks) -> str | None:
            return answer_stub(call.mock, call.method, call.arguments, mocks=mocks, lookup=graph.class_info,
                               imports=plan.imports, level=plan.level)
        plan.refinement = refine(plan.scenarios, observations, stub_for=stub_for)
        found[plan.target.fqn] = list(plan.refinement.scenarios)
    return found


def _final_methods(
    plan: _Plan, scenarios: Sequence[Scenario], observations: dict[str, Observation], graph: CodeGraph
) -> list[str]:
    """New tests for scenarios whose outcome both probe runs agreed on, skipping outcomes already tested.

    The tests are added to `plan.methods`; their names are returned.
    """
    context = BodyContext(imports=plan.imports, mock_types={mock.name: mock.fqn for mock in plan.shell.mocks},
                          lookup=graph.class_info, level=plan.level)
    style = Style(assertions=plan.style, naming=plan.naming, parameterized=plan.parameterized,
                  is_enum=enum_test(graph))
    return final_tests(scenarios, observations, context=context, style=style, written=plan.written,
                       refinement=plan.refinement, known={s.id: s for s in plan.scenarios})

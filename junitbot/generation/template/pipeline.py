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
from collections.abc import Mapping, Sequence
from pathlib import Path

from junitbot.analysis import CodeGraph
from junitbot.errors import JunitbotError
from junitbot.generation.javalevel import JavaLevel
from junitbot.generation.models import GenerationJob, GenerationResult, Skip, Target, combine_results
from junitbot.generation.style import assertion_style, naming_style
from junitbot.generation.template.context import ModuleContext, Style, graph_implementations
from junitbot.generation.template.final import Written
from junitbot.generation.template.graphs import enum_test, written_types
from junitbot.generation.template.plan import ClassPlan, plan_classes
from junitbot.generation.template.probe import ProbeRun
from junitbot.generation.template.rounds import ModuleRun, candidate, coverage_round, feedback, final_methods, probe
from junitbot.validation import (
    Classpath,
    IndexedRepo,
    ProjectClasspath,
    as_project,
    discover_classpaths,
    validate_candidates,
)
from junitbot.validation.build.helpers import helper_cache
from junitbot.validation.compiling.main_classes import module_main_classes
from junitbot.validation.context import ValidationContext
from junitbot.validation.measure.baseline import measure_baselines
from junitbot.validation.measure.models import CarvedCall
from junitbot.validation.run.sandbox import detect_isolation

log = logging.getLogger(__name__)


def generate_tests(targets: Sequence[Target], job: GenerationJob, *,
                   classpath: Classpath | ProjectClasspath | None = None) -> GenerationResult:
    """Generate, probe and validate tests for `targets`, each module's with its own classpath and release; one
    class that fails never stops the others.

    `classpath` is the one discovered for the run (discovered here when not given).
    """
    project = as_project(classpath) or discover_classpaths(job.root, job.config.validation, state=job.state)
    groups: dict[str, list[Target]] = {}
    unbuilt: list[Skip] = []
    for target in targets:
        info = job.graph.class_info(target.fqn)
        folder = project.unbuilt_module_of(info.file) if info is not None else None
        if folder is not None:
            unbuilt.append(Skip(target=target.fqn, reason=f"its module ({folder}) has no classpath: the build could "
                                                          f"not build it ({project.unbuilt[folder][:200]})"))
            continue
        module = project.module_for(info.file).module if info is not None else project.primary.module
        groups.setdefault(module, []).append(target)
    modules = {m.module: m for m in project.modules}
    results = [_generate_module(group, job, modules.get(module, project.primary))
               for module, group in sorted(groups.items())]
    if unbuilt:
        results.append(GenerationResult(candidates=(), validation=None, skipped=tuple(unbuilt)))
    return combine_results(results) if results else _generate_module([], job, project.primary)


NO_JUPITER = ("its module's test classpath has no JUnit Jupiter (JUnit 5): a generated test would neither compile nor "
              "run in its build; add org.junit.jupiter:junit-jupiter to the module's test dependencies (see the "
              "report's advice)")


def _generate_module(targets: Sequence[Target], job: GenerationJob, classpath: Classpath) -> GenerationResult:
    root, graph, config, state, report = job.root, job.graph, job.config, job.state, job.progress
    if classpath.frameworks.junit_jupiter is None and targets:
        # A JUnit 4 (or test-less) module: said once per class, before any probe or javac run is spent on it.
        return GenerationResult(candidates=(), validation=None, frameworks=classpath.frameworks,
                                skipped=tuple(Skip(target=t.fqn, reason=NO_JUPITER) for t in targets),
                                java_release=classpath.release)
    seconds: dict[str, float] = {}
    tick = time.perf_counter()
    numbers = {t.fqn: n for n, t in enumerate(targets)}
    plans, skipped = plan_classes(targets, job, _module_context(job, classpath), numbers=numbers)
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
    seconds["main_build"] = time.perf_counter() - tick
    tick = time.perf_counter()
    carved = _carved_calls([p.target.fqn for p in plans], job, classpath, main.classes_dir)
    if carved:  # planned again with what the repository's tests passed: those values come before made-up ones
        again, _ = plan_classes([p.target for p in plans if p.target.fqn in carved], job,
                                _module_context(job, classpath, carved), numbers=numbers)
        replanned = {p.target.fqn: p for p in again}
        plans = [replanned.get(p.target.fqn, p) for p in plans]
    seconds["carve"] = time.perf_counter() - tick
    tick = time.perf_counter()
    # Probes compile as the module's tests do: its release, processors and JDK.
    probes = ProbeRun(classpath=(str(main.classes_dir), *classpath.entries), module=classpath,
                      settings=config.validation, isolation=detect_isolation(config.validation.isolation),
                      scratch_root=state.ensure().root, cache_dir=helper_cache(state.tools),
                      tools_dir=state.tools)
    run = ModuleRun(job=job, classpath=classpath, probes=probes, types=written_types(graph))
    observations, failed = probe(plans, {p.target.fqn: p.scenarios for p in plans}, probes)
    plans, observations = feedback(plans, observations, probes)
    seconds["probe"] = time.perf_counter() - tick
    report("probe", len(plans), len(plans))
    written = {p.target.fqn: Written() for p in plans}
    candidates = []
    for plan in plans:
        why = failed.get(plan.target.fqn)
        if why is not None:
            skipped.append(Skip(target=plan.target.fqn, reason=f"the generated test class {why}"))
            continue
        try:
            written[plan.target.fqn], new = final_methods(plan, plan.scenarios, observations, Written())
            if not new:
                skipped.append(Skip(target=plan.target.fqn, reason="no scenario could be observed"))
                continue
            candidates.append(candidate(plan, written[plan.target.fqn], run))
        except Exception as e:  # one class junitbot trips on costs that class, never the run (issue 27)
            log.warning("the test class of %s could not be written", plan.target.fqn, exc_info=True)
            skipped.append(Skip(target=plan.target.fqn, reason=f"junitbot could not write its test class "
                                                               f"({type(e).__name__}: {e}); a bug, please report it"))
    tick = time.perf_counter()
    validation = validate_candidates(candidates, repo=IndexedRepo(root=root, graph=graph, state=state), config=config,
                                     classpath=classpath, progress=report) if candidates else None
    seconds["validate"] = time.perf_counter() - tick
    for round_number in range(1, config.generation.coverage_rounds + 1):
        if validation is None:
            break
        tick = time.perf_counter()
        validation, written, more = coverage_round(run, plans, written, validation, round_number)
        seconds[f"coverage_round_{round_number}"] = time.perf_counter() - tick
        if not more:
            break
    kept = {v.target: v for v in validation.verdicts} if validation else {}
    final = tuple(candidate(p, written[p.target.fqn], run) for p in plans if p.target.fqn in kept)
    return GenerationResult(candidates=final, validation=validation, skipped=tuple(skipped),
                            scenarios=sum(len(p.scenarios) for p in plans), observed=len(observations),
                            seconds={k: round(v, 3) for k, v in seconds.items()}, frameworks=classpath.frameworks,
                            java_release=classpath.release)


def _module_context(job: GenerationJob, classpath: Classpath,
                    carved: Mapping[str, Sequence[CarvedCall]] | None = None) -> ModuleContext:
    """How the module's tests are written: its frameworks and release, the repository's test style, and what its
    tests passed to the targets (`carved`)."""
    graph, frameworks = job.graph, classpath.frameworks
    style = Style(assertions=assertion_style(graph, frameworks), naming=naming_style(graph),
                  parameterized=frameworks.junit_params, is_enum=enum_test(graph))
    return ModuleContext(lookup=graph.class_info, frameworks=frameworks, level=JavaLevel(release=classpath.release),
                         style=style, limit=job.config.generation.max_scenarios_per_method,
                         implementations=graph_implementations(graph), carved=carved or {})


def _carved_calls(targets: Sequence[str], job: GenerationJob, classpath: Classpath,
                  main_classes: Path) -> dict[str, tuple[CarvedCall, ...]]:
    """What the repository's own tests pass to each target's public members: the carver's record of their baseline
    run. The baseline is cached, so the keep rule reads the same one later without running the tests again. A
    baseline that cannot be measured carves nothing; the tests are generated all the same."""
    settings = job.config.validation
    if not targets or not settings.carve:
        return {}
    scratch = Path(tempfile.mkdtemp(prefix="carve-", dir=job.state.ensure().root))
    try:
        context = ValidationContext.for_module(job.root, classpath, settings=settings, state=job.state,
                                               scratch=scratch, main_classes=main_classes)
        baselines = measure_baselines(targets, context=context, graph=job.graph, mutation=settings.mutation)
    except JunitbotError as e:
        log.warning("the existing tests could not be run to carve values: %s", e)
        return {}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {target: baseline.carved for target, baseline in baselines.items() if baseline.carved}


def _compiled_only(plans: Sequence[ClassPlan], skipped: Sequence[Skip], graph: CodeGraph,
                   uncompiled: set[str]) -> tuple[list[ClassPlan], list[Skip]]:
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

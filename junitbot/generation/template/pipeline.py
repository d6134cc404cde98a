"""The template backend's pipeline: shells, scenarios, probe runs, tests asserting what was observed, validation.

Per target: the test class shell from the AST; per method, scenarios that take its branches; one probe
run (twice, under changed conditions) records what each scenario does; the final test asserts what was
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

from junitbot.analysis import ClassInfo, CodeGraph, DependencyAnalyzer, MethodInfo, remove_unused_imports
from junitbot.config import JunitbotConfig
from junitbot.errors import JunitbotError
from junitbot.generation.imports import ImportSet
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.literals import java_string
from junitbot.generation.models import GenerationJob, GenerationResult, Skip, Target, TestShell
from junitbot.generation.output import file_header, test_path
from junitbot.generation.style import AssertionStyle, NamingStyle, assertion_style, naming_style, test_name
from junitbot.generation.template.assertions import assertj_statement, value_assertions, verify_lines
from junitbot.generation.template.observations import Observation
from junitbot.generation.template.probe import ProbeClass, Scenario, probe_method, run_probes
from junitbot.generation.template.scaffold import test_shell
from junitbot.generation.template.scenarios import (
    constructor_scenarios,
    scenarios_for,
    testable_constructors,
    testable_methods,
)
from junitbot.generation.template.stubs import unused_stub
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
from junitbot.validation.build import module_main_classes
from junitbot.validation.sandbox import detect_isolation

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
    methods: dict[str, str] = field(default_factory=dict)
    outcomes: set[tuple[str, str]] = field(default_factory=set)
    receivers: list[Receiver] = field(default_factory=list)
    style: AssertionStyle = "junit"
    naming: NamingStyle = "underscore"
    level: JavaLevel = MODERN


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
    probe = _Prober(classpath=[str(main.classes_dir), *classpath.entries], state=state, config=config,
                    module=classpath)
    observations, failed = probe.run(plans, {p.target.fqn: p.scenarios for p in plans})
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
    source = remove_unused_imports(plan.shell.render(list(plan.methods.values()), imports=plan.imports))
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
                plan, method, lookup=graph.class_info, prefix=f"r{round_number}c{plans.index(plan)}m{number}",
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
        plan = _Plan(target=target, info=info, shell=shell, imports=imports, style=style, naming=naming, level=level)
        if shell.subject_field is not None:
            taken = {shell.subject_field, "result", "thrown", *(m.name for m in shell.mocks),
                     *(p.name for m in testable_methods(info) for p in m.parameters)}
            plan.receivers = receivers(
                info, field_name=shell.subject_field, built=shell.subject_class, lookup=graph.class_info,
                implementations=analyzer.test_context_for(info.fqn).implementations if info.is_abstract else (),
                imports=imports, taken=taken, level=level)
        mocks = {mock.name: mock.fqn for mock in shell.mocks}
        for number, method in enumerate(testable_methods(info)):
            plan.scenarios += _method_scenarios(plan, method, lookup=graph.class_info, prefix=f"c{index}m{number}",
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


def _method_scenarios(plan: _Plan, method: MethodInfo, *, lookup: Callable[[str], ClassInfo | None], prefix: str,
                      limit: int, extra_variants: Sequence[int] = ()) -> list[Scenario]:
    """A method's scenarios: on the class for a static one, else once per receiver (per implementation
    of an abstract subject)."""
    info, shell, imports = plan.info, plan.shell, plan.imports
    mocks = {mock.name: mock.fqn for mock in shell.mocks}
    static = "static" in method.modifiers
    if static or not plan.receivers:
        receiver = shell.subject_field if not static and shell.subject_field else imports.name(
            info.fqn, package=info.package)
        return scenarios_for(info, method, receiver=receiver, mocks=mocks, lookup=lookup, imports=imports,
                             prefix=prefix, limit=limit, extra_variants=extra_variants,
                             instance=not static and bool(shell.subject_field), level=plan.level)
    found: list[Scenario] = []
    for number, each in enumerate(plan.receivers):
        found += scenarios_for(info, method, receiver=each.name, mocks=mocks, lookup=lookup, imports=imports,
                               prefix=f"{prefix}r{number}" if number else prefix, limit=limit,
                               extra_variants=extra_variants, setup=each.arrange, title=each.title,
                               bindings=each.bindings, level=plan.level)
    return found


def _final_methods(
    plan: _Plan, scenarios: Sequence[Scenario], observations: dict[str, Observation], graph: CodeGraph
) -> list[str]:
    """New tests for scenarios whose outcome both probe runs agreed on, skipping outcomes already tested.

    The tests are added to `plan.methods`; their names are returned.
    """
    mock_types = {mock.name: mock.fqn for mock in plan.shell.mocks}
    added: list[str] = []
    names = set(plan.methods)
    outcomes = plan.outcomes
    for scenario in scenarios:
        observed = observations.get(scenario.id)
        if observed is None or observed.outcome == "missing":
            continue
        fingerprint = (scenario.method, observed.model_dump_json(exclude={"scenario"}))
        if fingerprint in outcomes:
            continue  # the same behaviour again: no new test
        outcomes.add(fingerprint)
        body = _body(scenario, observed, plan.imports, mock_types, graph)
        if body is None:
            continue
        if plan.style == "assertj":
            body = _in_assertj(body)
        name = _unique(_test_name(scenario, observed, plan.naming), names)
        plan.methods[name] = f"@Test\nvoid {name}() {{\n" + "".join(f"    {line}\n" for line in body) + "}\n"
        added.append(name)
    return added


def _body(
    scenario: Scenario, observed: Observation, imports: ImportSet, mock_types: dict[str, str | None],
    graph: CodeGraph,
) -> list[str] | None:
    if observed.outcome == "threw" and (observed.exception or "").startswith("org.mockito."):
        return None  # Mockito's complaint about the scenario (strict stubs), not the code's behaviour
    # Only the stubs a call really matched: strict stubs (MockitoExtension) fail a test on an unused one.
    used = {(call.mock, call.method, call.arguments) for call in observed.calls if call.stubbed}
    arrange = [line for line in scenario.arrange if not unused_stub(line, used)]
    lines = ["// Arrange", *arrange] if arrange else []
    verify = verify_lines(tuple(c for c in observed.calls if not c.stubbed), mock_types=mock_types,
                          class_info=graph.class_info, imports=imports)
    if observed.outcome == "threw" and observed.exception:
        exception = imports.name(observed.exception.replace("$", "."))
        lines += ["// Act + Assert", f"{exception} thrown = assertThrows({exception}.class, () -> {scenario.call});"]
        message = observed.message
        if message is not None and _own_message(observed.exception) and len(message) <= 200 and "@" not in message:
            lines.append(f"assertEquals({java_string(message)}, thrown.getMessage());")
        return lines
    state = [line for name, value in observed.changed_state().items() if scenario.subject
             for line in value_assertions(value, f"{scenario.subject}.{name}()", imports=imports)]
    if observed.outcome == "void":
        if not verify and not state:
            return [*lines, "// Act + Assert", f"assertDoesNotThrow(() -> {scenario.call});"]
        return [*lines, "// Act", f"{scenario.call};", "// Assert", *state, *verify]
    if observed.value is None:
        return None
    # Below Java 10 the result is declared with its type; a type the test cannot name is Object, and then
    # only assertions that compile against Object are written.
    declared = scenario.declared or "var"
    opaque = scenario.returns == "java.lang.Object" or declared in ("Object", "java.lang.Object")
    assertions = value_assertions(observed.value, "result", imports=imports, declared=scenario.returns,
                                  opaque=opaque)
    return [*lines, "// Act", f"{declared} result = {scenario.call};", "// Assert", *assertions, *state, *verify]


def _in_assertj(body: list[str]) -> list[str]:
    """The JUnit-style body in AssertJ's fluent style (`assertThrows` + message become one chain)."""
    out: list[str] = []
    for line in body:
        if " thrown = assertThrows(" in line:
            exception, call = line.split(" thrown = assertThrows(", 1)[1].split(".class, ", 1)
            out.append(f"assertThatThrownBy({call[:-2]}).isInstanceOf({exception}.class);")
        elif line.startswith("assertEquals(") and line.endswith(", thrown.getMessage());") and out:
            message = line[len("assertEquals("):-len(", thrown.getMessage());")]
            out[-1] = out[-1][:-1] + f".hasMessage({message});"
        else:
            out.append(assertj_statement(line))
    return out


def _own_message(exception: str) -> bool:
    """Messages the code under test writes itself; the JDK's own wording may change between versions."""
    return not exception.startswith("java.") or exception in (
        "java.lang.IllegalArgumentException", "java.lang.IllegalStateException",
        "java.lang.UnsupportedOperationException")




def _test_name(scenario: Scenario, observed: Observation, naming: NamingStyle) -> str:
    if observed.outcome == "threw" and observed.exception:
        simple = observed.exception.rsplit(".", 1)[-1].rsplit("$", 1)[-1]
        outcome = "throws" + (simple[: -len("Exception")] if simple.endswith("Exception") else simple)
    elif observed.outcome == "void":
        outcome = "succeeds"
    elif scenario.constructor:
        outcome = "constructs"
    else:
        outcome = "returns" + _value_title(observed)
    return test_name([scenario.method, scenario.hint, outcome], naming)


def _value_title(observed: Observation) -> str:
    value = observed.value
    if value is None:
        return "Value"
    if value.t == "null":
        return "Null"
    if value.t == "Boolean" and value.v:
        return value.v.title()
    if value.t == "enum" and value.v:
        return "".join(w.title() for w in value.v.split("_"))
    if value.t == "Optional" and value.present is not None:
        return "Present" if value.present else "Empty"
    if value.t in ("Collection", "Map") and value.size == 0:
        return "Empty"
    return "Value"


def _unique(name: str, names: set[str]) -> str:
    candidate, number = name, 2
    while candidate in names:
        candidate, number = f"{name}{number}", number + 1
    names.add(candidate)
    return candidate

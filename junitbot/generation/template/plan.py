"""Each target's plan: its test class shell, the context its tests are written with, and its first scenarios."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from junitbot.analysis import ClassInfo, DependencyAnalyzer, MethodInfo, TestSetup, mine_setups
from junitbot.config import GenerationSettings
from junitbot.errors import JunitbotError
from junitbot.generation.models import GenerationJob, Skip, Target, TestShell
from junitbot.generation.output import file_header, test_path
from junitbot.generation.template.compensation import Compensation, compensations
from junitbot.generation.template.context import ClassContext, ModuleContext
from junitbot.generation.template.feedback import Refinement
from junitbot.generation.template.graphs import exception_resolver, source_text
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.scaffold import test_shell
from junitbot.generation.template.scenarios import (
    MORE_VARIANTS,
    callable_methods,
    constructor_scenarios,
    result_type,
    scenarios_for,
    testable_constructors,
    testable_methods,
)
from junitbot.generation.template.seeded import seeded_scenarios
from junitbot.generation.template.subtypes import Receiver, constant_receivers, receivers

log = logging.getLogger(__name__)

_STATIC_IMPORTS: dict[str, tuple[str, ...]] = {
    "junit": ("org.junit.jupiter.api.Assertions.*", "org.mockito.Mockito.*"),
    "assertj": ("org.assertj.core.api.Assertions.*", "org.mockito.Mockito.*"),
}


@dataclass(frozen=True)
class ClassPlan:
    """One target on its way through the probe rounds: where its test goes, its shell, the context its tests are
    written with, the receivers of its instance methods, its scenarios so far and what the first probe run taught."""

    target: Target
    path: str
    shell: TestShell
    context: ClassContext
    receivers: tuple[Receiver, ...] = ()
    scenarios: tuple[Scenario, ...] = ()
    refinement: Refinement = field(default_factory=Refinement)

    @property
    def info(self) -> ClassInfo:
        """The class under test."""
        return self.context.subject

    @property
    def through_constants(self) -> bool:
        """Whether the instance methods are called on the subject's own constants (it has no implementation)."""
        return bool(self.receivers) and self.shell.subject_field is None

    @property
    def test_class(self) -> str:
        """The test class's fully qualified name."""
        return f"{self.shell.package}.{self.shell.class_name}".lstrip(".")


# How many more inputs a method a change touched tries than another (among them the suite's further argument lists).
CHANGE_LIMIT_FACTOR = 4


def generated_test_path(info: ClassInfo, settings: GenerationSettings) -> str:
    """The repo-relative path of the generated test of `info` (every backend writes to the same file)."""
    return test_path(info.fqn, info.package, info.file, suffix=settings.test_suffix)


def class_shell(info: ClassInfo, job: GenerationJob, module: ModuleContext, *,
                analyzer: DependencyAnalyzer) -> TestShell | Skip:
    """The test class shell of `info` as the no-model generator writes it (the model's skeleton), or why not.

    It opens with the file header (the job's licence, then the marker): every file the no-model generator writes and
    every skeleton the model fills starts from here, so validation, the gate and the written file see the same text.
    """
    try:
        context = analyzer.test_context_for(info.fqn)
        return test_shell(info, context, module,
                          test_class_name=Path(generated_test_path(info, job.config.generation)).stem,
                          header_comment=file_header(info.fqn, job.commit, job.licence_header))
    except JunitbotError as e:
        return Skip(target=info.fqn, reason=str(e))
    except Exception as e:  # one class junitbot trips on costs that class, never the run (issue 27)
        log.warning("the test class of %s could not be built", info.fqn, exc_info=True)
        return Skip(target=info.fqn, reason=f"junitbot could not build its test class ({type(e).__name__}: {e}); "
                                            "a bug, please report it")


class_shell.__test__ = False  # type: ignore[attr-defined]  # pytest must not collect it where tests import it


def plan_classes(targets: Sequence[Target], job: GenerationJob, module: ModuleContext, *,
                 numbers: Mapping[str, int] | None = None) -> tuple[list[ClassPlan], list[Skip]]:
    """Each target's plan with the scenarios of its methods and validating constructors; a Skip for each target
    that is not in the graph, has no shell, or nothing to exercise.

    `numbers` gives each target its number in the run (default: its place in `targets`). Scenario ids start with
    it, so a class planned again on its own keeps ids no other class of the same probe run has."""
    graph = job.graph
    analyzer = DependencyAnalyzer(graph)
    plans: list[ClassPlan] = []
    skipped: list[Skip] = []
    for place, target in enumerate(targets):
        index = numbers[target.fqn] if numbers is not None else place
        info = graph.class_info(target.fqn)
        if info is None:
            skipped.append(Skip(target=target.fqn, reason="not in the graph"))
            continue
        shell = class_shell(info, job, module, analyzer=analyzer)
        if isinstance(shell, Skip):
            skipped.append(shell)
            continue
        imports = shell.import_set(local=lambda fqn: graph.class_info(fqn) is not None)
        for member in _STATIC_IMPORTS[module.style.assertions]:
            imports.add_static(member)
        context = ClassContext(module, info, imports, {mock.name: mock.fqn for mock in shell.mocks})
        plan = ClassPlan(target=target, path=generated_test_path(info, job.config.generation), shell=shell,
                         context=context, receivers=_receivers(context, shell, analyzer))
        source, resolve = source_text(graph), exception_resolver(info, graph)
        # Probes are cheap and a changed class keeps only the tests that add something or catch the change.
        changed_plan = replace(plan, context=replace(context, module=replace(
            module, limit=module.limit * CHANGE_LIMIT_FACTOR)))
        scenarios: list[Scenario] = []
        for number, method in enumerate(callable_methods(info, through_constants=plan.through_constants,
                                                         lookup=context.lookup)):
            paths = compensations(context, method, source=source, resolve=resolve) if context.mocks else []
            scenarios += method_scenarios(plan, method, prefix=f"c{index}m{number}", compensations=paths)
            # A change shows only on an input that takes its new path: its methods try more of them.
            if target.touches(method.name, static="static" in method.modifiers):
                scenarios += [s.model_copy(update={"for_change": True}) for s in method_scenarios(
                    changed_plan, method, prefix=f"c{index}m{number}v", extra_variants=MORE_VARIANTS)]
        for number, constructor in enumerate(testable_constructors(info)):
            scenarios += constructor_scenarios(context, constructor, prefix=f"c{index}k{number}")
        if job.config.generation.seed_from_tests:
            scenarios += _seeded(context, job, analyzer, prefix=f"c{index}s")
        if scenarios:
            plans.append(replace(plan, scenarios=tuple(scenarios)))
        else:
            skipped.append(Skip(target=target.fqn, reason="no public behaviour to exercise"))
    return plans, skipped


def _seeded(context: ClassContext, job: GenerationJob, analyzer: DependencyAnalyzer, *, prefix: str) -> list[Scenario]:
    """Scenarios from the setups of the target's own tests in its package (issue 29): what the repository's tests
    build the receiver and arguments with, and their neighbours."""
    info, graph = context.subject, job.graph
    setups: list[TestSetup] = []
    for test in analyzer.test_context_for(info.fqn).existing_tests:
        test_info = graph.class_info(test)
        source = graph.source(test_info.file) if test_info is not None and test_info.outer is None else None
        if test_info is None or source is None or test_info.package != info.package:
            continue
        setups += mine_setups(source.decode("utf-8", errors="replace"), info.fqn, test_class=test)
    if not setups:
        return []
    return seeded_scenarios(setups, info=info, imports=context.imports, prefix=prefix,
                            declared=lambda method: result_type(context, method))


def _receivers(context: ClassContext, shell: TestShell, analyzer: DependencyAnalyzer) -> tuple[Receiver, ...]:
    """What the instance methods are called on: the subject field, and for an abstract subject its other
    implementations; none where the test holds no instance."""
    info = context.subject
    if shell.subject_field is None:
        return tuple(constant_receivers(context)) if info.is_abstract else ()
    taken = {shell.subject_field, "result", "thrown", *(m.name for m in shell.mocks),
             *(p.name for m in testable_methods(info) for p in m.parameters)}
    implementations = analyzer.test_context_for(info.fqn).implementations if info.is_abstract else ()
    return tuple(receivers(context, field_name=shell.subject_field, built=shell.subject_class,
                           implementations=implementations, taken=taken, construction=_construction(shell)))


def _construction(shell: TestShell) -> str | None:
    """The expression the set-up assigns the subject field (`BigMoney.of(CurrencyUnit.USD, ..)`), where a test
    method can write it again and get the same object: none where the set-up declares locals it might read, or
    goes on to configure the subject (`service.setClock(clock)`), which a rebuilt one would lack."""
    field = re.escape(shell.subject_field or "")
    found = None
    for line in shell.set_up:
        if re.match(r"[\w.<>\[\], ]+ \w+ = ", line) or (found and re.match(rf"{field}\.", line)):
            return None  # a local declaration, or the subject configured after it was built
        assigned = re.fullmatch(rf"{field} = (.+);", line)
        found = found or (assigned[1] if assigned else None)
    return found


def method_scenarios(plan: ClassPlan, method: MethodInfo, *, prefix: str, extra_variants: Sequence[int] = (),
                     compensations: Sequence[Compensation] = ()) -> list[Scenario]:
    """A method's scenarios: on the class for a static one (or where the test holds no instance), else once per
    receiver (per implementation of an abstract subject)."""
    context, shell, info = plan.context, plan.shell, plan.info
    static = "static" in method.modifiers
    if static or not plan.receivers:
        instance = not static and bool(shell.subject_field)
        name = shell.subject_field if instance and shell.subject_field else context.imports.name(
            info.fqn, package=info.package)
        return scenarios_for(context, method, Receiver(name, instance=instance), prefix=prefix,
                             extra_variants=extra_variants, compensations=compensations)
    found: list[Scenario] = []
    for number, each in enumerate(plan.receivers):
        found += scenarios_for(context, method, each, prefix=f"{prefix}r{number}" if number else prefix,
                               extra_variants=extra_variants, compensations=compensations)
    return found

"""Guarded JUnit runs of a batch of test classes, isolating what kills the JVM: the one way validation and the
rerun of written tests (rerun.py) run tests, so both see the same sandbox, guard, basedir and JVM options."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from junitbot.errors import JunitbotError
from junitbot.validation.run.launcher import run_junit
from junitbot.validation.run.models import WHOLE_CLASS, JvmLaunch, RunConditions, TestCaseResult, TestRunResult

log = logging.getLogger(__name__)

_MAX_DEATHS_PER_CLASS = 3
"""How many of a class's methods may each kill its JVM (a crash, a kill) before the rest of the class is given up."""


def run_isolating(
    methods: Mapping[str, Collection[str]], *, classpath: Sequence[str], workdir: Path, conditions: RunConditions,
    launch: JvmLaunch,
) -> list[TestCaseResult]:
    """Run the test classes `methods` names (class -> its test methods) in one JVM in `workdir`, launched as `launch`
    says but always guarded; if it died early (a crash, a kill, or an exit where the JDK has no guard), each class
    again in a JVM of its own, and a class that still dies without the method that was running then. `methods` may
    also hold one key that is one method, "pkg.FooTest#method" (with no methods), to run that method alone."""
    if not methods:
        return []
    guarded = launch.model_copy(update={"guard": True})

    def run(classes: Sequence[str], exclude: Sequence[str] = ()) -> TestRunResult:
        return run_junit(test_classes=classes, classpath=classpath, workdir=workdir, conditions=conditions,
                         launch=guarded, exclude_methods=exclude)

    known = {name: set(names) for name, names in methods.items()}
    batch = run(list(known))
    died = _died(batch)
    if not died:
        return list(batch.cases)
    if len(known) == 1:
        return _without_killers(next(iter(known)), batch, run, known)
    cases = [c for c in batch.cases if c.test_class not in died]
    for test_class in sorted(died):
        cases.extend(_without_killers(test_class, run([test_class]), run, known))
    return cases


def _died(run: TestRunResult) -> set[str]:
    return {c.test_class for c in run.cases if c.method == WHOLE_CLASS and c.status in ("error", "timeout")}


def _without_killers(test_class: str, alone: TestRunResult,
                     run: Callable[[Sequence[str], Sequence[str]], TestRunResult],
                     methods: Mapping[str, set[str]]) -> list[TestCaseResult]:
    """The cases of `test_class` run alone: while its JVM dies with one of its `methods` running (the guard's log
    says which), that method gets the error and the class runs again without it."""
    killers: list[TestCaseResult] = []
    while _died(alone) and not alone.timed_out and len(killers) < _MAX_DEATHS_PER_CLASS:
        owner, _, method = (alone.running or "").partition("#")
        if owner != test_class or not method:
            break  # died outside a method of its own (construction, @BeforeAll, a nested class): the class fails
        why = next(c.message for c in alone.cases if c.method == WHOLE_CLASS)  # says which method ran
        killers.append(TestCaseResult(test_class=test_class, method=method, status="error", message=why))
        if methods.get(test_class, set()) <= {k.method for k in killers}:
            return killers  # nothing left to run
        try:
            alone = run([test_class], [f"{test_class}#{k.method}" for k in killers])
        except JunitbotError as e:  # a launcher that cannot leave methods out: the class fails, naming the method
            log.info("%s: %s", test_class, e)
            return [*killers, *(c for c in alone.cases if c.method == WHOLE_CLASS)]
    return [*killers, *alone.cases]

"""Which classes a run generates tests for: changed classes and their dependents, as config allows (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from junitbot.analysis import CodeGraph, DependencyAnalyzer, matches_any
from junitbot.config import JunitbotConfig
from junitbot.generation import Target


def selected_by_config(path: str, config: JunitbotConfig) -> bool:
    """`include` (empty: everything) minus `exclude`, as repo-relative globs over the source file."""
    if config.include and not matches_any(path, config.include):
        return False
    return not matches_any(path, config.exclude)


def targets_for(
    graph: CodeGraph, config: JunitbotConfig, *, changed_paths: Iterable[str] | None, classes: Iterable[str] = (),
    regenerate: Mapping[str, str] | None = None,
) -> list[Target]:
    """Named classes; else the classes a change check says to regenerate (with why); else the classes in changed
    files and their dependents; else (None) every main class."""
    analyzer = DependencyAnalyzer(graph)
    rows = {row.fqn: row for row in graph.types() if not row.is_test}
    chosen: dict[str, str] = {}
    named = [analyzer.lookup(name) for name in classes]
    if named:
        chosen.update({fqn: "named on the command line" for fqn in named})
    elif regenerate is not None:
        chosen.update(regenerate)
    elif changed_paths is None:
        chosen.update({fqn: "full pass" for fqn in rows})
    else:
        paths = set(changed_paths)
        changed = [fqn for fqn, row in rows.items() if row.path in paths]
        chosen.update({fqn: "changed" for fqn in changed})
        report = analyzer.impact_of_fqns(changed, depth=config.impact_depth)
        for dependent in report.dependents:
            chosen.setdefault(dependent.fqn, f"depends on {dependent.path[-1].target} ({dependent.path[0].kind.value})")
    targets = []
    for fqn, reason in sorted(chosen.items()):
        row = rows.get(fqn)
        if row is not None and (named or selected_by_config(row.path, config)):
            targets.append(Target(fqn=fqn, file=row.path, reason=reason))
    return targets


def prioritize_full_pass(graph: CodeGraph, targets: Iterable[Target],
                         coverage: Mapping[str, float | None] | None = None) -> list[Target]:
    """A full pass's order: classes without any test first, then the most depended-upon, then the least
    covered (line coverage last measured, unknown first), then by name; nested types after top-level ones (often
    private helpers a test cannot reach), interfaces and annotations last.

    `max_classes_per_run` caps a run from the front, so a scheduled pass spreads over nights in this order.
    """
    analyzer = DependencyAnalyzer(graph)
    rows = {row.fqn: row for row in graph.types()}

    covered = coverage or {}

    def key(target: Target) -> tuple[bool, bool, bool, int, float, str]:
        # Interfaces and annotations have no behaviour of their own to test: they go last whatever their fame.
        row = rows.get(target.fqn)
        contract = row is not None and row.kind in ("interface", "annotation")
        nested = row is not None and row.outer is not None
        tested = bool(analyzer.tests_of(target.fqn))
        dependents = len({source for source, _ in graph.dependents(target.fqn)})
        return (contract, nested, tested, -dependents, covered.get(target.fqn) or 0.0, target.fqn)

    return sorted(targets, key=key)

"""The one rule for which class a test class is named after (`OrderTest` tests `Order`), and which class of the
repository that name means, as javac resolves it in the test's source."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from junitbot.analysis.models import ImportInfo, JavaImport

# Checked in this order; a suffix wins over the `Test` prefix (`TestDataTest` tests `TestData`).
_TEST_SUFFIXES = ("Tests", "Test", "IT", "TestCase", "Spec")
_TEST_PREFIX = "Test"


def class_named_by_test(test_simple_name: str) -> str | None:
    """The simple name a test class is named after, or None when its name follows no test convention.

    `OrderTest`, `OrderTests`, `OrderIT`, `OrderTestCase`, `OrderSpec` and `TestOrder` all name `Order`;
    the prefix counts only before an upper-case letter (`Testing` names nothing).
    """
    for suffix in _TEST_SUFFIXES:
        if test_simple_name.endswith(suffix) and len(test_simple_name) > len(suffix):
            return test_simple_name[: -len(suffix)]
    stem = test_simple_name[len(_TEST_PREFIX):]
    if test_simple_name.startswith(_TEST_PREFIX) and stem[:1].isupper():
        return stem
    return None


def class_tested_by(
    test_name: str, *, package: str, imports: Iterable[ImportInfo | JavaImport],
    fqns_named: Callable[[str], Sequence[str]], generated_suffix: str | None = None,
) -> str | None:
    """The FQN of the repo class a test class is named after (junitbot's own `FooGeneratedTest` too, given the
    suffix), resolved as javac resolves that simple name in the test; None when the name follows no convention,
    or means no repo class, or several the test does not choose between."""
    generated = bool(generated_suffix) and test_name.endswith(generated_suffix or "") and test_name != generated_suffix
    name = test_name.removesuffix(generated_suffix or "") if generated else class_named_by_test(test_name)
    return None if name is None else _in_scope(name, package=package, imports=imports, fqns_named=fqns_named)


def _in_scope(
    name: str, *, package: str, imports: Iterable[ImportInfo | JavaImport], fqns_named: Callable[[str], Sequence[str]],
) -> str | None:
    """The repo type a simple name means in a source of `package` with `imports`, by javac's order: a single-type
    import, then the package, then on-demand imports (two of them naming it: ambiguous, None); a name the
    source never brings into scope means the only repo type of that name, if there is one."""
    known = set(fqns_named(name))
    items = list(imports)
    single = [i.name for i in items if not i.wildcard and i.name.rsplit(".", 1)[-1] == name]
    if single:
        return single[0] if single[0] in known else None  # imported from outside the repo
    own = f"{package}.{name}" if package else name
    if own in known:
        return own
    on_demand = {f"{i.name}.{name}" for i in items if i.wildcard} & known
    if on_demand:
        return on_demand.pop() if len(on_demand) == 1 else None
    return next(iter(known)) if len(known) == 1 else None

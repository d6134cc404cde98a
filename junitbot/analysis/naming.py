"""The one rule for which class a test class is named after: `OrderTest` tests `Order`."""

from __future__ import annotations

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

"""The symbols that do exist, for a repair prompt: the outline of each repository type a compile error names.

A small model that calls `Money.ofMajor(...)` where only `Money.of(...)` exists repeats the mistake when it is
shown javac's "cannot find symbol" alone (issue 17: three rounds, the same error). Beside the message the repair
prompt lists the constructors and methods of the type the error is about (javac's `location:`), of the class
under test, and of repository types the message names, from the code graph.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from junitbot.analysis import ClassInfo, type_outline
from junitbot.validation import ValidationIssue

# javac's categories (validation/javac.py) and the static symbol pass's that mean "that is not the API".
_SYMBOL_CATEGORIES = frozenset({"cannot-find-symbol", "incompatible-types", "wrong-arguments", "inaccessible",
                                "abstract-instantiation", "unknown-method", "unknown-symbol", "unknown-constructor"})
_TYPE_WORD = re.compile(r"\b(?:[a-z_][\w]*\.)*([A-Z][\w$]*)\b")
_MAX_TYPES = 4


def existing_symbols(issues: Iterable[ValidationIssue], *, subject: ClassInfo,
                     class_info: Callable[[str], ClassInfo | None],
                     lookup: Callable[[str], str | None]) -> tuple[str, ...]:
    """Outlines (declaration and public member signatures) of the types the errors are about, the class under
    test first; empty when no error is about a missing or mismatched symbol."""
    relevant = [i for i in issues if i.category in _SYMBOL_CATEGORIES]
    if not relevant:
        return ()
    wanted: list[str] = [subject.fqn]
    for issue in relevant:
        for name in _TYPE_WORD.findall(issue.message):
            fqn = lookup(name)
            if fqn is not None and fqn not in wanted:
                wanted.append(fqn)
    outlines = []
    for fqn in wanted[:_MAX_TYPES]:
        info = class_info(fqn)
        if info is not None and not info.is_test:
            outlines.append(type_outline(info))
    return tuple(outlines)

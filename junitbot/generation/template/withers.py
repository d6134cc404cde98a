"""Withers: an immutable value's `withX(v)` copies, and the attribute each one changes (pure).

joda-money's MoneyAmountStyle has ten withers and an `equals` over ten attributes. Its `equals` was only asked
about an object of another class and an equal style, so nine of its `&&` branches never saw a difference, and
each wither's "unchanged value: return this" branch never ran. A wither is asked again with the value its getter
gives (`style.withZeroCharacter(style.getZeroCharacter())`), and `equals` about the receiver's copy made by each
wither (`MoneyAmountStyle.ASCII_DECIMAL_POINT_GROUP3_COMMA.withZeroCharacter('a')`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from junitbot.analysis import ClassInfo, MethodInfo, ParameterInfo
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.template.neighbours import with_argument

# The withers `equals` is asked through, at most: each is one more scenario of the same method.
MAX_EQUALS_WITHERS = 6


def wither_getter(method: MethodInfo, subject: ClassInfo) -> MethodInfo | None:
    """The getter of the attribute `method` changes (`getZeroCharacter` for `withZeroCharacter`, `isAbsValue` for
    `withAbsValue`), where `method` is a wither of `subject` and the getter returns what it takes."""
    if not _is_wither(method, subject):
        return None
    suffix = method.name[len("with"):]
    taken = method.parameters[0].type.text
    return next((m for m in subject.methods if m.name in (f"get{suffix}", f"is{suffix}") and not m.parameters
                 and "static" not in m.modifiers and m.return_type is not None and m.return_type.text == taken), None)


def unchanged_attribute(method: MethodInfo, base: Sequence[str], subject: ClassInfo,
                        receiver: str) -> list[tuple[str, list[str]]]:
    """(`whenZeroCharacterIsUnchanged`, argument lines): a wither given the value its getter returns now."""
    getter = wither_getter(method, subject)
    if getter is None or " = " not in base[0]:
        return []
    return [(f"when{method.name[len('with'):]}IsUnchanged", with_argument(base, 0, f"{receiver}.{getter.name}()"))]


def equals_through_withers(method: MethodInfo, base: Sequence[str], subject: ClassInfo, construction: str | None,
                           value_of: Callable[[ParameterInfo], str | None]) -> list[tuple[str, list[str]]]:
    """(`whenOtherHasAnotherZeroCharacter`, argument lines): `equals` asked about the receiver's construction
    changed by one wither, for each of the first `MAX_EQUALS_WITHERS` whose argument `value_of` can write."""
    if method.name != "equals" or len(method.parameters) != 1 or construction is None or " = " not in base[0]:
        return []
    found = []
    for wither in (m for m in subject.methods if _is_wither(m, subject)):
        value = value_of(wither.parameters[0])
        if value is None or value == "null":
            continue
        found.append((f"whenOtherHasAnother{wither.name[len('with'):]}",
                      with_argument(base, 0, f"{construction}.{wither.name}({value})")))
        if len(found) == MAX_EQUALS_WITHERS:
            break
    return found


def _is_wither(method: MethodInfo, subject: ClassInfo) -> bool:
    return (method.name.startswith("with") and method.name[4:5].isupper() and len(method.parameters) == 1
            and "public" in method.modifiers and "static" not in method.modifiers and method.return_type is not None
            and resolved_fqn(method.return_type) == subject.fqn)

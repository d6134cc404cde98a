"""Arguments of a repo type that differ from the receiver, or from another argument, in one number (pure).

`bigMoney.compareTo(other)` with every `other` in another currency, or equal to the receiver, only ever
returns 0 or throws: the branches of a comparison, an equality or an arithmetic method between two instances
need an argument built as the receiver was with one part changed (USD 11.00 and USD 9.00 beside USD 10.00).
The receiver's own construction (`BigMoney.of(CurrencyUnit.USD, new BigDecimal("10.00"))`) is copied with its
first number one more and one less, the scale it was written with kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from junitbot.analysis import MethodInfo
from junitbot.analysis.brackets import closing_bracket, split_arguments
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.template.access import ClassLookup
from junitbot.generation.template.mined import supertypes

# A string or char literal (skipped whole: a number inside `"ABC-1234"` is text), or a bare decimal literal.
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|\'(?:[^\'\\]|\\.)*\'|(?<![\w$.])(\d+(?:\.\d+)?)([lLfFdD]?)(?![\w.])')
_DECIMAL_TEXT = re.compile(r"-?\d+(?:\.\d+)?")
# A collection of one element, as the scenarios write it.
_SINGLE_ELEMENT = re.compile(r"(List\.of|Set\.of|Arrays\.asList)\((.+)\)")
_COLLECTIONS = frozenset({"java.lang.Iterable", "java.util.Collection", "java.util.List", "java.util.Set"})


def shifted_numbers(expression: str) -> list[tuple[str, str]]:
    """(`Greater`, text) and (`Less`, text): `expression` with its first number, bare (`10`, `2.5d`) or a numeric
    string (`"10.00"`), one more and one less; none where it holds no number."""
    found = _first_number(expression)
    if found is None:
        return []
    value, start, end = found
    return [(word, f"{expression[:start]}{_written(shifted)}{expression[end:]}")
            for word, shifted in (("Greater", value + 1), ("Less", value - 1))]


def signed_variants(expression: str) -> list[tuple[str, str]]:
    """(`Zero`, text) and (`Negative`, text): `expression` with its first number zero and negated, scale kept
    (`10.00` → `0.00`, `-10.00`); for a zero, one and minus one (`Positive`, `Negative`). What `abs()`, `isZero()`
    and `signum()` branch on, where the receiver was built positive."""
    found = _first_number(expression)
    if found is None:
        return []
    value, start, end = found
    changed = [("Positive", value + 1), ("Negative", value - 1)] if value == 0 else [
        ("Zero", value * 0), ("Negative", -abs(value))]
    return [(word, f"{expression[:start]}{_written(number)}{expression[end:]}") for word, number in changed]


def _first_number(expression: str) -> tuple[Decimal, int, int] | None:
    """The first number of `expression` outside text (a bare literal, or a string holding only a number), and where
    its digits start and end."""
    for match in _TOKEN.finditer(expression):
        quoted = match[1] is not None and _DECIMAL_TEXT.fullmatch(match[1]) is not None
        if not quoted and match[2] is None:
            continue
        start, end = match.span(1) if quoted else match.span(2)
        return Decimal(expression[start:end]), start, end
    return None


def own_type_neighbours(method: MethodInfo, base: Sequence[str], *, construction: str | None, subject: str,
                        lookup: ClassLookup) -> list[tuple[str, list[str]]]:
    """(hint, argument lines) where one argument is built as another instance of its type was, with one number
    shifted (`whenOtherIsGreater`, `whenOtherIsLess`): the first parameter a `subject` instance can be passed to,
    from the receiver's `construction`; else, for a method taking two of one repo type (`MoneyUtils.max(a, b)`), the
    second from the first. `base` holds the first scenario's declarations, one per parameter ("" for a mock's)."""
    accepting = {subject, *supertypes(subject, lookup)}
    if method.name == "equals" and construction is not None and len(method.parameters) == 1 and " = " in base[0]:
        # `equals(Object)` is asked about an instance of the class: an equal one, then ones a number apart.
        declared = base[0].split(" = ", 1)[0]
        name = method.parameters[0].name
        return [(f"when{name[:1].upper()}{name[1:]}IsEqual", [f"{declared} = {construction};"]),
                *_shifted(method, base, 0, construction)]
    return [*_one_apart(method, base, construction, accepting), *_two_elements(method, base, construction, accepting)]


def _one_apart(method: MethodInfo, base: Sequence[str], construction: str | None,
               accepting: set[str]) -> list[tuple[str, list[str]]]:
    built = [(index, resolved_fqn(param.type)) for index, param in enumerate(method.parameters)
             if not param.type.array and " = " in base[index]]
    if construction is not None:
        for index, fqn in built:
            if fqn in accepting:
                return _shifted(method, base, index, construction)
    first: dict[str, int] = {}
    for index, fqn in built:
        if fqn is not None and fqn in first and method.parameters[index].type.in_repo:
            return _shifted(method, base, index, base[first[fqn]].split(" = ", 1)[1].rstrip(";"))
        first.setdefault(fqn or "", index)
    return []


def _two_elements(method: MethodInfo, base: Sequence[str], construction: str | None,
                  accepting: set[str]) -> list[tuple[str, list[str]]]:
    """(`whenMoniesHasTwo`, argument lines): a varargs or a collection of the subject's type given two instances
    one number apart, where the first scenario gave one (`Money.total(monies)` adds nothing up with one)."""
    for index, param in enumerate(method.parameters):
        declared, _, value = base[index].rstrip(";").partition(" = ")
        if not value:
            continue  # a mock's line
        if param.varargs and not param.type.array and resolved_fqn(param.type) in accepting and "<" not in declared:
            kind, name = declared.rsplit(" ", 1)
            element, opening, closing = value, f"{kind}[] {name} = new {kind}[] {{", "};"
        elif (single := single_element(value)) is not None and resolved_fqn(param.type) in _COLLECTIONS and (
                param.type.arguments and resolved_fqn(param.type.arguments[0]) in accepting):
            element, opening, closing = single[1], f"{declared} = {single[0]}(", ");"
        else:
            continue
        first = element if _first_number(element) is not None else construction
        shifted = shifted_numbers(first) if first is not None else []
        if shifted:
            line = f"{opening}{first}, {shifted[0][1]}{closing}"
            return [(f"when{param.name[:1].upper()}{param.name[1:]}HasTwo", [*base[:index], line, *base[index + 1:]])]
    return []


def single_element(value: str) -> tuple[str, str] | None:
    """(`List.of`, the element) of a collection of one element as the scenarios write it; None for anything else
    (`List.of(a).subList(..)`, two elements)."""
    found = _SINGLE_ELEMENT.fullmatch(value)
    if found is None or closing_bracket(value, found.start(2) - 1) != len(value) - 1:
        return None
    return (found[1], found[2]) if len(split_arguments(found[2])) == 1 else None


def _shifted(method: MethodInfo, base: Sequence[str], index: int, expression: str) -> list[tuple[str, list[str]]]:
    name = method.parameters[index].name
    title = name[:1].upper() + name[1:]
    return [(f"when{title}Is{word}", with_argument(base, index, text)) for word, text in shifted_numbers(expression)]


def with_argument(base: Sequence[str], index: int, value: str) -> list[str]:
    """The argument declarations `base` with the one at `index` given `value`, declared as it was."""
    return [*base[:index], f"{base[index].split(' = ', 1)[0]} = {value};", *base[index + 1:]]


def _written(value: Decimal) -> str:
    """A decimal as Java source writes it, its scale kept (`11.00`, not `1.1E+1`)."""
    return format(value, "f")

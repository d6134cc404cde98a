"""Arguments of the subject's own type that differ from the receiver in one number (pure).

`bigMoney.compareTo(other)` with every `other` in another currency, or equal to the receiver, only ever
returns 0 or throws: the branches of a comparison, an equality or an arithmetic method between two instances
need an argument built as the receiver was with one part changed (USD 11.00 and USD 9.00 beside USD 10.00).
The receiver's own construction (`BigMoney.of(CurrencyUnit.USD, new BigDecimal("10.00"))`) is copied with its
first number one more and one less, the scale it was written with kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from junitbot.analysis import MethodInfo
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.template.access import ClassLookup
from junitbot.generation.template.mined import supertypes

# A string or char literal (skipped whole: a number inside `"ABC-1234"` is text), or a bare decimal literal.
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|\'(?:[^\'\\]|\\.)*\'|(?<![\w$.])(\d+(?:\.\d+)?)([lLfFdD]?)(?![\w.])')
_DECIMAL_TEXT = re.compile(r"-?\d+(?:\.\d+)?")


def shifted_numbers(expression: str) -> list[tuple[str, str]]:
    """(`Greater`, text) and (`Less`, text): `expression` with its first number, bare (`10`, `2.5d`) or a numeric
    string (`"10.00"`), one more and one less; none where it holds no number."""
    for match in _TOKEN.finditer(expression):
        text = match[1] if match[1] is not None and _DECIMAL_TEXT.fullmatch(match[1]) else match[2]
        if text is None:
            continue
        try:
            value = Decimal(text)
        except InvalidOperation:  # pragma: no cover - the patterns admit decimals only
            return []
        start, end = match.span(1) if match[1] is not None else match.span(2)
        return [(word, f"{expression[:start]}{_written(shifted)}{expression[end:]}")
                for word, shifted in (("Greater", value + 1), ("Less", value - 1))]
    return []


def own_type_neighbours(method: MethodInfo, base: Sequence[str], *, construction: str | None, subject: str,
                        lookup: ClassLookup) -> list[tuple[str, list[str]]]:
    """(hint, argument lines) for the first parameter of `method` a `subject` instance can be passed to: the
    receiver's `construction` with one number shifted (`whenOtherIsGreater`, `whenOtherIsLess`). `base` holds the
    first scenario's declarations, one per parameter ("" for a parameter a mock is handed)."""
    if construction is None:
        return []
    accepting = {subject, *supertypes(subject, lookup)}
    for index, param in enumerate(method.parameters):
        if param.type.array or resolved_fqn(param.type) not in accepting or " = " not in base[index]:
            continue
        declared = base[index].split(" = ", 1)[0]
        title = param.name[:1].upper() + param.name[1:]
        return [(f"when{title}Is{word}", [*base[:index], f"{declared} = {text};", *base[index + 1:]])
                for word, text in shifted_numbers(construction)]
    return []


def _written(value: Decimal) -> str:
    """A decimal as Java source writes it, its scale kept (`11.00`, not `1.1E+1`)."""
    return format(value, "f")

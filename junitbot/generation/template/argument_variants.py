"""Argument variants of a scenario: each takes the first scenario's argument declarations and gives others, each
named for what it changes (pure).

The other side of a comparison the method makes on a parameter, a text padded for a trim, a decimal one place
finer, a span's start late in its day, the text constants the class ships, and the receiver as the class's other
constants. Each returns (hint, argument lines); `scenarios_for` takes them in turn.
"""

from __future__ import annotations

import re
import string
from typing import NamedTuple

from junitbot.analysis import MethodInfo, ParameterInfo
from junitbot.analysis.brackets import split_arguments
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.literals import java_string
from junitbot.generation.template.answers import NUMERIC
from junitbot.generation.template.builder import LATE_IN_YEAR, LATE_START, is_span_start, millis_value
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.jdk_values import TEXT_TYPES
from junitbot.generation.template.naming import camel, value_title
from junitbot.generation.template.neighbours import single_element, with_argument
from junitbot.generation.template.values import shipped_constants


def input_variants(method: MethodInfo, base: list[str], *, nulls: bool = False) -> list[tuple[str, list[str]]]:
    """Arguments that take the other side of each comparison the method makes on a parameter; with `nulls`, only
    those that pass null where the method checks for it (scenarios.py writes each as a test of its own even where
    the result is the one a value gets: `tokenize(null, 1, 1)` returns the empty list `tokenize({'a'}, 1, 1)` does,
    and only it tells the null check from none)."""
    params = {p.name: (i, p) for i, p in enumerate(method.parameters)}
    found: list[tuple[str, list[str]]] = []
    for compared in method.compared_literals:
        subject = compared.subject.split(".", 1)[0].split("(", 1)[0]
        if subject not in params or not base[params[subject][0]] or (compared.literal == "null") != nulls:
            continue  # not a parameter, one a mock is handed, or not of the kind asked for
        index, param = params[subject]
        for value in _values_around(compared.literal, compared.operator, param):
            found.append((f"when{camel(param.name)}Is{value_title(value)}", with_argument(base, index, value)))
    return found




def padded_text(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """A text method's first plain text argument padded with spaces and in mixed case: on a plain word a trim, a
    strip or a case change returns its input unchanged, so only such an input tells them from the identity (issue
    29: `rtrim("text")` equals "text" for any implementation)."""
    if method.return_type is None or method.return_type.text not in TEXT_TYPES:
        return []
    for index, param in enumerate(method.parameters):
        value = base[index].split(" = ", 1)[1].rstrip(";") if " = " in base[index] else ""
        if param.type.text in TEXT_TYPES and re.fullmatch(r'"[A-Za-z][\w ]*"', value):
            padded = f'"  {value[1:2].upper()}{value[2:-1]}  "'
            return [(f"when{camel(param.name)}IsPadded", with_argument(base, index, padded))]
    return []


def late_start(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """A span's start in milliseconds moved late into its first day (`builder.LATE_START`), where the method also
    takes the span's end: DurationFormatUtils' `formatPeriod` borrowing a second from the minutes, which a start at
    0 never reaches. A long's start also goes to the last millisecond of its year, with an end weeks into the next
    (`builder.LATE_IN_YEAR`): then the days borrow from the month and the months from the year."""
    starts = [i for i, p in enumerate(method.parameters) if is_span_start(p.name, p.type.text)]
    if len(method.parameters) < 2 or not starts or " = " not in base[starts[0]]:
        return []
    index = starts[0]
    param = method.parameters[index]
    found = [(f"when{camel(param.name)}IsLateInTheDay", with_argument(base, index, LATE_START[param.type.text]))]
    ends = [i for i, p in enumerate(method.parameters)
            if i != index and p.type.text == "long" and millis_value(p.name, "long") == LATE_IN_YEAR[1]]
    if param.type.text == "long" and ends and " = " in base[ends[0]]:
        late = with_argument(with_argument(base, index, LATE_IN_YEAR[0]), ends[0], LATE_IN_YEAR[1])
        found.append((f"when{camel(param.name)}IsLateInTheYear", late))
    return found


def no_varargs(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """A varargs parameter given no values (`capitalize(str, new char[0])`) where the first scenario gave some: the
    empty case a method often answers apart (WordUtils' `delimLen == 0`, `containsAllWords(word)` with no words),
    which one value never reaches."""
    if not method.parameters or not method.parameters[-1].varargs:
        return []
    index = len(method.parameters) - 1
    declared, _, value = base[index].rstrip(";").partition(" = ")
    if not value or "<" in declared or " " not in declared:
        return []  # a mock's line, or a generic element type, whose array cannot be created
    kind, name = declared.rsplit(" ", 1)
    element = kind.removesuffix("[]")
    line = f"{element}[] {name} = new {element}[0];"
    return [(f"when{camel(name)}HasNone", [*base[:index], line])]


# An array of one element as the scenarios write it (`new Integer[] { 2 }`), and a plain int or letter literal.
_ARRAY_OF_ONE = re.compile(r"new ([\w.$]+)\[\] \{ (.+) \}")
_INT = re.compile(r"-?\d+")
_LETTER = re.compile(r"'([A-Za-z0-9])'")
# The sizes the containers get, first to last: none is 1 apart from the last, none divides another, so a size
# swapped, added instead of subtracted or multiplied instead of divided shows in what they give.
_NESTED_SIZES = (8, 3, 1)


class _OneElement(NamedTuple):
    """An argument declaration holding a container of one element, split where the elements go."""

    parameter: int  # its index among the parameters
    opening: str  # `Integer[] original = new Integer[] { `
    element: str  # `2`
    closing: str  # ` };`
    kind: str  # the element type, as written


def nested_sizes(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """Two or more containers of one element type, each given one element by the first scenario, given 8, 3 and 1
    distinct elements, each the first of the one before (`whenOriginalHoldsMoreThanEncoding`): an alphabet, the
    letters it is encoded with and those left alone. With one element each, every size is 1, every quotient of sizes
    1 and every loop over them runs once: AlphabetConverter's code length from its alphabets' sizes (`(o - d) / (e -
    d)`) was never computed from sizes that differ."""
    by_kind: dict[str, list[_OneElement]] = {}
    for index, param in enumerate(method.parameters):
        declared, _, value = base[index].rstrip(";").partition(" = ")
        if not value:
            continue
        if (array := _ARRAY_OF_ONE.fullmatch(value)) is not None and len(split_arguments(array[2])) == 1:
            found = _OneElement(index, f"{declared} = new {array[1]}[] {{ ", array[2], " };", array[1])
        elif (single := single_element(value)) is not None and param.type.arguments:
            found = _OneElement(index, f"{declared} = {single[0]}(", single[1], ");", param.type.arguments[0].text)
        else:
            continue
        by_kind.setdefault(found.kind, []).append(found)
    group = next((entries for entries in by_kind.values() if len(entries) >= 2), None)
    elements = _distinct_elements(group[0].element, _NESTED_SIZES[0]) if group else None
    if group is None or elements is None:
        return []
    lines = list(base)
    for position, container in enumerate(group):
        size = _NESTED_SIZES[min(position, len(_NESTED_SIZES) - 1)]
        lines[container.parameter] = f"{container.opening}{', '.join(elements[:size])}{container.closing}"
    first, second = (method.parameters[container.parameter].name for container in group[:2])
    return [(f"when{camel(first)}HoldsMoreThan{camel(second)}", lines)]


def _distinct_elements(element: str, count: int) -> list[str] | None:
    """`count` distinct literals from `element` on (`2, 3, 4`, `'a', 'b', 'c'`); None for other elements."""
    if _INT.fullmatch(element):
        return [str(int(element) + step) for step in range(count)]
    letter = _LETTER.fullmatch(element)
    if letter is None:
        return None
    alphabet = next(a for a in (string.ascii_lowercase, string.ascii_uppercase, string.digits) if letter[1] in a)
    start = alphabet.index(letter[1])
    picked = (alphabet[start:] + alphabet[:start])[:count]  # on from the letter, round the alphabet's end
    return [f"'{c}'" for c in picked] if len(picked) == count else None


# A decimal written with a scale (`new BigDecimal("10.00")`), and the digit that makes it one place finer.
_SCALED_DECIMAL = re.compile(r'new BigDecimal\("(-?\d+\.\d+)"\)')


def finer_decimal(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """The first decimal argument written with a scale, given one more place (`10.00` → `10.005`): what a
    currency's scale check rejects (`Money.of(USD, 10.005)`) and a rounding mode rounds one way or the other, where
    every decimal tried so far fitted."""
    for index, param in enumerate(method.parameters):
        value = base[index].split(" = ", 1)[1].rstrip(";") if " = " in base[index] else ""
        scaled = _SCALED_DECIMAL.fullmatch(value)
        if resolved_fqn(param.type) == "java.math.BigDecimal" and scaled is not None:
            finer = f'new BigDecimal("{scaled[1]}5")'
            return [(f"when{camel(param.name)}HasMoreDecimals", with_argument(base, index, finer))]
    return []


# The other constants of its own type a class ships that a receiver built as one of them is also tried as.
_OTHER_CONSTANTS = 2


def other_constants(context: ClassContext, construction: str) -> list[tuple[str, str]]:
    """(title, text) of the subject's other public constants of its own type, where the receiver is one of them."""
    subject = context.subject
    owner = context.imports.name(subject.fqn, package=subject.package)
    names = [f.name for f in shipped_constants(subject)]
    current = construction.rsplit(".", 1)
    if len(current) != 2 or current[0] != owner or current[1] not in names:
        return []
    return [(value_title(f"{owner}.{name}"), f"{owner}.{name}") for name in names if name != current[1]][
        :_OTHER_CONSTANTS]


# The class's own text constants a text parameter is tried with.
_SHIPPED_TEXTS = 2


def shipped_texts(context: ClassContext, method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """A text parameter given the public String constants the subject declares (DurationFormatUtils'
    `ISO_EXTENDED_FORMAT_PATTERN` for `formatDuration(millis, format)`): the texts the class is made to read, where
    "text" meant nothing to it."""
    subject = context.subject
    constants = [f.name for f in subject.fields if f.initialized and f.type.text in ("String", "java.lang.String")
                 and {"public", "static", "final"} <= set(f.modifiers)][:_SHIPPED_TEXTS]
    index = _text_parameter(method, base)
    if not constants or index is None:
        return []
    owner = context.imports.name(subject.fqn, package=subject.package)
    name = method.parameters[index].name
    return [(f"when{camel(name)}Is{value_title(f'{owner}.{constant}')}",
             with_argument(base, index, f"{owner}.{constant}")) for constant in constants]


# The texts of the class's Javadoc tables a text parameter is tried with.
_DOCUMENTED_TEXTS = 3


def documented_texts(context: ClassContext, method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """A text parameter given the values the subject's Javadoc tables list (DurationFormatUtils' patterns with
    optional blocks, `[d'd'H'h'm'm']s's'`), those whose names would differ, longest first."""
    index = _text_parameter(method, base)
    if not context.subject.documented_texts or index is None:
        return []
    name = method.parameters[index].name
    found: dict[str, list[str]] = {}
    for text in context.subject.documented_texts:
        value = java_string(text)
        found.setdefault(f"when{camel(name)}Is{value_title(value)}", with_argument(base, index, value))
    return list(found.items())[:_DOCUMENTED_TEXTS]


def _text_parameter(method: MethodInfo, base: list[str]) -> int | None:
    """The first text parameter that was given a value (not a mock)."""
    return next((i for i, p in enumerate(method.parameters) if p.type.text in TEXT_TYPES and " = " in base[i]), None)


def _values_around(literal: str, operator: str, param: ParameterInfo) -> list[str]:
    type_text = param.type.text
    if literal == "null":
        return ["null"] if type_text not in NUMERIC or type_text[:1].isupper() else []
    if operator == "case" and not literal[:1].isdigit():
        return [f"{type_text}.{literal.rsplit('.', 1)[-1]}"] if param.type.in_repo else []
    if type_text in NUMERIC and re.fullmatch(r"-?\d+[lL]?", literal):
        number = int(literal.rstrip("lL"))
        suffix = "L" if type_text in ("long", "Long") else ""
        return [f"{v}{suffix}" for v in (number, number + 1, number - 1)]
    if type_text == "String" and literal.startswith('"') and operator != "matches":
        return [literal]  # a pattern is no value: constructor scenarios build matching and other strings
    return []

"""Two texts of one call that differ, where the first scenario gave them the same (pure).

A distance, a similarity or a diff between two texts given `"text"` twice returns what "equal" returns: Hamming's
and Levenshtein's 0, an edit script without a modification (issue 29: StringsComparator's 143 mutants, 20 %
killed). The classic pairs of the literature say what such code computes: `karolin` / `kathrin`, one length and
three letters apart (Hamming's example); `kitten` / `sitting`, substitutions and an insertion (Levenshtein's), and
the same the longer first, which the code may swap to use less memory; and one word twice, so that what equal
texts give is said on a chosen text too (a test on made-up texts gives way to one on chosen texts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from junitbot.analysis import MethodInfo
from junitbot.generation.template.jdk_values import MADE_UP_TEXTS, TEXT_TYPES
from junitbot.generation.template.naming import camel
from junitbot.generation.template.neighbours import with_argument

Pair = tuple[str, str, str]  # (what differs, first, second)
# One length, and equal: what a method's first variants try (a limit of scenarios per method leaves room for its
# checked nulls and emptied sides).
SAME_LENGTH: tuple[Pair, ...] = (("ThreeLettersApart", "karolin", "kathrin"), ("Equal", "kitten", "kitten"))
# Lengths that differ, both ways: after a method's emptied sides.
OTHER_LENGTHS: tuple[Pair, ...] = (("LongerSecond", "kitten", "sitting"), ("LongerFirst", "sitting", "kitten"))
PAIRS = (*SAME_LENGTH, *OTHER_LENGTHS)
_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')
_TEXT = "text"  # the kind of every text type


def differing_texts(method: MethodInfo, base: list[str], pairs: Sequence[Pair] = PAIRS) -> list[tuple[str, list[str]]]:
    """(hint, arguments): the method's first two parameters that hold one text, the same (a text given `"text"`
    twice, two vectors keyed `"text"`), given each of `pairs` (`whenLeftAndRightAreThreeLettersApart`); none where
    they already differ. A container's text is replaced only where it is one the generator made up."""
    held = [(i, text) for i, p in enumerate(method.parameters)
            if (text := _held_text(p.type.text, base[i])) is not None]
    # Two of one kind: two texts, or two containers of one type (two vectors), not a text and the sink it is written
    # into.
    kinds = [_TEXT if method.parameters[i].type.text in TEXT_TYPES else method.parameters[i].type.text
             for i, _ in held]
    if len(held) < 2 or held[0][1] != held[1][1] or kinds[0] != kinds[1]:
        return []
    (first, text), (second, _) = held[:2]
    names = f"{camel(method.parameters[first].name)}And{camel(method.parameters[second].name)}"
    return [(f"when{names}Are{what}",
             with_argument(with_argument(base, first, _replaced(base[first], text, one)), second,
                           _replaced(base[second], text, other)))
            for what, one, other in pairs]


def _held_text(type_text: str, declaration: str) -> str | None:
    """The one text literal a parameter's declaration gives it: the whole value of a text parameter, the only text
    inside another's value (`Collections.singletonMap("text", 2)`) where the generator made it up; else None."""
    value = _value(declaration)
    if value is None:
        return None
    if type_text in TEXT_TYPES:
        return value if _STRING_LITERAL.fullmatch(value) else None
    found = _STRING_LITERAL.findall(value)
    return found[0] if len(found) == 1 and found[0][1:-1] in MADE_UP_TEXTS else None


def _replaced(declaration: str, text: str, word: str) -> str:
    """The value of `declaration` with its text literal `text` made `word`."""
    value = _value(declaration) or ""
    return value.replace(text, f'"{word}"', 1)


def differing_construction(construction: str) -> list[tuple[str, str]]:
    """(word, expression): a receiver built with the same text literal twice or more (`new StringsComparator("text",
    "text")`) built with its first two given each of `PAIRS` instead; none otherwise."""
    literals = list(_STRING_LITERAL.finditer(construction))
    if len(literals) < 2 or literals[0].group() != literals[1].group():
        return []
    one, other = literals[0], literals[1]
    return [(what, f'{construction[:one.start()]}"{a}"{construction[one.end():other.start()]}"{b}"'
                   f'{construction[other.end():]}') for what, a, b in PAIRS]


def _value(declaration: str) -> str | None:
    """`"text"` of `CharSequence left = "text";`."""
    return declaration.split(" = ", 1)[1].rstrip(";").strip() if " = " in declaration else None

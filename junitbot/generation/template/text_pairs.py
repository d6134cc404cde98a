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

from junitbot.analysis import MethodInfo
from junitbot.generation.template.naming import camel
from junitbot.generation.template.neighbours import with_argument

_TEXT_TYPES = frozenset({"String", "CharSequence", "java.lang.String", "java.lang.CharSequence"})
# (what differs, first, second)
PAIRS = (
    ("ThreeLettersApart", "karolin", "kathrin"),
    ("Equal", "kitten", "kitten"),
    ("LongerSecond", "kitten", "sitting"),
    ("LongerFirst", "sitting", "kitten"),
)
_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


def differing_texts(method: MethodInfo, base: list[str]) -> list[tuple[str, list[str]]]:
    """(hint, arguments): the method's first two text parameters, given one text by the first scenario, given each
    of `PAIRS` (`whenLeftAndRightAreThreeLettersApart`); none where they already differ or are not literals."""
    texts = [i for i, p in enumerate(method.parameters) if p.type.text in _TEXT_TYPES and " = " in base[i]]
    if len(texts) < 2:
        return []
    first, second = texts[:2]
    value = _value(base[first])
    if value is None or not _STRING_LITERAL.fullmatch(value) or value != _value(base[second]):
        return []
    names = f"{camel(method.parameters[first].name)}And{camel(method.parameters[second].name)}"
    return [(f"when{names}Are{what}", with_argument(with_argument(base, first, f'"{one}"'), second, f'"{other}"'))
            for what, one, other in PAIRS]


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

"""Scenarios whose method handed one of its text inputs back unchanged, tried again with inputs it cannot (pure).

`squeeze("text", "text")` returns "text", as the identity would, or a mutant that leaves the text alone: a test
asserting it tells nothing from nothing (issue 29 item 4: "a check that would hold for the identity is replaced by
an input that takes the other branch"). The text is amplified into the shapes text methods act on: its characters
repeated, markup and quotes, the call's other text inside it twice, padded and capitalised, two words, escapes. A
variant that comes back changed supersedes the scenarios it came from (that call's, handing that text back), whose
tests then are not written; one that comes back unchanged as well is not written either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from junitbot.generation.literals import java_string
from junitbot.generation.template.bodies import accidental
from junitbot.generation.template.observations import Observation
from junitbot.generation.template.probe import Scenario

MAX_PER_SCENARIO = 7
MAX_PER_CLASS = 48
_MAX_LENGTH = 60  # longer texts are not placeholders; amplifying them makes names and files long
# A local of a text type given a string literal (its escapes are JSON's: `java_string` writes them).
_TEXT_LOCAL = re.compile(r'^((?:final\s+)?(?:String|CharSequence|java\.lang\.String)\s+(\w+)\s*=\s*)'
                         r'"((?:[^"\\]|\\.)*)";$')
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")


class Amplified(NamedTuple):
    """A variant of the scenarios that returned a text input unchanged: their ids (one method's calls that handed the
    same local back), the local whose text the variant changed, the variant."""

    origins: tuple[str, ...]
    local: str
    scenario: Scenario


def unchanged_input(scenario: Scenario, observed: Observation | None, *, only: str | None = None) -> str | None:
    """The local whose text the call returned unchanged (`only`: that local or none), not empty (an empty text
    coming back is a boundary answer); None where there is none."""
    if (scenario.constructor or observed is None or observed.outcome != "returned" or observed.value is None
            or observed.value.t != "String" or not observed.value.v or accidental(scenario, observed)):
        return None
    arguments = set(_NAME.findall(_argument_text(scenario.call)))
    texts = _texts(scenario)
    for name, text in texts.items():
        if name in arguments and text == observed.value.v and only in (None, name):
            return name
    return None


def _texts(scenario: Scenario) -> dict[str, str]:
    """The text each text local of the arrange step holds (a literal whose escapes JSON does not read is left out)."""
    found = {}
    for line in scenario.arrange:
        match = _TEXT_LOCAL.match(line.strip())
        if match is None:
            continue
        try:
            found[match[2]] = json.loads(f'"{match[3]}"')
        except ValueError:
            continue
    return found


def amplified(scenarios: Sequence[Scenario], observations: Mapping[str, Observation], *,
              prefix: str) -> list[Amplified]:
    """The variants of the scenarios that returned a text input unchanged; `prefix` starts their ids.

    The scenarios of one call that handed the same local back are one group, amplified from its first: `escapeHtml4`
    on "text" and on "  Text  " is one question. Shapes are taken in turn across the groups, the first shape of
    each before the second of any, so that a class of twenty such methods gets each of them tried within its
    MAX_PER_CLASS variants, not the first four six times."""
    groups: dict[tuple[str, str], list[Scenario]] = {}
    for scenario in scenarios:
        name = unchanged_input(scenario, observations.get(scenario.id))
        if name is not None:
            groups.setdefault((scenario.call, name), []).append(scenario)
    shapes = {key: _shapes(members[0], key[1])[:MAX_PER_SCENARIO] for key, members in groups.items()}
    found: list[Amplified] = []
    tried = {(s.call, tuple(s.arrange)) for s in scenarios}  # the same text passed to another method is new
    for turn in range(MAX_PER_SCENARIO):
        for (call, name), members in groups.items():
            if turn >= len(shapes[call, name]) or len(found) >= MAX_PER_CLASS:
                continue
            suffix, text = shapes[call, name][turn]
            first = members[0]
            arrange = tuple(_with_text(line, name, text) for line in first.arrange)
            if (call, arrange) in tried:
                continue
            tried.add((call, arrange))
            found.append(Amplified(tuple(m.id for m in members), name, first.model_copy(update={
                "id": f"{prefix}_{len(found)}", "arrange": arrange, "hint": _hint(first.hint, name, suffix),
                "base": None, "withheld": None})))
    return found


def settled(variants: Sequence[Amplified],
            observations: Mapping[str, Observation]) -> tuple[frozenset[str], frozenset[str]]:
    """What the probe of `variants` (from `amplified`) settled: the scenarios (ids) one of whose variants returned a
    text other than the text it changed (its test says more, so the identity's are not written), and the variants
    that returned that text unchanged too (they say nothing the identity's test does not)."""
    superseded: set[str] = set()
    unchanged: set[str] = set()
    for origins, local, variant in variants:
        observed = observations.get(variant.id)
        if observed is None or observed.outcome != "returned" or accidental(variant, observed):
            continue
        if unchanged_input(variant, observed, only=local) is not None:
            unchanged.add(variant.id)
        elif observed.value is not None and observed.value.t == "String":
            superseded.update(origins)
    return frozenset(superseded), frozenset(unchanged)


def _shapes(scenario: Scenario, name: str) -> list[tuple[str, str]]:
    """(what the name says, the new text) for the text of local `name`."""
    texts = _texts(scenario)
    text = texts[name]
    if len(text) > _MAX_LENGTH:
        return []
    middle = len(text) // 2
    # Markup, quotes, separators and a letter outside ASCII, which escaping code changes (`escapeCsv` and
    # `escapeHtml4` hand "text" back as it came); escapes and a quoted field, which unescaping code reads.
    shapes = [("HasMarkup", f'<{text}> & "{text}", {text}\'s \u00e9\n'),
              ("HasEscapes", f'\\"{text}\\"\\n&lt;{text}&gt;'),
              ("IsQuoted", f'"{text}, {text}"'),  # a CSV field, which unescaping unquotes
              ("HasRepeatedCharacters", "".join(c * 2 for c in text))]
    others = set(_NAME.findall(_argument_text(scenario.call))) - {name}
    for other, value in texts.items():
        if other in others and value and len(value) <= _MAX_LENGTH // 2:
            shapes.append((f"Contains{_camel(other)}Twice", text[:middle] + value + value + text[middle:]))
    shapes.append(("IsPadded", f"  {text[:1].upper()}{text[1:]}  "))
    if " " not in text:
        shapes.append(("HasTwoWords", f"{text} {text[:middle] or text}"))
    unique: dict[str, str] = {}
    for suffix, value in shapes:
        if value != text and value not in unique.values():
            unique[suffix] = value
    return list(unique.items())


def _with_text(line: str, name: str, text: str) -> str:
    match = _TEXT_LOCAL.match(line.strip())
    return f"{match[1]}{java_string(text)};" if match is not None and match[2] == name else line


def _hint(hint: str, name: str, suffix: str) -> str:
    said = f"{_camel(name)}{suffix}"
    if not hint:
        return f"when{said}"
    return f"{hint}And{said}" if hint.startswith("when") else f"{hint}When{said}"


def _argument_text(call: str) -> str:
    return call[call.find("(") + 1: call.rfind(")")] if "(" in call else ""


def _camel(text: str) -> str:
    return text[:1].upper() + text[1:]

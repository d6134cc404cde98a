"""PIT's XML report (mutations.xml) read into `Mutant` records, and PIT's test names as `pkg.FooTest#method`.

The parser is the edge where PIT's shape stops: xml.etree on a report junitbot's own run wrote, refusing any
DTD or entity (PIT writes none, and the tests PIT ran could have written into its work dir).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import get_args

from junitbot.errors import JunitbotError
from junitbot.validation.measure.models import Mutant, MutantStatus

_STATUSES: frozenset[str] = frozenset(get_args(MutantStatus))
# A JUnit Platform unique id segment: [engine:junit-jupiter], [class:a.B], [nested-class:C], [method:m(int)], ...
_SEGMENT = re.compile(r"\[([\w-]+):([^\]]*)\]")
_JUNIT4_NAME = re.compile(r"^[\w$.]+\.([\w$]+)\(([\w$.]+)\)$")  # PIT's JUnit 4 names: a.BTest.method(a.BTest)


def parse_mutations_xml(data: str | bytes) -> list[Mutant]:
    """The mutants of PIT's XML report (mutations.xml), in report order, killing tests as `pkg.FooTest#method`.

    Raises JunitbotError when the text is not such a report (malformed, another root, a DTD, a missing field).
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise JunitbotError("PIT's XML report carries a DTD or entities, which PIT never writes: not read")
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise JunitbotError(f"malformed PIT XML report: {e}") from e
    if root.tag != "mutations":
        raise JunitbotError(f"not a PIT XML report: root element <{root.tag}>")
    return [_mutant(element, number) for number, element in enumerate(root.iter("mutation"), start=1)]


def pit_test_id(pit_name: str) -> str:
    """PIT's name of a test as `pkg.FooTest#method` (nested classes `pkg.FooTest$Inner#method`).

    `pkg.FooTest.[engine:junit-jupiter]/[class:pkg.FooTest]/[nested-class:Inner]/[method:m(int)]` gives
    `pkg.FooTest$Inner#m`; parameterized and dynamic tests give their method; JUnit 4's `pkg.FooTest.m(pkg.FooTest)`
    gives `pkg.FooTest#m`. A name of another shape comes back as it is.
    """
    _, bracket, unique_id = pit_name.partition(".[")
    if bracket:
        test_class = method = ""
        for kind, value in _SEGMENT.findall("[" + unique_id):
            if kind in ("class", "runner"):
                test_class = value
            elif kind == "nested-class" and test_class:
                test_class = f"{test_class}${value}"
            elif kind in ("method", "test-template", "test-factory", "test") and not method:
                method = value.partition("(")[0]
        if test_class and method:
            return f"{test_class}#{method}"
    junit4 = _JUNIT4_NAME.match(pit_name)
    return f"{junit4.group(2)}#{junit4.group(1)}" if junit4 else pit_name


def _mutant(element: ET.Element, number: int) -> Mutant:
    def text(tag: str, *, required: bool = True) -> str:
        child = element.find(tag)
        if child is None and required:
            raise JunitbotError(f"PIT XML report: mutation {number} has no <{tag}>")
        return "" if child is None else (child.text or "").strip()

    status = element.get("status", "")
    if status not in _STATUSES:
        raise JunitbotError(f"PIT XML report: mutation {number} has an unknown status {status!r}")
    line = text("lineNumber")
    if not line.isdigit():
        raise JunitbotError(f"PIT XML report: mutation {number} has no line number ({line!r})")
    index_elements = element.find("indexes")
    indexes = [] if index_elements is None else [(i.text or "").strip() for i in index_elements.iter("index")]
    # `killingTests` with the full mutation matrix, else the one `killingTest` PIT stopped at.
    killing = text("killingTests", required=False) or text("killingTest", required=False)
    return Mutant(
        class_name=text("mutatedClass"),
        method=text("mutatedMethod"),
        descriptor=text("methodDescription", required=False),
        line=int(line),
        mutator=text("mutator").rpartition(".")[2],
        indexes=tuple(int(i) for i in indexes if i.isdigit()),
        description=text("description", required=False),
        status=status,  # checked against MutantStatus above
        killing_tests=tuple(dict.fromkeys(pit_test_id(name) for name in killing.split("|") if name.strip())),
    )

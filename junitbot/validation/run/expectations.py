"""Expected versus actual, read from the failure messages JUnit 5, AssertJ and Hamcrest really write (issue 15:
a behaviour change is reported as the value the test pinned beside the value the code now gives).

Pure: the messages are parsed as the libraries print them (the tests hold real ones); a message of another
shape gives None, and the report shows the message itself.
"""

from __future__ import annotations

import re

# JUnit 5: `expected: <3> but was: <2>`, after `names differ ==> ` when the assertion has a message; the values
# may span lines (strings with newlines), so the match runs to the end.
_JUNIT = re.compile(r"(?:^|==> )expected: <(?P<expected>.*)> but was: <(?P<actual>.*)>\s*\Z", re.DOTALL)
# assertThrows: `Expected java.lang.IllegalArgumentException to be thrown, but nothing was thrown.`
_NOTHING_THROWN = re.compile(r"(?:^|==> )Expected (?P<type>[\w$.]+) to be thrown, but nothing was thrown\.")
# assertThrows: `Unexpected exception type thrown, expected: <A> but was: <B>`
_WRONG_TYPE = re.compile(
    r"(?:^|==> )Unexpected exception type thrown, expected: <(?P<expected>[\w$.]+)> but was: <(?P<actual>[\w$.]+)>")
# AssertJ isEqualTo: `\nexpected: 3\n but was: 2`
_ASSERTJ_EQUAL = re.compile(r"^\s*expected: (?P<expected>.*?)\n but was: (?P<actual>.*?)\s*\Z", re.DOTALL)
# AssertJ hasMessage: `Expecting message to be:\n  "a"\nbut was:\n  "b"\n\nThrowable that failed the check: ...`
_ASSERTJ_MESSAGE = re.compile(
    r"Expecting message to be:\n(?P<expected>.*?)\nbut was:\n(?P<actual>.*?)(?:\n\nThrowable that failed|\Z)",
    re.DOTALL)
# AssertJ isInstanceOf on a thrown exception: `Expecting actual throwable to be an instance of:\n  A\nbut was:\n  B: m`
_ASSERTJ_THROWABLE = re.compile(
    r"Expecting actual throwable to be an instance of:\n\s*(?P<expected>[\w$.]+)\nbut was:\n\s*(?P<actual>[\w$.]+)")
# AssertJ assertThatThrownBy on code that throws nothing.
_ASSERTJ_NOTHING = re.compile(r"^\s*Expecting code to raise a throwable\.")
# AssertJ isTrue/isFalse: `Expecting value to be true but was false`
_ASSERTJ_BOOLEAN = re.compile(r"^\s*Expecting value to be (?P<expected>\w+) but was (?P<actual>\w+)")
# AssertJ's other checks: `Expecting actual:\n  "hello"\nto contain:\n  "xyz" ` (`Expecting List12:` for a list).
_ASSERTJ_CHECK = re.compile(
    r"^\s*Expecting (?:[\w$ ]+):\n(?P<actual>.*?)\n(?P<check>(?:to|not to) [^\n:]+):\n(?P<expected>.*?)"
    r"(?:\n(?:but|when)\b.*)?\s*\Z", re.DOTALL)
# Hamcrest: `\nExpected: is <3>\n     but: was <2>`
_HAMCREST = re.compile(r"Expected: (?P<expected>.*?)\n\s+but: (?:was )?(?P<actual>.*?)\s*\Z", re.DOTALL)


def expected_and_actual(message: str | None) -> tuple[str, str] | None:
    """(expected, actual) as a failed assertion's message states them, or None when it does not say."""
    if not message:
        return None
    if found := _NOTHING_THROWN.search(message):
        return f"{_simple(found['type'])} thrown", "nothing thrown"
    if found := _WRONG_TYPE.search(message):
        return f"{_simple(found['expected'])} thrown", f"{_simple(found['actual'])} thrown"
    if found := _JUNIT.search(message):
        return found["expected"], found["actual"]
    if _ASSERTJ_NOTHING.search(message):
        return "an exception thrown", "nothing thrown"
    if found := _ASSERTJ_THROWABLE.search(message):
        return f"{_simple(found['expected'])} thrown", f"{_simple(found['actual'])} thrown"
    if found := _ASSERTJ_MESSAGE.search(message):
        return _dedent(found["expected"]), _dedent(found["actual"])
    for pattern in (_ASSERTJ_EQUAL, _ASSERTJ_BOOLEAN, _HAMCREST):
        if found := pattern.search(message):
            return _dedent(found["expected"]), _dedent(found["actual"])
    if found := _ASSERTJ_CHECK.search(message):
        return f"{found['check']} {_dedent(found['expected'])}", _dedent(found["actual"])
    return None


def thrown_value(exception: str | None) -> str | None:
    """What a test that ended in an exception got instead of a value: `java.lang.IllegalStateException: bad
    state; Caused by: ...` -> "throws IllegalStateException: bad state"."""
    first = (exception or "").strip().splitlines()
    if not first:
        return None
    head = first[0].split("; Caused by: ")[0]
    kind, sep, said = head.partition(": ")
    if not re.fullmatch(r"[\w$.]+", kind):
        return None
    return f"throws {_simple(kind)}: {said.strip()}" if sep and said.strip() else f"throws {_simple(kind)}"


def _simple(name: str) -> str:
    return name.rpartition(".")[2]


def _dedent(value: str) -> str:
    """AssertJ indents each value by two spaces on its own lines."""
    return "\n".join(line.strip() for line in value.strip("\n").splitlines()).strip()

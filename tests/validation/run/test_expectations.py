"""expected_and_actual on the messages JUnit 5.14, AssertJ 3.26 and Hamcrest 2.2 really wrote (each captured from a
real run of the assertion named in its comment), and thrown_value on real exception messages."""

from __future__ import annotations

import pytest

from junitbot.validation.run.expectations import expected_and_actual, thrown_value

REAL_MESSAGES = [
    # assertEquals(3, 1 + 1)
    ("expected: <3> but was: <2>", ("3", "2")),
    # assertEquals("a", "b", "names differ")
    ("names differ ==> expected: <a> but was: <b>", ("a", "b")),
    # assertTrue(false)
    ("expected: <true> but was: <false>", ("true", "false")),
    # assertEquals("line1\nline2", "line1\nline3")
    ("expected: <line1\nline2> but was: <line1\nline3>", ("line1\nline2", "line1\nline3")),
    # assertThrows(IllegalArgumentException.class, () -> {})
    ("Expected java.lang.IllegalArgumentException to be thrown, but nothing was thrown.",
     ("IllegalArgumentException thrown", "nothing thrown")),
    # assertThrows(IllegalArgumentException.class, () -> { throw new IllegalStateException("boom"); })
    ("Unexpected exception type thrown, expected: <java.lang.IllegalArgumentException> but was: "
     "<java.lang.IllegalStateException>", ("IllegalArgumentException thrown", "IllegalStateException thrown")),
    # AssertJ assertThat(1 + 1).isEqualTo(3)
    ("\nexpected: 3\n but was: 2", ("3", "2")),
    # AssertJ assertThat("abc").isEqualTo("abd")
    ('\nexpected: "abd"\n but was: "abc"', ('"abd"', '"abc"')),
    # AssertJ assertThat(false).isTrue()
    ("\nExpecting value to be true but was false", ("true", "false")),
    # AssertJ assertThat("hello").contains("xyz")
    ('\nExpecting actual:\n  "hello"\nto contain:\n  "xyz" ', ('to contain "xyz"', '"hello"')),
    # AssertJ assertThat(List.of(1, 2)).contains(3)
    ("\nExpecting List12:\n  [1, 2]\nto contain:\n  [3]\nbut could not find the following element(s):\n  [3]\n",
     ("to contain [3]", "[1, 2]")),
    # AssertJ assertThatThrownBy(() -> { throw new IllegalArgumentException("b"); }).hasMessage("a")
    ('\nExpecting message to be:\n  "a"\nbut was:\n  "b"\n\nThrowable that failed the check:\n\n'
     "java.lang.IllegalArgumentException: b\n\tat p.MsgTest.lambda$ajMessage$3(MsgTest.java:23)\n", ('"a"', '"b"')),
    # AssertJ assertThatThrownBy(() -> {}).isInstanceOf(IllegalArgumentException.class)
    ("\nExpecting code to raise a throwable.", ("an exception thrown", "nothing thrown")),
    # AssertJ assertThatThrownBy(() -> { throw new IllegalStateException("x"); }).isInstanceOf(IAE.class)
    ("\nExpecting actual throwable to be an instance of:\n  java.lang.IllegalArgumentException\nbut was:\n"
     "  java.lang.IllegalStateException: x\n\tat p.MsgTest.lambda$ajInstance$5(MsgTest.java:25)\n",
     ("IllegalArgumentException thrown", "IllegalStateException thrown")),
    # Hamcrest assertThat(2, is(3))
    ("\nExpected: is <3>\n     but: was <2>", ("is <3>", "<2>")),
    # Hamcrest assertThat("abc", equalTo("abd"))
    ('\nExpected: "abd"\n     but: was "abc"', ('"abd"', '"abc"')),
]


@pytest.mark.parametrize(("message", "expected"), REAL_MESSAGES)
def test_real_assertion_messages_give_expected_and_actual(message: str, expected: tuple[str, str]) -> None:
    assert expected_and_actual(message) == expected


@pytest.mark.parametrize("message", [None, "", "boom", "java.lang.AssertionError", "expected something else"])
def test_messages_that_say_neither_give_none(message: str | None) -> None:
    assert expected_and_actual(message) is None


def test_an_exception_where_a_value_was_expected_is_the_actual_value() -> None:
    # run_junit's message of an error: the trace's first line, with the root cause
    assert thrown_value("java.lang.IllegalStateException: bad state") == "throws IllegalStateException: bad state"
    assert thrown_value('java.lang.NullPointerException: Cannot invoke "Object.toString()" because "o" is null'
                        "; Caused by: java.lang.Error: x") == (
        'throws NullPointerException: Cannot invoke "Object.toString()" because "o" is null')
    assert thrown_value("java.lang.UnsupportedOperationException") == "throws UnsupportedOperationException"
    assert thrown_value(None) is None
    assert thrown_value("the test JVM crashed (SIGSEGV)") is None

"""Wrong expected literals of assertEquals, corrected from JUnit's message; never for mocks or non-literals."""

from __future__ import annotations

import pytest

from junitbot.generation.llm.corrections import correct_expected, mismatch

SOURCE = """package com.acme;

import static org.junit.jupiter.api.Assertions.*;

class PriceTest {
    @Mock
    private Repository repository;

    private final Clock clock = mock(Clock.class);

    @Test
    void count() {
        assertEquals(15, tier.discount());
    }

    @Test
    void negative() {
        assertEquals(-1, value.signum(), "the sign");
    }

    @Test
    void big() {
        assertEquals(5L, counter.total());
    }

    @Test
    void ratio() {
        assertEquals(1.5, price.ratio(), 0.001);
    }

    @Test
    void label() {
        assertEquals("Gold", tier.label());
    }

    @Test
    void flag() {
        assertEquals(false, tier.isTop());
    }

    @Test
    void stubbed() {
        assertEquals(3, repository.count());
    }

    @Test
    void timed() {
        assertEquals(7, clock.hour() + 1);
    }

    @Test
    void local() {
        Repository other = mock(Repository.class);
        assertEquals(3, other.count());
    }

    @Test
    void built() {
        assertEquals(Money.of("1.00"), price.total());
    }

    @Test
    void twice() {
        assertEquals(5, a.size());
        assertEquals(5, b.size());
    }

    @Test
    void nothing() {
        assertEquals(null, tier.parent());
    }

    @Test
    void untouched() {
        assertEquals(15, tier.discount());
    }

    @Test
    void parsed() {
        context.parse("text");
        assertTrue(context.isError());
    }

    @Test
    void stubbedFlag() {
        assertFalse(repository.isEmpty());
    }
}
"""


@pytest.mark.parametrize(("reason", "expected"), [
    ("failed: expected: <15> but was: <10>", ("15", "10")),
    ("failed: the sign ==> expected: <-1> but was: <1>", ("-1", "1")),
    ("failed: expected: <Gold> but was: <GOLD>", ("Gold", "GOLD")),
    ("failed: expected: java.lang.Integer@1b6d3586<5> but was: java.lang.Long@4554617c<5>", None),
    ("flaky: passed in some runs, failed in others", None),
    ("error: java.lang.NullPointerException: tier", None),
    ("failed when run again: expected: <1> but was: <2>", None),
    (None, None),
])
def test_junits_mismatch_message_is_parsed(reason: str | None, expected: tuple[str, str] | None) -> None:
    assert mismatch(reason) == expected


def test_literal_expected_values_take_the_reported_actual_ones() -> None:
    failures = {
        "count": "failed: expected: <15> but was: <10>",
        "negative": "failed: the sign ==> expected: <-1> but was: <1>",
        "big": "failed: expected: <5> but was: <7>",
        "ratio": "failed: expected: <1.5> but was: <2.25>",
        "label": "failed: expected: <Gold> but was: <GOLD \"A\">",
        "flag": "failed: expected: <false> but was: <true>",
        "parsed": "failed: expected: <true> but was: <false>",  # issue 17: a parse that succeeds is no error
    }
    source, corrections = correct_expected(SOURCE, failures)
    assert {(c.method, c.expected, c.actual) for c in corrections} == {
        ("count", "15", "10"), ("negative", "-1", "1"), ("big", "5L", "7L"), ("ratio", "1.5", "2.25"),
        ("label", '"Gold"', '"GOLD \\"A\\""'), ("flag", "false", "true"), ("parsed", "true", "false")}
    for line in ("assertEquals(10, tier.discount());", 'assertEquals(1, value.signum(), "the sign");',
                 "assertEquals(7L, counter.total());", "assertEquals(2.25, price.ratio(), 0.001);",
                 'assertEquals("GOLD \\"A\\"", tier.label());', "assertEquals(true, tier.isTop());",
                 "assertFalse(context.isError());"):
        assert line in source
    assert source.count("assertEquals(15, tier.discount());") == 1  # `untouched` did not fail
    assert next(c for c in corrections if c.method == "count").line == 13


@pytest.mark.parametrize(("method", "reason"), [
    ("stubbed", "failed: expected: <3> but was: <0>"),  # a @Mock field: the value is the stub's
    ("timed", "failed: expected: <7> but was: <1>"),  # a field of mock(...)
    ("local", "failed: expected: <3> but was: <0>"),  # a local of mock(...)
    ("built", "failed: expected: <1.00 EUR> but was: <2.00 EUR>"),  # not a literal
    ("twice", "failed: expected: <5> but was: <4>"),  # which of the two failed is unknown
    ("nothing", "failed: expected: <null> but was: <Gold>"),  # the actual value's type is unknown
    ("count", "failed: expected: <15> but was: <10.5>"),  # not an int
    ("count", "failed: expected: <16> but was: <10>"),  # the message is not about this literal
    ("count", "error: java.lang.IllegalStateException: closed"),
    ("stubbedFlag", "failed: expected: <false> but was: <true>"),  # the condition is the mock's
    ("parsed", "failed: expected: <false> but was: <true>"),  # the message is not about its assertTrue
])
def test_mocks_non_literals_and_unclear_failures_are_left_alone(method: str, reason: str) -> None:
    assert correct_expected(SOURCE, {method: reason}) == (SOURCE, ())

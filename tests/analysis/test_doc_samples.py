"""Javadoc examples as call samples: the inputs a library's documentation shows, read from `<pre>` blocks."""

from __future__ import annotations

from junitbot.analysis import CallSample, extract_file, resolve_samples

WORDS = """package com.acme.text;

import com.acme.text.spi.Dictionary;

/**
 * Word utilities.
 *
 * <pre>
 * Words.count("one two")  = 2
 * </pre>
 */
public final class Words {
    /**
     * Capitalizes each word.
     *
     * <pre>
     * Words.capitalize(null, *)            = null
     * Words.capitalize("", *)              = ""
     * Words.capitalize("i am fine")        = "I Am Fine"
     * Words.capitalize("i aM.fine", {'.'}) = "I aM.Fine"
     * Words.capitalize("a &lt; b")         = "A &lt; B"
     * </pre>
     * Prose that names Words.capitalize("outside") is no example.
     */
    public static String capitalize(String str, char... delimiters) { return str; }

    /**
     * <pre>{@code
     * Words.abbreviate("abcdefg", 3)   = IllegalArgumentException
     * Words.abbreviate("abcdefg", 4)   = "a..."
     * new Words("x").toString()        = "x"
     * Dictionary.lookup("fine", 2)     = "good"
     * String.valueOf(3)                = "3"
     * }</pre>
     */
    public static String abbreviate(String str, int max) { return str; }

    public Words(String text) {}
    public static int count(String text) { return 0; }
}
"""
SYMBOLS = {"com.acme.text.Words", "com.acme.text.spi.Dictionary"}


def _samples(source: str, *, is_test: bool = False) -> list[CallSample]:
    facts = extract_file(source.encode(), "src/main/java/com/acme/text/Words.java", is_test=is_test, members=False)
    samples, _ = resolve_samples(facts, SYMBOLS, supertypes={})
    return samples


def test_the_example_calls_of_javadoc_pre_blocks_become_samples_with_their_lines() -> None:
    found = [(s.callee, s.member, [a.text for a in s.arguments], s.throws, s.line) for s in _samples(WORDS)]
    assert found == [
        ("com.acme.text.Words", "count", ['"one two"'], False, 9),  # the class's own Javadoc, before the class
        # `*` (any value) is no Java: those lines are left out; a trailing `{'.'}` passes its values one by one.
        ("com.acme.text.Words", "capitalize", ['"i am fine"'], False, 19),
        ("com.acme.text.Words", "capitalize", ['"i aM.fine"', "'.'"], False, 20),
        ("com.acme.text.Words", "capitalize", ['"a < b"'], False, 21),  # HTML entities read as text
        # Inside `{@code ...}`; a documented exception makes the arguments rejected ones.
        ("com.acme.text.Words", "abbreviate", ['"abcdefg"', "3"], True, 29),
        ("com.acme.text.Words", "abbreviate", ['"abcdefg"', "4"], False, 30),
        ("com.acme.text.Words", "<init>", ['"x"'], False, 31),
        ("com.acme.text.spi.Dictionary", "lookup", ['"fine"', "2"], False, 32),  # another type, by the imports
    ]  # `String.valueOf(3)` calls the JDK, and prose outside `<pre>` is no example


def test_a_file_without_examples_or_with_broken_ones_gives_none_and_never_fails() -> None:
    plain = WORDS.replace("<pre>", "<p>").replace("</pre>", "</p>")
    assert [s.member for s in _samples(plain)] == []
    broken = WORDS.replace('Words.capitalize("i am fine")', 'Words.capitalize("i am fine", ((((')
    found = [s.member for s in _samples(broken)]
    assert found.count("capitalize") == 2 and "count" in found  # only the broken line is lost
    unclosed = "package a;\n/** <pre>\n * A.b(\"x\"\n */\nclass A { static void b(String s) {} }\n"
    assert _samples(unclosed) == []


def test_test_sources_javadoc_is_not_read() -> None:
    assert all(s.line < 9 or s.line > 32 for s in _samples(WORDS, is_test=True))

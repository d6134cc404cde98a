"""Long statements of generated tests wrapped after their outermost call's commas, and nothing else changed."""

from __future__ import annotations

import re

import pytest

from junitbot.analysis.brackets import opening_bracket
from junitbot.generation.models import TestShell
from junitbot.generation.wrapping import CONTINUATION, MAX_COLUMNS, STATEMENT_INDENT, wrapped

# WordUtils' kept bound check (session 21): 130 columns at a test method's indentation.
ABBREVIATE = ('assertThrows(IllegalArgumentException.class, () -> WordUtils.abbreviate("0123456789", 9, 5, ""), '
              '"upper value cannot be less than -1");')


def _unwrapped(lines: list[str]) -> str:
    return re.sub(r"\s+", "", "".join(lines))


@pytest.mark.parametrize("statement", [
    ABBREVIATE,
    # Commas and brackets inside texts, chars, a lambda and a nested call never break a line.
    'assertEquals("a, b), (c, d", Strings.join(List.of("a", "b"), \',\', \')\', () -> helper(1, 2), '
    '"e, f, g, h, i", "j, (k, l, m"));',
    'var result = StringSubstitutor.replace("${name} is ${age} years old, in ${city} (${country})", values, '
    '"${", "}");',
])
def test_a_long_statement_is_broken_after_its_outermost_arguments_and_only_there(statement: str) -> None:
    assert STATEMENT_INDENT + len(statement) > MAX_COLUMNS
    lines = wrapped(statement)
    assert len(lines) > 1
    assert all(STATEMENT_INDENT + len(line) <= MAX_COLUMNS for line in lines), lines
    assert all(line.startswith(" " * CONTINUATION) and not line.startswith(" " * (CONTINUATION + 1))
               for line in lines[1:]), lines
    # Only whitespace was added, each break after a comma between arguments.
    assert _unwrapped(lines) == _unwrapped([statement])
    assert all(line.endswith(",") for line in lines[:-1]) and lines[-1].endswith(");")


def test_the_abbreviate_check_reads_as_a_formatter_writes_it() -> None:
    assert wrapped(ABBREVIATE) == [
        'assertThrows(IllegalArgumentException.class, () -> WordUtils.abbreviate("0123456789", 9, 5, ""),',
        '        "upper value cannot be less than -1");']


@pytest.mark.parametrize("statement", [
    'assertEquals("short", result);',  # fits
    "String text = " + '"' + "x" * 130 + '";',  # no call ends it
    "assertNotNull(" + "a" * 130 + ");",  # one argument
    'assertEquals("""\n    text\n    """, ' + "b" * 120 + ");",  # a text block
    "if (" + "c" * 130 + ") {",  # not a statement ending in a call
    'assertEquals("a",\n' + "d" * 130 + ");",  # already on several lines
])
def test_what_cannot_or_need_not_be_wrapped_stays_one_line(statement: str) -> None:
    assert wrapped(statement) == [statement]


def test_an_argument_longer_than_a_line_stays_whole_on_its_own_line() -> None:
    text = '"' + "y" * 140 + '"'
    assert wrapped(f"assertEquals({text}, result);") == [f"assertEquals({text},", "        result);"]


def test_a_statement_inside_a_block_keeps_its_indentation_and_counts_it() -> None:
    statement = "    " + ABBREVIATE
    lines = wrapped(statement)
    assert lines[0].startswith("    assertThrows(") and lines[1].startswith(" " * (4 + CONTINUATION) + '"')
    assert all(STATEMENT_INDENT + len(line) <= MAX_COLUMNS for line in lines)
    # Its own indentation is counted once: what fits beside it stays on the first line.
    assert lines == ["    " + wrapped(ABBREVIATE)[0], " " * (4 + CONTINUATION) + wrapped(ABBREVIATE)[1].lstrip()]


def test_a_long_set_up_line_is_wrapped_too() -> None:
    # commons-text's StringSubstitutor set-up (123 columns in a generated class).
    line = ('stringSubstitutor = new StringSubstitutor(Collections.singletonMap("text", "text"), "a, b ,,c", "text", '
            "'\\\\', \",\");")
    shell = TestShell(target="org.apache.commons.text.StringSubstitutor", package="org.apache.commons.text",
                      class_name="StringSubstitutorGeneratedTest", header_comment="", imports=(), static_imports=(),
                      claims=(), set_up=(line,))
    rendered = shell.render(["@Test\nvoid replaces() {\n}\n"])
    assert max(len(text) for text in rendered.splitlines() if "//" not in text) <= MAX_COLUMNS, rendered
    assert _unwrapped(rendered.split("void setUp()", 1)[1].split("}", 1)[0].splitlines()) == "{" + _unwrapped([line])


def test_the_bracket_a_closing_one_closes_skips_literals() -> None:
    line = 'f(")", g(\'(\'), h(1));'
    assert opening_bracket(line, len(line) - 2) == 1
    assert opening_bracket(line, line.index("1)") + 1) == line.index("h(") + 1
    assert opening_bracket("x)", 1) == -1 and opening_bracket("f(a)", 0) == -1

"""Texts a type's Javadoc tables document, as extract_file reads them with the type's members."""

from __future__ import annotations

from junitbot.analysis import extract_file


def _texts(javadoc: str) -> tuple[str, ...]:
    source = (f"package a;\n\n{javadoc}\npublic final class Formats {{\n"
              "    public static String f(String p) {{ return p; }}\n}}\n")
    (info,) = extract_file(source.encode(), "src/main/java/a/Formats.java").classes
    return info.documented_texts


def test_the_first_cell_of_each_row_that_is_a_value_longest_first() -> None:
    javadoc = ("/**\n * <table>\n * <tr><th>pattern</th></tr>\n * <tr><td>[d'd']H&lt;h&gt;</td><td>1d</td></tr>\n"
               " * <tr>\n *   <td>{@code yy'y'}</td></tr>\n * <tr><td>any text</td></tr>\n"
               " * <tr><td>MAX_VALUE</td></tr>\n * <tr><td>x</td></tr>\n * </table>\n */")
    assert _texts(javadoc) == ("[d'd']H<h>", "yy'y'")  # prose, names and single characters are no values


def test_a_comment_of_unclosed_rows_is_read_in_linear_time() -> None:
    # A generated Javadoc of 20,000 rows that never close a cell: each row's scan is bounded, not to the comment's end.
    assert _texts("/**\n * " + "<tr><td>" * 20_000 + "\n */") == ()
    assert _texts("/** not a table */") == ()

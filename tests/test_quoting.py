"""Untrusted text in Markdown: quotes that stay quotes (read back with markdown-it-py), and bodies that fit."""

from __future__ import annotations

import unicodedata

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from junitbot.quoting import (
    GITHUB_BODY_LIMIT,
    MAX_BODY_CHARS,
    MAX_QUOTE_CHARS,
    body_length,
    fit_body,
    inline_code,
    markdown_cell,
    printable,
)

GFM = MarkdownIt("commonmark").enable("table")
HOSTILE = ["x`y", "`x", "x`", "``", "a ``` b ` c", "`` `` ``", "a\u202eb\u2066c\u200bd\ufeff", "\x00\x07\x1b[31m",
           "\x85\u2028\u2029", "\ud800", "<!-- hide", "{{ 7 * 7 }}", "@octocat [x](https://evil.example)"]


def _inline(markdown: str) -> list[Token]:
    [_, inline, _] = GFM.parse(markdown)
    assert inline.children is not None
    return inline.children


@pytest.mark.parametrize("text", HOSTILE)
def test_a_quote_is_one_code_span_whatever_it_holds(text: str) -> None:
    tokens = _inline(f"did not run {inline_code(text)}: a reason")

    assert [t.type for t in tokens] == ["text", "code_inline", "text"]
    assert tokens[0].content == "did not run " and tokens[2].content == ": a reason"
    assert tokens[1].content == (printable(text)[0] or " ")  # all whitespace: an empty-looking span


@pytest.mark.parametrize("text", HOSTILE)
def test_invisible_and_reordering_characters_are_shown_escaped(text: str) -> None:
    for shown in (inline_code(text), markdown_cell(text)):
        assert not [c for c in shown if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    assert inline_code("a\u202eb\x00c") == "`a\\u202eb\\x00c`"
    assert inline_code("\U000e0041") == "`\\U000e0041`"  # a tag character, invisible


def test_a_quote_is_bounded_and_says_how_much_it_left_out() -> None:
    command = "/junitbot regenerate " + "A`" * 625_000
    quoted = inline_code(command)

    code = _inline(quoted)[0]
    assert code.type == "code_inline" and len(code.content) == MAX_QUOTE_CHARS
    assert quoted.endswith(f" … ({len(command) - MAX_QUOTE_CHARS:,} characters omitted)")
    assert printable("a \n\t b" + "c" * 10, limit=5) == ("a bcc", 8)  # a whitespace run shows as one space


def test_a_cell_stays_in_its_cell_and_hides_nothing() -> None:
    hostile = "List<String> | x\\|y <!-- `a|b` @octocat"
    rendered = GFM.render(f"| a | b |\n|---|---|\n| {markdown_cell(hostile)} | next |\n\nafter\n")

    assert "<td>List&lt;String&gt; | x\\|y &lt;!-- <code>a|b</code> @\u200boctocat</td>\n<td>next</td>" in rendered
    assert "<p>after</p>" in rendered
    assert markdown_cell("a | b\nc") == "a \\| b c"


def test_a_body_within_the_limit_is_left_alone() -> None:
    assert fit_body("short", suffix="<!-- m -->") == "short<!-- m -->"


def test_a_long_body_is_cut_at_a_line_with_its_fence_closed_and_a_note() -> None:
    body = "# Report\n\n```text\n" + "".join(f"line {i}\n" for i in range(20_000)) + "```\n\nthe end\n"
    fitted = fit_body(body, where="the full report is in the job summary", suffix="\n<!-- marker -->\n")

    assert body_length(fitted) <= MAX_BODY_CHARS < GITHUB_BODY_LIMIT
    assert fitted.endswith("; the full report is in the job summary._\n\n<!-- marker -->\n")
    tokens = GFM.parse(fitted)
    fence = next(t for t in tokens if t.type == "fence")
    assert fence.content.endswith("\n") and fence.content.splitlines()[-1].startswith("line ")  # whole lines
    note = [t.content for t in tokens if t.type == "inline"][-1]
    kept = len("# Report\n\n```text\n") + len(fence.content) - 1  # the cut drops the last line's end
    assert note.startswith(f"_This text was shortened to fit GitHub's limit of 65,536 characters "
                           f"({len(body) - kept:,} characters left out)")


def test_the_limit_counts_utf16_units_and_an_open_html_comment_is_closed() -> None:
    body = "<!--\n" + "😀" * 40_000  # 80,000 UTF-16 units on one line
    fitted = fit_body(body)

    assert body_length(fitted) <= MAX_BODY_CHARS and "\ud83d" not in fitted
    assert "This text was shortened" in GFM.render(fitted).split("-->")[-1]

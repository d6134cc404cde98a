"""Untrusted text made safe to show in Markdown, and bodies made to fit GitHub's limit.

Anything the bot echoes (a command, class names, branch names, error messages) comes from people, repositories
or models: it is shown bounded, with control, bidi and zero-width characters written as escapes, inside a code
span its backticks cannot close. Every comment or PR body goes through `fit_body` before it is sent (issue 18:
a 1.25 MB command came back as a 1.25 MB reply, which GitHub refuses, its backticks broke out of the quote and
its right-to-left override and NUL characters were copied through).
"""

from __future__ import annotations

import re

MAX_QUOTE_CHARS = 200  # characters of untrusted text shown in one quote
MAX_CELL_CHARS = 1_000  # characters of one table cell or sentence of free text
GITHUB_BODY_LIMIT = 65_536  # GitHub refuses comment, issue and PR bodies longer than this
MAX_BODY_CHARS = 60_000  # what the bot posts at most, in UTF-16 code units (never fewer than characters)

_BACKTICKS = re.compile(r"`+")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def escape_char(char: str) -> str:
    """`char` itself, or a visible escape (`\\u202e`, `\\x00`) when it is invisible or reorders text.

    Python's "not printable" is what must not pass: controls (Cc), format characters (Cf: bidi embeddings,
    overrides and isolates, zero-width spaces and joiners, the BOM), lone surrogates (Cs, which JSON can carry
    and UTF-8 cannot), private-use and unassigned code points, and separators other than the space.
    """
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(value: object, *, limit: int = MAX_QUOTE_CHARS) -> tuple[str, int]:
    """(`value` on one line, escaped, at most `limit` characters long; how many characters were left out).

    Whitespace runs (line breaks and separators too) become one space. Only what is shown is looked at, so a
    megabyte costs no more than a line.
    """
    text = str(value)
    shown: list[str] = []
    used, space = 0, False
    for index, char in enumerate(text):
        if char.isspace():
            space = bool(shown)
            continue
        token = " " * space + escape_char(char)
        if used + len(token) > limit:
            return "".join(shown), len(text) - index
        shown.append(token)
        used, space = used + len(token), False
    return "".join(shown), 0


def omitted_note(omitted: int) -> str:
    """` … (N characters omitted)`, or nothing when nothing was."""
    return f" … ({omitted:,} characters omitted)" if omitted else ""


def inline_code(value: object, *, limit: int = MAX_QUOTE_CHARS) -> str:
    """`value` as one code span it cannot break out of: bounded, escaped, fenced longer than any backtick run.

    CommonMark: a span opened by n backticks ends at the next run of exactly n, and a space on each side is
    stripped when both are there, so content that starts or ends with a backtick is padded.
    """
    text, omitted = printable(value, limit=limit)
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return f"{fence}{pad}{text or ' '}{pad}{fence}{omitted_note(omitted)}"


def markdown_cell(value: object, *, limit: int = MAX_CELL_CHARS) -> str:
    """Text safe in a markdown table cell or a sentence: one line, bounded, escaped, no pipe that splits the
    cell, no HTML (a `<!--` would hide the rest of the body) and no @mention that pings anyone.

    Code spans in the text (`inline_code`'s, say) are kept: only their pipes are escaped, as GFM tables need.
    """
    text, omitted = printable(value, limit=limit)
    parts: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        parts += [_prose(text[last:span.start()]), span[0].replace("|", "\\|")]
        last = span.end()
    parts.append(_prose(text[last:]))
    return "".join(parts) + omitted_note(omitted)


def _prose(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace("@", "@&#8203;")


# -- whole bodies -----------------------------------------------------------------------------------------


def body_length(body: str) -> int:
    """Length in UTF-16 code units: never less than the count in characters, whichever GitHub counts."""
    return len(body.encode("utf-16-le", "surrogatepass")) // 2


def fence_after(line: str, fence: str | None) -> str | None:
    """The code fence open after `line`, given the one open before it (None: outside fenced code)."""
    match = _FENCE.match(line)
    if fence is None:
        return match[1] if match else None
    closes = match is not None and match[1][0] == fence[0] and len(match[1]) >= len(fence) \
        and not line[match.end():].strip()
    return None if closes else fence


def fit_body(body: str, *, limit: int = MAX_BODY_CHARS, where: str | None = None, suffix: str = "") -> str:
    """`body` + `suffix` within `limit` UTF-16 code units (GitHub's limit less a margin).

    A longer body is cut at a line end, an open code fence or HTML comment is closed, and a note says it was
    shortened and `where` the full text is. The suffix (the reply marker) is always kept whole.
    """
    if body_length(body) + body_length(suffix) <= limit:
        return body + suffix
    longest_note = _shortened(len(body), where)
    kept = _cut(body, limit - body_length(longest_note) - body_length(suffix) - 16)  # 16: closing fence, `-->`
    fence: str | None = None
    for line in kept.split("\n"):
        fence = fence_after(line, fence)
    closing = f"\n{fence}" if fence else ""
    if kept.rfind("<!--") > kept.rfind("-->"):
        closing += " -->"
    return f"{kept}{closing}{_shortened(len(body) - len(kept), where)}{suffix}"


def _shortened(omitted: int, where: str | None) -> str:
    place = f"; {where}" if where else ""
    return (f"\n\n---\n\n_This text was shortened to fit GitHub's limit of {GITHUB_BODY_LIMIT:,} characters "
            f"({omitted:,} characters left out){place}._\n")


def _cut(body: str, budget: int) -> str:
    """The longest start of `body` within `budget` UTF-16 units, ending at a line end when one is near."""
    end = min(len(body), budget)
    while (excess := body_length(body[:end]) - budget) > 0:
        end -= (excess + 1) // 2  # a character is one or two units
    kept = body[:end]
    line_end = kept.rfind("\n")
    return kept[:line_end] if line_end > end // 2 else kept

"""Which Mockito stub an arrange statement sets up, to keep only the stubs a scenario's calls matched (pure).

Strict stubs (`MockitoExtension`'s default) fail a test with `UnnecessaryStubbingException` for a stub no
call matched, so the final test keeps a stub only when the probe saw a call it answered. A stub is read
in every form Mockito writes one: `when(mock.m(..)).thenReturn(..)` (and `thenThrow`, `thenAnswer`, chains),
`doReturn/doThrow/doAnswer/doNothing/doCallRealMethod(..).when(mock).m(..)`, BDD's `given(mock.m(..))` and
`willReturn(..).given(mock).m(..)`, `lenient()` or `Mockito.`-qualified, over several lines.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from junitbot.analysis.brackets import closing_bracket, split_arguments

_QUALIFIER = r"(?:(?:org\.mockito\.)?(?:Mockito|BDDMockito)\s*\.\s*|lenient\(\)\s*\.\s*)?"
# when(mock.method(  /  given(mock.method(
_CALL_FIRST = re.compile(rf"^\s*{_QUALIFIER}(?:when|given)\s*\(\s*(\w+)\s*\.\s*(\w+)\s*\(", re.S)
# doThrow(...).when(mock).method(  /  willReturn(...).given(mock).method(
_ANSWER_FIRST = re.compile(
    rf"^\s*{_QUALIFIER}(?:do|will)(?:Return|Throw|Answer|Nothing|CallRealMethod)\s*\(.*?\)\s*"
    r"\.\s*(?:when|given)\s*\(\s*(\w+)\s*\)\s*\.\s*(\w+)\s*\(", re.S)

Stubbed = tuple[str, str, int]
"""(mock field, method, number of arguments) of one stubbed call."""


def stubbed_call(statement: str) -> Stubbed | None:
    """The call an arrange statement stubs, or None when it is no stub."""
    match = _CALL_FIRST.match(statement) or _ANSWER_FIRST.match(statement)
    if match is None:
        return None
    arguments = _arguments(statement, match.end())
    return match[1], match[2], arguments


def unused_stub(statement: str, used: Collection[Stubbed]) -> bool:
    """Whether `statement` stubs a call that no call of the scenario matched."""
    stubbed = stubbed_call(statement)
    return stubbed is not None and stubbed not in used


def _arguments(text: str, start: int) -> int:
    """How many arguments the call whose `(` ends at `start` passes (its matchers)."""
    close = closing_bracket(text, start - 1)
    inner = text[start:close if close >= 0 else len(text)].strip()
    return len(split_arguments(inner)) if inner else 0

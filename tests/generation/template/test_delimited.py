"""A text input filled with what the call's delimiter and quote separate."""

from __future__ import annotations

from junitbot.analysis import ParameterInfo, TypeRef
from junitbot.generation.template.delimited import delimited

_CHARS = ParameterInfo(name="input", type=TypeRef(text="char[]", name="char", array=True))
_TEXT = ParameterInfo(name="input", type=TypeRef(text="String", name="String", fqn="java.lang.String"))
_DELIM = ParameterInfo(name="delim", type=TypeRef(text="char", name="char"))
_QUOTE = ParameterInfo(name="quote", type=TypeRef(text="char", name="char"))
_SEPARATOR = ParameterInfo(name="separatorChars", type=TypeRef(text="String", name="String", fqn="java.lang.String"))


def test_a_tokenizer_s_input_holds_tokens_its_delimiter_separates_and_one_its_quote_encloses() -> None:
    # commons-lang's StrTokenizer was built on `new char[] {'a'}`: one token, nothing split, quoted or skipped.
    assert delimited([_CHARS, _DELIM, _QUOTE], ["new char[] { 'a' }", "','", "'\"'"]) == [
        '"a, b ,,\\"c,d\\"".toCharArray()', "','", "'\"'"]
    assert delimited([_TEXT, _SEPARATOR], ['"text"', '","']) == ['"a, b ,,c"', '","']


def test_without_a_delimiter_or_an_ordinary_text_nothing_changes() -> None:
    assert delimited([_TEXT, _QUOTE], ['"text"', "'\"'"]) == ['"text"', "'\"'"]
    assert delimited([_TEXT, _DELIM], ['"user@example.com"', "','"]) == ['"user@example.com"', "','"]
    assert delimited([_TEXT, _DELIM], ['"text"', "';'"]) == ['"text"', "';'"]  # not the comma its name asked for

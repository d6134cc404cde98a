"""A text input that holds what the call's delimiter and quote separate (pure).

`new StrTokenizer(new char[] {'a'}, ',', '"')` has one token: every branch that splits, quotes or skips an empty
token went untested (issue 29: "never tokenizes a populated input"). Where a member takes a delimiter (a parameter
so named, given the comma its name asks for) and an ordinary text input, that input becomes tokens the delimiter
separates, with a blank one, an empty one and, where the member also takes a quote, a quoted one holding the
delimiter: `a, b ,,"c,d"`.
"""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.analysis import ParameterInfo
from junitbot.generation.javatypes import resolved_fqn
from junitbot.generation.literals import java_string
from junitbot.generation.template.builder import char_value, string_value

# The ordinary values the builder gives a text input (variant 0): a plain word, a one-letter array.
_ORDINARY = {"java.lang.String": '"text"', "java.lang.CharSequence": '"text"', "char[]": "new char[] { 'a' }"}


def delimited(params: Sequence[ParameterInfo], texts: Sequence[str]) -> list[str]:
    """`texts` (one Java expression per parameter) with the first ordinary text input rewritten into tokens the
    call's delimiter separates; unchanged where the call takes no delimiter or no ordinary text."""
    delimiter = quote = None
    for param, text in zip(params, texts, strict=True):
        kind = _kind(param)
        if kind == "char" and text == char_value(param.name):
            if text == "','":
                delimiter = ","
            elif text == "'\"'":
                quote = '"'
        elif kind in ("java.lang.String", "java.lang.CharSequence") and text == '","' and string_value(
                0, param.name) == ",":
            delimiter = ","
    if delimiter is None:
        return list(texts)
    d, q = delimiter, quote
    tokens = f"a{d} b {d}{d}" + (f"{q}c{d}d{q}" if q else "c")
    found = list(texts)
    for index, (param, text) in enumerate(zip(params, texts, strict=True)):
        kind = _kind(param)
        if _ORDINARY.get(kind) == text:
            found[index] = java_string(tokens) + (".toCharArray()" if kind == "char[]" else "")
            break
    return found


def _kind(param: ParameterInfo) -> str:
    """`char`, `char[]`, or the FQN of a text type (String, CharSequence); the type's name otherwise."""
    ref = param.type
    if ref.name == "char" and ref.fqn is None:
        return "char[]" if ref.array else "char"
    return "" if ref.array else resolved_fqn(ref) or ref.name

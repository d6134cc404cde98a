"""Values a member's checks accept or reject, from the literals and patterns it compares a parameter against (pure).

A validating constructor (`if (code == null || !code.matches("[A-Z]{3}-\\d{4}")) throw ...`) records each
comparison with the value that makes it throw (analysis `ComparedLiteral.throws_when`). Candidates come
from the builder's own value, the literals, their neighbours and examples of the patterns; a value is
accepted when no check with a known outcome throws for it. Checks this module cannot evaluate are
left to the probe runs, which observe what really happens.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from junitbot.analysis import ComparedLiteral, TypeRef
from junitbot.generation.javatypes import PRIMITIVES, resolved_fqn
from junitbot.generation.literals import java_string
from junitbot.generation.template.jdk_values import BOXES
from junitbot.generation.template.regex import regex_example, regex_matches

Value = str | int | float | None
_NUMBER = re.compile(r"[-+]?(0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?\d+)?|\.[0-9_]+)[lLdDfF]?")
_STRING_TYPES = frozenset({"java.lang.String", "java.lang.CharSequence"})
# A char is compared as its code ('A' <= zone): its checks are evaluated as numbers, its literals are chars.
_NUMERIC = frozenset({"int", "long", "short", "byte", "double", "float", "char"})
_CHAR_LITERAL = re.compile(r"'(\\(?:u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)|[^'\\])'")
_ESCAPE = re.compile(r"\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "s": " "}
# `code`, `this.code`, `code.trim().toUpperCase()`, `code.strip().length()`: the parameter, normalized, measured.
_SUBJECT = re.compile(r"(?:this\.)?(?P<name>\w+)(?P<normalized>(?:\.(?:trim|strip|toUpperCase|toLowerCase)\(\))*)"
                      r"(?P<length>\.length\(\))?")
_JAVA_TRIMMED = "".join(chr(code) for code in range(33))  # String.trim drops every char up to ' '
_NORMALIZE: dict[str, Callable[[str], str]] = {
    "trim": lambda s: s.strip(_JAVA_TRIMMED), "strip": str.strip, "toUpperCase": str.upper, "toLowerCase": str.lower}


@dataclass(frozen=True)
class _Check:
    """One comparison on the parameter: `of` is what is compared (the value or its length), after the
    `normalized` string methods the code applies first (`code.trim().toUpperCase()`)."""

    of: str  # "value" or "length"
    operator: str
    literal: str
    throws_when: bool
    normalized: tuple[str, ...] = ()


def value_kind(ref: TypeRef) -> str | None:
    """"string", a primitive numeric name (boxes too), or None for types whose checks are not evaluated."""
    if ref.array:
        return None
    if ref.name in PRIMITIVES and ref.fqn is None:
        return ref.name if ref.name in _NUMERIC else None
    fqn = resolved_fqn(ref)
    if fqn in _STRING_TYPES:
        return "string"
    primitive = BOXES.get(fqn or "")
    return primitive if primitive in _NUMERIC else None


def accepted_value(ref: TypeRef, name: str, compared: Sequence[ComparedLiteral], *, first: str) -> str | None:
    """A Java literal for parameter `name` that every known check accepts, when `first` (the builder's own
    value) is rejected by one; None when `first` passes or nothing mined passes."""
    kind = value_kind(ref)
    checks = _checks(name, compared)
    if kind is None or not checks or _passes_all(checks, _parse(first, kind), kind):
        return None
    for candidate in _candidates(kind, checks, _parse(first, kind)):
        if candidate is not None and _passes_all(checks, candidate, kind):
            return _literal(candidate, kind)
    return None


def rejects(ref: TypeRef, name: str, compared: Sequence[ComparedLiteral], literal: str) -> bool:
    """Whether a check with a known outcome throws for the Java literal `literal` passed as parameter `name`
    (False where none can tell: not a literal it reads, or no check on the parameter)."""
    kind = value_kind(ref)
    checks = _checks(name, compared)
    if not checks:
        return False
    if kind is None:
        return literal == "null" and not _passes_all([c for c in checks if _is_null_check(c)], None, "value")
    value = _parse(literal, kind)
    if value is None and literal != "null":
        return False
    return not _passes_all(checks, value, kind)


def rejected_values(ref: TypeRef, name: str, compared: Sequence[ComparedLiteral], *,
                    first: str) -> list[str]:
    """Java literals for parameter `name`, each making one known check throw (the others passing where
    one such value exists), in the order the checks are written."""
    kind = value_kind(ref)
    checks = _checks(name, compared)
    if kind is None:
        return ["null"] if any(_is_null_check(c) for c in checks) and not _primitive(ref) else []
    # The literals' neighbours before the builder's own value: boundaries tell more than any value does.
    first_value = _parse(first, kind)
    pool = [c for c in _candidates(kind, checks, first_value) if c != first_value] + [first_value]
    if _primitive(ref):
        pool = [c for c in pool if c is not None]
    found: list[str] = []
    for check in checks:
        failing = [c for c in pool if _passes(check, c, kind) is False]
        isolated = [c for c in failing if _passes_all([o for o in checks if o is not check], c, kind)]
        for candidate in (isolated or failing)[:1]:
            literal = _literal(candidate, kind)
            if literal not in found:
                found.append(literal)
    return found


def _primitive(ref: TypeRef) -> bool:
    return ref.name in PRIMITIVES and ref.fqn is None and not ref.array


def _checks(name: str, compared: Sequence[ComparedLiteral]) -> list[_Check]:
    found = []
    for item in compared:
        match = _SUBJECT.fullmatch(item.subject)
        if item.throws_when is None or match is None or match["name"] != name:
            continue
        normalized = tuple(re.findall(r"\w+", match["normalized"]))
        if match["length"] is not None and item.literal != "null":
            found.append(_Check("length", item.operator, item.literal, item.throws_when, normalized))
        elif match["length"] is None and (not normalized or item.literal != "null"):
            found.append(_Check("value", item.operator, item.literal, item.throws_when, normalized))
    return found


def _is_null_check(check: _Check) -> bool:
    return check.literal == "null" and check.operator in ("==", "!=")


def _passes_all(checks: Sequence[_Check], value: Value, kind: str) -> bool:
    return all(_passes(check, value, kind) is not False for check in checks)


def _passes(check: _Check, value: Value, kind: str) -> bool | None:
    """Whether the check lets `value` through; None when it cannot be told here."""
    if _is_null_check(check):
        return ((value is None) == (check.operator == "==")) != check.throws_when
    if value is None:
        return False  # any other check dereferences it
    holds = _holds(check, value, kind)
    return None if holds is None else holds != check.throws_when


def _holds(check: _Check, value: str | int | float, kind: str) -> bool | None:
    if isinstance(value, str):
        value = _normalized(value, check.normalized)
    if check.of == "length":
        if not isinstance(value, str):
            return None
        return _compare(len(value), check.operator, _number(check.literal))
    if kind == "string":
        text = _string(check.literal)
        if not isinstance(value, str) or text is None:
            return None
        return _string_holds(check.operator, value, text)
    if isinstance(value, str):
        return None
    return _compare(value, check.operator, _code(check.literal) if kind == "char" else _number(check.literal))


def _normalized(value: str, methods: Sequence[str]) -> str:
    for method in methods:
        value = _NORMALIZE[method](value)
    return value


def _string_holds(operator: str, value: str, text: str) -> bool | None:
    if operator == "matches":
        return regex_matches(text, value)
    if operator in ("isEmpty", "isBlank"):
        return (value.strip() if operator == "isBlank" else value) == ""
    tests = {"equals": value == text, "equalsIgnoreCase": value.lower() == text.lower(),
             "startsWith": value.startswith(text), "endsWith": value.endswith(text), "contains": text in value}
    return tests.get(operator)


def _compare(left: float, operator: str, right: float | None) -> bool | None:
    if right is None:
        return None
    results = {"==": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
               ">": left > right, ">=": left >= right}
    return results.get(operator)


def _candidates(kind: str, checks: Sequence[_Check], first: Value) -> list[Value]:
    """Values worth trying, the builder's own first, then those the literals suggest, then null."""
    found: list[Value] = [first]
    if kind == "string":
        base = first if isinstance(first, str) else "text"
        for check in checks:
            text = _string(check.literal) if check.of == "value" else None
            if check.operator == "matches" and text is not None:
                found += [regex_example(text), base, "text", "", "!"]
            elif check.operator in ("equals", "equalsIgnoreCase") and text is not None:
                found += [text, base]
            elif check.operator in ("startsWith", "contains") and text is not None:
                found += [text + base, base]
            elif check.operator == "endsWith" and text is not None:
                found += [base + text, base]
            elif check.of == "length" and (size := _number(check.literal)) is not None and size < 1000:
                found += ["x" * max(0, int(size) + delta) for delta in (0, 1, -1)]
        found += ["", " "]
    else:
        for check in checks:
            number = _code(check.literal) if kind == "char" else _number(check.literal)
            if number is not None:
                found += [number, number + 1, number - 1]
        found += [ord("A"), ord("a"), ord("0")] if kind == "char" else [1, 0, 10, 100, -1]
    found.append(None)
    unique: list[Value] = []
    for value in found:
        if value not in unique:
            unique.append(value)
    return unique


def _parse(literal: str, kind: str) -> Value:
    """The value of a Java literal the builder wrote (`"text"`, `1L`, `(short) 1`); None when not a literal."""
    if kind == "string":
        try:
            parsed = json.loads(literal)
        except ValueError:
            return None
        return parsed if isinstance(parsed, str) else None
    if kind == "char":
        return _code(literal)
    return _number(re.sub(r"^\((short|byte)\)\s*", "", literal))


def _code(literal: str) -> int | None:
    """A char literal's code (`'A'` -> 65, `'\\n'` -> 10), or a number's (`(char) 65`, `65`)."""
    match = _CHAR_LITERAL.fullmatch(literal.strip())
    if match:
        return ord(_ESCAPE.sub(_unescape, match.group(1)))
    number = _number(re.sub(r"^\(char\)\s*", "", literal.strip()))
    return int(number) if isinstance(number, int) else None


def _number(literal: str) -> int | float | None:
    text = literal.strip()
    if not _NUMBER.fullmatch(text):
        return None
    text = text.replace("_", "")
    if text[-1] in "lL":
        text = text[:-1]
    try:
        if text.lower().startswith(("0x", "-0x", "+0x")):
            return int(text, 16)
        if any(c in text for c in ".eEdDfF"):
            return float(text.rstrip("dDfF"))
        return int(text)
    except ValueError:
        return None


def _string(literal: str) -> str | None:
    """The text of a Java string literal; None for text blocks and anything else."""
    if len(literal) < 2 or not literal.startswith('"') or not literal.endswith('"') or literal.startswith('"""'):
        return None
    return _ESCAPE.sub(_unescape, literal[1:-1])


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] == "u":
        return chr(int(code.lstrip("u"), 16))
    if code[0] in "01234567":
        return chr(int(code, 8))
    return _ESCAPES.get(code, code)


def _literal(value: Value, kind: str) -> str:
    """The Java literal of a value for a parameter of that kind."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return java_string(value)
    if kind in ("double", "float"):
        text = repr(float(value))
        return f"{text}f" if kind == "float" else text
    whole = int(value)
    if kind == "char":
        return f"'{chr(whole)}'" if 32 <= whole < 127 and chr(whole) not in "'\\" else f"(char) {whole}"
    return {"long": f"{whole}L", "short": f"(short) {whole}", "byte": f"(byte) {whole}"}.get(kind, str(whole))

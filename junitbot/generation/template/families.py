"""Boundary families: tests of one method that differ only in literals become one `@ParameterizedTest` (pure).

`percentage(101)` and `percentage(-1)` both rejected with their own message, written the same way but for
the literals, are one test with a row per case: a literal declared as an argument (`int percent = 101;`)
becomes a parameter of that name, a literal passed straight to the method under test takes the name of the
parameter it is passed as (`formatDurationWords(7200000L, true, false)` → `suppressLeadingZeroElements`), any
other literal that differs (the message, the expected value) one named after its place (`message`, `expected`).
One parameter of a plain type takes `@ValueSource`, of an enum `@EnumSource`, several `@CsvSource`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from junitbot.analysis.brackets import closing_bracket, split_arguments
from junitbot.generation.imports import ImportSet
from junitbot.generation.literals import java_string
from junitbot.generation.style import fresh_name

_PARAMS = "org.junit.jupiter.params"
# Literals a CSV row can carry (JUnit converts each to the parameter's type): strings, numbers, booleans,
# enum constants (`Currency.EUR`, converted by name).
_LITERAL = re.compile(
    r'"(?:[^"\\]|\\.)*"'
    r"|(?<![\w.])-?\d+(?:\.\d+)?[LlFfDd]?(?![\w.])"
    r"|(?<![\w.])(?:true|false)(?![\w.])"
    r"|(?<![\w.])[A-Z]\w*\.[A-Z][A-Z0-9_]*(?![\w(])"
)
_DECLARATION = re.compile(r"^([\w.<>\[\]?, ]+?)\s+(\w+)\s*=\s*(.*);$")
_ASSIGNMENT = re.compile(r"^\s*(\w+)\s*=\s*(.*);$")
_VALUE_SOURCES = {"int": "ints", "long": "longs", "double": "doubles", "String": "strings"}
_ONE_LINE = 116  # the longest annotation kept on one line: 120 columns at a method's indentation
_MIN_MEMBERS = 2


@dataclass(frozen=True)
class Member:
    """One written test: its method under test, its name, its body (JUnit style) and the kind of outcome members
    of a family share (`threw IllegalArgumentException`, `returned`); `callee` is how the body calls the method
    (`formatDurationWords`, `new Money`) and `overloads` the parameter names of each of its overloads, so a literal
    passed to it is named after its parameter."""

    method: str
    name: str
    body: tuple[str, ...]
    outcome: str
    callee: str = ""
    overloads: tuple[tuple[str, ...], ...] = ()
    # The subject's constructor as the body calls it (`new Wrapper`) and its overloads' parameter names: a literal
    # passed to it (a receiver built as the tests built it) is named after its parameter too.
    constructor: tuple[str, tuple[tuple[str, ...], ...]] = ("", ())

    def callees(self) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
        """(how the body calls it, its overloads' parameter names) for the method under test, then the subject's
        constructor."""
        return (self.callee, self.overloads), self.constructor


@dataclass(frozen=True)
class Family:
    """A parameterized test standing for `members`: its parameters, annotations and body."""

    members: tuple[str, ...]
    parameters: tuple[str, ...]
    annotations: tuple[str, ...]
    body: tuple[str, ...]
    arguments: tuple[str, ...] = ()  # the parameters that stand for the method's arguments (`quantity`)


def families(members: Sequence[Member], *, imports: ImportSet,
             is_enum: Callable[[str], bool] = lambda name: False) -> list[Family]:
    """The boundary families among `members` (same method, same code but for literals, same kind of outcome).

    `is_enum(type as the test writes it)` says whether JUnit converts a constant's name to it.
    """
    groups: dict[tuple[str, str, tuple[str, ...]], list[tuple[Member, list[list[str]]]]] = {}
    for member in members:
        shape, literals = _shape(member.body)
        groups.setdefault((member.method, member.outcome, shape), []).append((member, literals))
    found = []
    for (_, _, shape), group in groups.items():
        if len(group) >= _MIN_MEMBERS:
            family = _family(list(shape), group, imports, is_enum)
            if family is not None:
                found.append(family)
    return found


def _shape(body: Sequence[str]) -> tuple[tuple[str, ...], list[list[str]]]:
    """The body with each literal replaced by a placeholder, and the literals of each line."""
    shape, literals = [], []
    for line in body:
        shape.append(_LITERAL.sub("\x00", line))
        literals.append(_LITERAL.findall(line))
    return tuple(shape), literals


def _family(shape: list[str], group: list[tuple[Member, list[list[str]]]], imports: ImportSet,
            is_enum: Callable[[str], bool]) -> Family | None:
    first = group[0][1]
    varying = [(line, index) for line, found in enumerate(first) for index in range(len(found))
               if len({g[1][line][index] for g in group}) > 1]
    if not varying:
        return None
    taken: set[str] = set()
    parameters: list[tuple[str, str]] = []  # (type, name)
    body = [list(_split(shape[line], first[line])) for line in range(len(shape))]
    removed: set[int] = set()
    arguments: list[str] = []
    columns: dict[tuple[str, ...], str] = {}  # a column of values already a parameter → its name
    kept: list[tuple[int, int]] = []
    locals_ = {found[2] for line in shape if (found := _DECLARATION.match(line))}
    for line, index in varying:
        values = [g[1][line][index] for g in group]
        declared = _DECLARATION.match(shape[line])
        own_local = bool(declared and declared[3] == "\x00")
        # The same values again (`zero(EUR)` is `EUR`): the same parameter. Not for a local of its own: written
        # `int decimalPlaces = numericCurrencyCode;` it reads as if the two were meant to be equal.
        if tuple(values) in columns and not own_local:
            body[line][index * 2 + 1] = columns[tuple(values)]
            continue
        kind = _kind(values)
        if kind is None or (kind[:1].isupper() and kind != "String" and not is_enum(kind)):
            return None
        argument = _argument_name(shape[line], index, group[0][0])
        if declared and own_local:
            name = declared[2]
            kind = declared[1] if _fits(declared[1], kind) else kind
            removed.add(line)
        elif argument is not None and argument not in locals_:
            name = argument
        elif declared:
            name = declared[2] + ("Text" if kind == "String" else "Value")
        elif assigned := _ASSIGNMENT.match(shape[line]):  # the receiver rebuilt (`money = Money.of(.., "-10.00")`)
            name = assigned[1] + ("Text" if kind == "String" else "Value")
        else:
            name = _expected_name(shape[line])
        name = fresh_name(name, taken)
        if own_local or name == argument:
            arguments.append(name)
        parameters.append((kind, name))
        body[line][index * 2 + 1] = name
        columns.setdefault(tuple(values), name)
        kept.append((line, index))
    rows = [[_csv(g[1][line][index]) for line, index in kept] for g in group]
    lines = ["".join(parts) for number, parts in enumerate(body) if number not in removed]
    if lines and lines[0] == "// Arrange" and (len(lines) == 1 or lines[1].startswith("// ")):
        lines = lines[1:]  # every arranged value became a parameter
    names = tuple(m.name for m, _ in group)
    return Family(members=names, parameters=tuple(f"{t} {n}" for t, n in parameters),
                  annotations=(f"@{imports.name(f'{_PARAMS}.ParameterizedTest')}",
                               _source(parameters, rows, imports)),
                  body=tuple(lines), arguments=tuple(arguments))


# What an assertion compares a column with: `writer.toString()`, `result.getAmount()`.
_ASSERTED = re.compile(r"assert\w*\(.*,\s*(\w+)\.(\w+)\(\)\);$")


def _expected_name(shape_line: str) -> str:
    """A column's name after what its assertion reads: `message` for a thrown exception's, `writerText` for what a
    sink holds (`writer.toString()`), `expectedAmount` for a result's getter; else `expected`."""
    found = _ASSERTED.search(shape_line)
    if found is None:
        return "expected"
    owner, member = found[1], found[2]
    if owner == "thrown" and member == "getMessage":
        return "message"
    if member == "toString" and owner not in ("result", "thrown"):
        return f"{owner}Text"
    if owner == "result" and re.fullmatch(r"(get|is)[A-Z]\w*", member):
        return "expected" + member.removeprefix("get").removeprefix("is")
    return "expected"


def _argument_name(shape_line: str, index: int, member: Member) -> str | None:
    """The name of the parameter the line's `index`-th literal is passed as, where that literal is a whole argument
    of the call to the method under test (or to the subject's constructor) and every overload of that arity names
    the parameter alike."""
    marked = _numbered(shape_line)
    for callee, overloads in member.callees():
        head = re.search(rf"(?<![\w$]){re.escape(callee)}\s*\(", marked) if callee else None
        if head is None:
            continue
        end = closing_bracket(marked, head.end() - 1)
        if end < 0:
            continue
        arguments = split_arguments(marked[head.end():end])
        if f"\x00{index}\x01" not in arguments:
            continue
        place = arguments.index(f"\x00{index}\x01")
        names = {names[place] for names in overloads if len(names) == len(arguments)}
        return names.pop() if len(names) == 1 else None
    return None


def _numbered(shape_line: str) -> str:
    """The line with its n-th placeholder written `\\x00n\\x01`, so an argument says which literal it is."""
    pieces = shape_line.split("\x00")
    return "".join(piece + (f"\x00{n}\x01" if n < len(pieces) - 1 else "") for n, piece in enumerate(pieces))


def _split(shape_line: str, literals: list[str]) -> list[str]:
    """[text, literal, text, literal, ..., text]: the line's pieces, so one literal can be swapped for a name."""
    pieces = shape_line.split("\x00")
    out: list[str] = []
    for index, piece in enumerate(pieces):
        out.append(piece)
        if index < len(literals):
            out.append(literals[index])
    return out


def _kind(values: list[str]) -> str | None:
    """The Java type every value of a varying literal has in common, or None."""
    kinds = {_literal_kind(v) for v in values}
    if len(kinds) == 1:
        return kinds.pop()
    if kinds <= {"int", "long"}:
        return "long"
    if kinds <= {"int", "double"}:
        return "double"
    return None


def _literal_kind(value: str) -> str:
    if value.startswith('"'):
        return "String"
    if value in ("true", "false"):
        return "boolean"
    if value[:1].isalpha():
        return value.rsplit(".", 1)[0]
    if value[-1] in "Ll":
        return "long"
    if value[-1] in "FfDd" or "." in value:
        return "double"
    return "int"


def _fits(declared: str, kind: str) -> bool:
    """Whether a parameter may keep the declared type of the local it replaces."""
    numeric = ("long", "Long", "double", "Double", "Integer", "int")
    return declared == kind or (declared in numeric and kind in ("int", "long", "double"))


def _csv(value: str) -> str:
    """One cell: a string quoted (so empty and padded values survive), a constant by its name, a number bare."""
    if value.startswith('"'):
        return "'" + _string_value(value).replace("'", "''") + "'"
    if value[:1].isalpha() and "." in value:
        return value.rsplit(".", 1)[1]
    return value.rstrip("LlFfDd") if value[-1] in "LlFfDd" and not value.startswith("0x") else value


def _source(parameters: list[tuple[str, str]], rows: list[list[str]], imports: ImportSet) -> str:
    if len(parameters) == 1:
        kind = parameters[0][0]
        cells = [row[0] for row in rows]
        if kind in _VALUE_SOURCES:
            values = [_java_string(c) if kind == "String" else c for c in cells]
            return _annotation(f"@{imports.name(f'{_PARAMS}.provider.ValueSource')}({_VALUE_SOURCES[kind]} = ",
                               values)
        if kind[:1].isupper() and all(c[:1].isalpha() for c in cells):
            return _annotation(f"@{imports.name(f'{_PARAMS}.provider.EnumSource')}(value = {kind}.class, names = ",
                               [f'"{c}"' for c in cells])
    return _annotation(f"@{imports.name(f'{_PARAMS}.provider.CsvSource')}(",
                       [_java_string(", ".join(row), quoted=False) for row in rows])


def _annotation(head: str, values: list[str]) -> str:
    """`head` with the array of `values` and a closing parenthesis: on one line while it fits the line width at the
    methods' indentation, else one value a line (a reviewer reads rows; one PhoneticEngine family was a single line
    of 1,800 characters)."""
    one_line = f"{head}{{{', '.join(values)}}})"
    if len(one_line) <= _ONE_LINE:
        return one_line
    return f"{head}{{\n" + ",\n".join(f"    {value}" for value in values) + "\n})"


_SOURCE_VALUE = re.compile(r'"(?:[^"\\]|\\.)*"|[^,\s{}]+')


def merged_source(existing: str, added: str) -> str | None:
    """One source annotation with the rows of both (`existing` first, a row already there not again), where both
    are of one kind (`@CsvSource(`, `@ValueSource(strings = `): a family found again in a later round is the same
    test with more rows, not a sibling to number."""
    old, new = _source_parts(existing), _source_parts(added)
    if old is None or new is None or old[0] != new[0]:
        return None
    head, first = old
    return _annotation(head, [*first, *(value for value in new[1] if value not in first)])


def _source_parts(annotation: str) -> tuple[str, list[str]] | None:
    """(head up to the array, the array's values) of an annotation `_annotation` wrote."""
    start, end = annotation.find("{"), annotation.rfind("})")
    if start < 0 or end < start:
        return None
    return annotation[:start], _SOURCE_VALUE.findall(annotation[start + 1:end])


def _java_string(cell: str, *, quoted: bool = True) -> str:
    """A cell as a Java string literal (`'text'` → `"text"` in a ValueSource; a whole CSV row as it is), every
    character outside printable ASCII escaped (a lone surrogate cannot even be written to a UTF-8 file)."""
    text = cell[1:-1].replace("''", "'") if quoted and cell.startswith("'") else cell
    return java_string(text)


def _string_value(literal: str) -> str:
    """The text of a Java string literal: JSON's escapes are Java's for what junitbot writes; a literal copied from
    a test (octal escapes, `\\'`) is read with Python's escapes, code point by code point."""
    try:
        found = json.loads(literal)
        if isinstance(found, str):
            return found
    except ValueError:
        pass
    inner = literal[1:-1]
    if "\\" not in inner:
        return inner
    return inner.encode("latin-1", "backslashreplace").decode("unicode_escape")



"""Named fixtures: a value built twice or more in one test class is built in one place (pure).

An immutable value (a value class, a record of such, an enum's companion, a JDK value) becomes a
`private static final` constant named after what the tests call it (`PRICE`); a mutable object (an entity) a
small private factory method (`customer()`), so each test still gets its own instance.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from junitbot.analysis import ClassInfo, TypeKind
from junitbot.analysis.brackets import closing_bracket, split_arguments
from junitbot.generation.style import JAVA_KEYWORDS, fresh_name
from junitbot.generation.template.expected import value_class

_START = re.compile(r"(?<![\w.])(?:new\s+([A-Z][\w.]*)\s*\(|([A-Z]\w*(?:\.[A-Z]\w*)*)\.([a-z]\w*)\s*\()")
# A local's declaration: (its type, its name, its value).
_DECLARED = re.compile(r"^\s*(?:final\s+)?([\w.<>\[\]?, ]+?)\s+(\w+)\s*=\s*(.+);\s*$")
_IMMUTABLE_JDK = frozenset({"BigDecimal", "BigInteger", "Instant", "LocalDate", "LocalDateTime", "LocalTime",
                            "Duration", "Period", "UUID", "ZonedDateTime", "OffsetDateTime"})
_MIN_LENGTH = 20
_GENERIC_LOCALS = frozenset({"expected", "result", "thrown", "value", "other"})  # say nothing of the value
# A name a constant could not see: a local or parameter (lower case, not a member after a dot, not a call).
_FREE_NAME = re.compile(r"(?<![\w.$])(?!(?:new|true|false|null)\b)[a-z_]\w*\b(?!\s*\()")
_MIN_USES = 2
# What follows a constructor call that declares an anonymous class (`new Tokenizer("a b") { .. }`): the call is not
# a value of its own, and naming it would leave the class body behind (a syntax error that cost a whole class).
_CLASS_BODY = re.compile(r"\s*\{")

TypeLookup = Callable[[str], ClassInfo | None]
"""A type as a test writes it (`Money`, `Order.Line`) or its FQN → its ClassInfo, or None outside the repo."""


@dataclass(frozen=True)
class Fixtures:
    """The test methods with repeated values replaced, the constants (field declarations) and factory methods."""

    methods: tuple[str, ...]
    fields: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()


def named_fixtures(methods: Sequence[str], *, lookup: TypeLookup) -> Fixtures:
    """Replace each value built in two or more places of `methods` with a named constant or factory method."""
    texts = list(methods)
    constants: list[tuple[str, str, str]] = []  # (type, name, expression)
    factories: list[tuple[str, str, str]] = []
    taken: set[str] = set()
    # A constant named like a method's local would be shadowed by it (`ProductId BOOK = BOOK;`, a seeded test's).
    locals_ = {m[2] for text in texts for line in text.splitlines() if (m := _DECLARED.match(line))}
    while True:
        chosen = _most_repeated([*texts, *(e for _, _, e in constants), *(e for _, _, e in factories)], lookup)
        if chosen is None:
            break
        expression, type_name, immutable = chosen
        local = _local_name(expression, type_name, texts) or type_name.rsplit(".", 1)[-1]
        if immutable:
            base = _upper_snake(local)
            if base in taken | locals_:  # another value has that name: this one is named by what it holds
                held = _held_words(expression, {n: e for _, n, e in constants})
                base = f"{base}_{held}" if held else base
            name = fresh_name(base, taken | locals_)
            taken.add(name)
            reference = name
        else:
            name = _factory_name(expression, local[:1].lower() + local[1:], taken, lookup)
            reference = f"{name}()"
        texts = [_replaced(t, expression, reference) for t in texts]
        constants = [(t, n, _written_as(e, expression, reference)) for t, n, e in constants]
        factories = [(t, n, _written_as(e, expression, reference)) for t, n, e in factories]
        (constants if immutable else factories).append((type_name, name, expression))
    fields = tuple(f"private static final {t} {n} = {e};" for t, n, e in _in_dependency_order(constants))
    helpers = tuple(f"private static {t} {n}() {{\n    return {e};\n}}\n" for t, n, e in factories)
    return Fixtures(methods=tuple(texts), fields=fields, helpers=helpers)


def _most_repeated(texts: Sequence[str], lookup: TypeLookup) -> tuple[str, str, bool] | None:
    """The longest eligible value expression written twice or more: (expression, its type, immutable)."""
    counts: Counter[str] = Counter()
    kinds: dict[str, tuple[str, bool]] = {}
    for text in texts:
        # A method's own locals, whatever their case (a human test's `BOOK` seeds one): no constant sees them.
        own = {m[2] for line in text.splitlines() if (m := _DECLARED.match(line)) is not None}
        for expression, type_name in (e for line in _eligible(text) for e in _expressions(line)):
            if len(expression) < _MIN_LENGTH or _FREE_NAME.search(_blank_strings(expression)) or \
                    own & set(re.findall(r"(?<![\w.$])[A-Za-z_]\w*", _blank_strings(expression))):
                continue
            kind = kinds.get(expression) or _kind(type_name, expression, lookup)
            if kind is None:
                continue
            kinds[expression] = kind
            counts[expression] += 1
    repeated = [e for e, n in counts.items() if n >= _MIN_USES]
    if not repeated:
        return None
    best = max(repeated, key=lambda e: (len(e), e))
    return best, *kinds[best]


def _eligible(text: str) -> list[str]:
    """The lines of a test method whose values may be named: not the act (the call under test stays written out),
    not a lambda (`assertThrows(.., () -> ..)` runs the call under test)."""
    lines, acting = [], False
    for line in text.splitlines():
        marker = line.strip()
        if marker == "// Act":
            acting = True
        elif marker == "// Assert":
            acting = False
        elif not acting and "->" not in line:
            lines.append(line)
    return lines


def _replaced(text: str, expression: str, reference: str) -> str:
    """`text` with `expression` written as `reference` on the lines where values may be named."""
    eligible = set(_eligible(text))
    return "\n".join(_written_as(line, expression, reference) if line in eligible else line
                     for line in text.split("\n"))


def _written_as(text: str, expression: str, reference: str) -> str:
    """`text` with each whole occurrence of `expression` written as `reference`: not inside a longer name
    (joda-money: `Money.parse("GBP 1")` inside `BigMoney.parse("GBP 1")` made `BigMONEY22`, which cost the class),
    nor the start of an anonymous class's declaration."""
    return re.sub(rf"(?<![\w.$]){re.escape(expression)}(?!{_CLASS_BODY.pattern})", lambda _: reference, text)


def _blank_strings(text: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)


def _expressions(text: str) -> list[tuple[str, str]]:
    """Each constructor call or static factory chain in `text` (`new X(..)`, `X.of(..)`, `X.builder()..build()`)
    with the type it starts from; not one that declares an anonymous class."""
    found = []
    for match in _START.finditer(text):
        end = closing_bracket(text, match.end() - 1)
        if end < 0 or (match[1] and _CLASS_BODY.match(text, end + 1)):
            continue
        while (chained := re.match(r"\.\s*(\w+)\s*\(", text[end + 1:])) is not None:
            close = closing_bracket(text, end + 1 + chained.end() - 1)
            if close < 0:
                break
            end = close
        type_name = match[1] or match[2]
        found.append((text[match.start():end + 1], type_name))
    return found


def _kind(type_name: str, expression: str, lookup: TypeLookup) -> tuple[str, bool] | None:
    """(the type the expression builds, whether it is immutable), or None when that cannot be told."""
    simple = type_name.rsplit(".", 1)[-1]
    if "<" in expression.split("(", 1)[0]:
        return None  # a generic constructor: its type arguments are not written here
    if simple in _IMMUTABLE_JDK:
        return type_name, True
    info = lookup(type_name)
    if info is None or info.kind is TypeKind.INTERFACE:
        return None
    if not expression.startswith("new ") and not _builds_own_type(info, expression, type_name):
        return None
    return type_name, immutable(info, lookup)


def _builds_own_type(info: ClassInfo, expression: str, type_name: str) -> bool:
    """Whether a static call chain on the type returns the type: one call of its factory, or its builder's chain."""
    first = expression[len(type_name) + 1:].split("(", 1)[0].strip()
    if info.builder is not None and first == info.builder.factory:
        return expression.rstrip().endswith(f".{info.builder.build_method}()")
    factory = next((m for m in info.methods if m.name == first and "static" in m.modifiers), None)
    single = closing_bracket(expression, expression.index("(")) == len(expression) - 1
    return single and factory is not None and factory.return_type is not None and factory.return_type.fqn == info.fqn


def immutable(info: ClassInfo, lookup: TypeLookup, seen: frozenset[str] = frozenset()) -> bool:
    """A value nobody can change: an enum, or a value class whose fields hold only such values (JDK values,
    strings, numbers, collections as factories build them)."""
    if info.kind is TypeKind.ENUM:
        return True
    if not value_class(info) or info.fqn in seen:
        return False
    parts = [f.type for f in info.fields if "static" not in f.modifiers] + [c.type for c in info.record_components]
    for ref in parts:
        fqn = ref.fqn
        if fqn is None or not ref.in_repo:
            continue  # primitives and JDK types: values, or collections built immutable by the tests
        nested = lookup(fqn)
        if nested is None or not immutable(nested, lookup, seen | {info.fqn}):
            return False
    return True


def _factory_name(expression: str, name: str, taken: set[str], lookup: TypeLookup) -> str:
    """Named by how the call builds the value: after the static factory it calls (`csvInstance` for
    `StringTokenizer.getCSVInstance()`), else `name` (`percentCodec`); where another factory has that, by the flag
    the call sets (`percentCodecWithPlusForSpace` for `new PercentCodec(null, true)`) or `default` for a constructor
    given nothing (`defaultStringTokenizer`); numbered only where none of these is free (commons-text had
    `stringTokenizer2()` to `stringTokenizer5()`)."""
    match = _START.match(expression.strip())
    factory = _factory_method_name(match[3]) if match is not None and match[3] else None
    if factory is not None:
        return fresh_name(factory, taken)
    if name in taken:
        flag = _flag_set(expression, lookup)
        given_nothing = re.fullmatch(r"new\s+[\w.]+\s*\(\s*\)", expression.strip()) is not None
        described = (f"{name}With{flag[:1].upper()}{flag[1:]}" if flag else None,
                     f"default{name[:1].upper()}{name[1:]}" if given_nothing else None)
        name = next((d for d in described if d and d not in taken), name)
    return fresh_name(name, taken)


def _factory_method_name(method: str) -> str | None:
    """A static factory's name as its value's, the verb left out: `getCSVInstance` → `csvInstance`,
    `newDefaultTokenizer` → `defaultTokenizer`; None for a name that says nothing of the value (`of`, `parse`,
    `getInstance`, a builder's chain)."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", method)
    if len(words) < 2 or words[0] not in ("get", "new", "create", "make") or \
            [w.lower() for w in words[1:]] in (["instance"], ["default"], ["new"]):
        return None
    name = words[1].lower() + "".join(w[:1].upper() + w[1:] for w in words[2:])
    return None if name in JAVA_KEYWORDS else name


def _flag_set(expression: str, lookup: TypeLookup) -> str | None:
    """The name of the first parameter a constructor or factory call passes `true` (its flag); None where none."""
    text = expression.strip()
    match = _START.match(text)
    close_at = closing_bracket(text, match.end() - 1) if match is not None else -1
    if match is None or close_at < 0:
        return None
    arguments = split_arguments(text[match.end():close_at])
    info = lookup(match[1] or match[2])
    if info is None:
        return None
    members = info.constructors if match[1] else [m for m in info.methods if m.name == match[3]]
    for member in members:
        if len(member.parameters) == len(arguments):
            return next((p.name for p, a in zip(member.parameters, arguments, strict=True) if a.strip() == "true"),
                        None)
    return None


def _local_name(expression: str, type_name: str, texts: Sequence[str]) -> str | None:
    """The name the tests most often give the value as a local of its own type (`Money price = <expression>;` →
    `price`; not `BigMoneyProvider moneyProvider = <a BigMoney>`, whose name says what the parameter takes)."""
    names: Counter[str] = Counter()
    simple = type_name.rsplit(".", 1)[-1]
    for text in texts:
        for line in text.splitlines():
            match = _DECLARED.match(line)
            # A numbered local (`money1`, a parameter's name) says no more than its type does.
            if match and match[3].strip() == expression and match[2] not in _GENERIC_LOCALS \
                    and not match[2][-1].isdigit() and re.sub(r"<.*", "", match[1]).rsplit(".", 1)[-1] in (
                        simple, "var"):
                names[match[2]] += 1
    return names.most_common(1)[0][0] if names else None


def _in_dependency_order(constants: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Constants ordered so that each comes after those its expression reads (a static field may not read a
    later one)."""
    ordered: list[tuple[str, str, str]] = []
    pending = list(constants)
    while pending:
        ready = [c for c in pending if not any(re.search(rf"\b{o[1]}\b", c[2]) for o in pending if o is not c)]
        chosen = ready[0] if ready else pending[0]
        ordered.append(chosen)
        pending.remove(chosen)
    return ordered


# What names a value: a text or number it is built from, a constant it reads (`CurrencyUnit.EUR`), or another of
# the class's constants (`BIG_DECIMAL`, named by what that one holds).
_HELD = re.compile(r'"((?:[^"\\]|\\.)*)"|(?<![\w.])(-?\d+(?:\.\d+)?)[lLfFdD]?\b|\b[A-Z]\w*\.([A-Z][A-Z0-9_]*)\b'
                   r"|\b([A-Z][A-Z0-9_]+)\b")
_HELD_WORDS = 2


def _held_words(expression: str, constants: Mapping[str, str], depth: int = 0) -> str:
    """The first values a constant's expression holds, as a name's words: `Money.of(CurrencyUnit.USD, new
    BigDecimal("10.00"))` → `USD_10_00` (joda-money's `MONEY15`, `MONEY110`: numbers that said nothing)."""
    words: list[str] = []
    for match in _HELD.finditer(expression):
        text, number, field, reference = match.groups()
        if reference is not None:
            if reference in constants and depth < 3:
                words.append(_held_words(constants[reference], constants, depth + 1))
        else:
            raw = next(part for part in (text, number, field) if part is not None)
            words.append(re.sub(r"[^A-Za-z0-9]+", "_", raw.replace("-", "minus ")).strip("_").upper())
        words = [w for w in words if w]
        if len(words) >= _HELD_WORDS:
            break
    return "_".join(words[:_HELD_WORDS])


def _upper_snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()





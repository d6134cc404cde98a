"""What a test writes for JDK types: literals and factory calls, collection shapes, lambdas (pure data).

Each literal is a template naming JDK types by their simple names, with the FQNs it names; the
value builder rewrites those names as the file's imports decide. The first template of a type is
the ordinary value that constructors accept (1, "text", a fixed instant); the others are variants.
"""

from __future__ import annotations

from typing import NamedTuple

from junitbot.generation.javalevel import Feature


class Template(NamedTuple):
    code: str
    names: tuple[str, ...] = ()


def _of(fqn: str, *codes: str, also: tuple[str, ...] = ()) -> tuple[str, tuple[Template, ...]]:
    return fqn, tuple(Template(code, (fqn, *also)) for code in codes)


def _numbers(box: str, suffix: str = "", cast: str = "") -> tuple[str, ...]:
    return (f"{cast}1{suffix}", f"{cast}0{suffix}", f"{cast}-1{suffix}", f"{box}.MAX_VALUE", f"{box}.MIN_VALUE")


_INSTANT = 'Instant.parse("2024-01-01T00:00:00Z")'
_UTC = ("java.time.ZoneOffset",)

PRIMITIVE_LITERALS: dict[str, tuple[Template, ...]] = {
    "int": tuple(Template(c, ("java.lang.Integer",)) for c in _numbers("Integer")),
    "long": tuple(Template(c, ("java.lang.Long",)) for c in _numbers("Long", "L")),
    "short": tuple(Template(c, ("java.lang.Short",)) for c in _numbers("Short", cast="(short) ")),
    "byte": tuple(Template(c, ("java.lang.Byte",)) for c in _numbers("Byte", cast="(byte) ")),
    "double": tuple(Template(c, ("java.lang.Double",)) for c in
                    ("1.0", "0.0", "-1.0", "Double.MAX_VALUE", "Double.NaN")),
    "float": tuple(Template(c, ("java.lang.Float",)) for c in
                   ("1.0f", "0.0f", "-1.0f", "Float.MAX_VALUE", "Float.NaN")),
    "char": tuple(Template(c, ("java.lang.Character",)) for c in
                  ("'a'", "'0'", "' '", "Character.MAX_VALUE", "'\\u00e9'", "'-'")),
    "boolean": (Template("true"), Template("false")),
}
BOXES = {
    "java.lang.Integer": "int", "java.lang.Long": "long", "java.lang.Short": "short", "java.lang.Byte": "byte",
    "java.lang.Double": "double", "java.lang.Float": "float", "java.lang.Character": "char",
    "java.lang.Boolean": "boolean",
}
# By variant: ordinary, empty, blank, long; then the inputs a coverage round adds (4: letters outside ASCII, 5:
# punctuation alone), the inputs code that does arithmetic on characters or strips what is not a letter gets wrong
# (commons-codec's CODEC-311 and CODEC-312).
STRINGS = ("text", "", " ", "a longer text with several words", "\u00c9l\u00e8ve", ".,-")
# The texts the generator makes up when nothing says what one should be: STRINGS' ordinary and long one.
MADE_UP_TEXTS = frozenset({STRINGS[0], STRINGS[3]})
# The parameter types a text literal is given to, as written or resolved.
TEXT_TYPES = frozenset({"String", "CharSequence", "java.lang.String", "java.lang.CharSequence"})
# Parameter-name words that ask for a string of a known shape; the first match wins.
STRING_HINTS: tuple[tuple[frozenset[str], str], ...] = (
    # Two words read as one too (`newLineStr` → `newline`): the text a line break is written with.
    (frozenset({"newline", "eol", "lineseparator", "linebreak", "linefeed"}), "\n"),
    (frozenset({"separator", "delimiter", "sep", "delim", "separators"}), ","),
    (frozenset({"email", "mail"}), "user@example.com"),
    # A message says why (joda-money's `checkNotNull(object, "text")` checked a placeholder).
    (frozenset({"message", "msg"}), "value must not be null"),
    (frozenset({"url", "uri", "link", "website", "endpoint", "homepage"}), "https://example.com"),
    (frozenset({"phone", "mobile", "telephone"}), "+15551234567"),
    (frozenset({"uuid", "guid"}), "123e4567-e89b-12d3-a456-426614174000"),
    # What a code is of comes first: `currencyCode` is "EUR" and `countryCode` "US", not "ABC-1234".
    (frozenset({"currency"}), "EUR"),
    (frozenset({"country"}), "US"),
    (frozenset({"locale", "language", "lang"}), "en"),
    (frozenset({"sku", "code", "reference", "ref", "serial"}), "ABC-1234"),
    (frozenset({"date", "day"}), "2024-01-01"),
    (frozenset({"zip", "postcode", "postal"}), "12345"),
    (frozenset({"json"}), "{}"),
)
# Parameter-name words that ask for a char of a known role (Java char literals); the first match wins.
CHAR_HINTS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"delim", "delimiter", "separator", "sep"}), "','"),
    (frozenset({"quote"}), "'\"'"),
    (frozenset({"escape"}), "'\\\\'"),
    (frozenset({"pad", "padding", "fill"}), "' '"),
)
STRING_LIKE = frozenset({"java.lang.String", "java.lang.CharSequence", "java.lang.Object", "java.lang.Comparable",
                         "java.io.Serializable"})

JDK_LITERALS: dict[str, tuple[Template, ...]] = dict([
    _of("java.math.BigDecimal", 'new BigDecimal("10.00")', "BigDecimal.ZERO", 'new BigDecimal("-1.50")',
        'new BigDecimal("1000000.00")'),
    _of("java.math.BigInteger", "BigInteger.TEN", "BigInteger.ZERO", "BigInteger.valueOf(-1)",
        'new BigInteger("9223372036854775808")'),
    _of("java.lang.Number", "1", "0", "-1"),
    _of("java.util.UUID", 'UUID.fromString("123e4567-e89b-12d3-a456-426614174000")',
        'UUID.fromString("00000000-0000-0000-0000-000000000000")'),
    _of("java.time.Instant", _INSTANT, "Instant.EPOCH", 'Instant.parse("2024-12-31T23:59:59Z")'),
    _of("java.time.LocalDate", "LocalDate.of(2024, 1, 1)", "LocalDate.of(2024, 2, 29)", "LocalDate.of(1970, 1, 1)"),
    _of("java.time.LocalDateTime", "LocalDateTime.of(2024, 1, 1, 12, 0)", "LocalDateTime.of(1970, 1, 1, 0, 0)"),
    _of("java.time.LocalTime", "LocalTime.of(12, 0)", "LocalTime.MIDNIGHT", "LocalTime.of(23, 59, 59)"),
    _of("java.time.ZonedDateTime", "ZonedDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)", also=_UTC),
    _of("java.time.OffsetDateTime", "OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)", also=_UTC),
    _of("java.time.Duration", "Duration.ofSeconds(60)", "Duration.ZERO", "Duration.ofSeconds(-1)",
        "Duration.ofDays(365)"),
    _of("java.time.Period", "Period.ofDays(1)", "Period.ZERO", "Period.ofDays(-1)"),
    _of("java.time.ZoneId", 'ZoneId.of("UTC")', 'ZoneId.of("Europe/Paris")'),
    _of("java.time.ZoneOffset", "ZoneOffset.UTC", "ZoneOffset.ofHours(2)"),
    _of("java.time.Year", "Year.of(2024)", "Year.of(1970)"),
    _of("java.time.YearMonth", "YearMonth.of(2024, 1)", "YearMonth.of(2024, 12)"),
    _of("java.time.DayOfWeek", "DayOfWeek.MONDAY", "DayOfWeek.SUNDAY"),
    _of("java.time.Month", "Month.JANUARY", "Month.DECEMBER"),
    _of("java.time.Clock", f"Clock.fixed({_INSTANT}, ZoneOffset.UTC)", also=("java.time.Instant", *_UTC)),
    _of("java.util.Currency", 'Currency.getInstance("EUR")', 'Currency.getInstance("USD")'),
    _of("java.nio.charset.Charset", "StandardCharsets.UTF_8", "StandardCharsets.US_ASCII",
        "StandardCharsets.ISO_8859_1", also=("java.nio.charset.StandardCharsets",)),
    _of("java.util.Locale", "Locale.ROOT", "Locale.US", "Locale.GERMANY"),
    _of("java.util.Date", "new Date(1704067200000L)", "new Date(0L)"),
    _of("java.util.Random", "new Random(42L)"),
    _of("java.util.regex.Pattern", 'Pattern.compile("[a-z]+")'),
    _of("java.net.URI", 'URI.create("https://example.com")'),
    _of("java.nio.file.Path", 'Path.of("example.txt")'),
    _of("java.math.RoundingMode", "RoundingMode.HALF_EVEN", "RoundingMode.UP"),
    _of("java.util.concurrent.TimeUnit", "TimeUnit.SECONDS", "TimeUnit.MILLISECONDS"),
    _of("java.util.concurrent.atomic.AtomicInteger", "new AtomicInteger(1)", "new AtomicInteger()"),
    _of("java.util.concurrent.atomic.AtomicLong", "new AtomicLong(1L)", "new AtomicLong()"),
    _of("java.util.concurrent.atomic.AtomicBoolean", "new AtomicBoolean(true)", "new AtomicBoolean()"),
    _of("java.lang.StringBuilder", 'new StringBuilder("text")', "new StringBuilder()"),
    # Sinks and sources: the JDK's own in-memory implementations, never a mock, so a test can read back what the
    # code wrote (issue 29: a mocked Appendable checks nothing that was rendered).
    _of("java.lang.Appendable", "new StringBuilder()", 'new StringBuilder("text")',
        also=("java.lang.StringBuilder",)),
    _of("java.lang.StringBuffer", "new StringBuffer()", 'new StringBuffer("text")'),
    _of("java.io.Writer", "new StringWriter()", also=("java.io.StringWriter",)),
    _of("java.io.StringWriter", "new StringWriter()"),
    _of("java.io.PrintWriter", "new PrintWriter(new StringWriter())", also=("java.io.StringWriter",)),
    _of("java.io.OutputStream", "new ByteArrayOutputStream()", also=("java.io.ByteArrayOutputStream",)),
    _of("java.io.ByteArrayOutputStream", "new ByteArrayOutputStream()"),
    _of("java.io.PrintStream", "new PrintStream(new ByteArrayOutputStream())",
        also=("java.io.ByteArrayOutputStream",)),
    _of("java.io.Reader", 'new StringReader("text")', 'new StringReader("")', also=("java.io.StringReader",)),
    _of("java.io.StringReader", 'new StringReader("text")', 'new StringReader("")'),
    _of("java.io.InputStream", "new ByteArrayInputStream(new byte[] {1, 2, 3})",
        "new ByteArrayInputStream(new byte[0])", also=("java.io.ByteArrayInputStream",)),
    _of("java.io.ByteArrayInputStream", "new ByteArrayInputStream(new byte[] {1, 2, 3})"),
    _of("java.lang.Throwable", 'new RuntimeException("text")', also=("java.lang.RuntimeException",)),
    _of("java.lang.Exception", 'new Exception("text")'),
    _of("java.lang.RuntimeException", 'new RuntimeException("text")'),
    _of("java.lang.IllegalArgumentException", 'new IllegalArgumentException("text")'),
    _of("java.lang.IllegalStateException", 'new IllegalStateException("text")'),
    _of("java.util.OptionalInt", "OptionalInt.of(1)", "OptionalInt.empty()"),
    _of("java.util.OptionalLong", "OptionalLong.of(1L)", "OptionalLong.empty()"),
    _of("java.util.OptionalDouble", "OptionalDouble.of(1.0)", "OptionalDouble.empty()"),
])

# JDK_LITERALS entries newer than Java 8, with what an older release writes instead (the feature says when).
LEGACY_LITERALS: dict[str, tuple[Feature, tuple[Template, ...]]] = {
    "java.nio.file.Path": ("path_of", (Template('Paths.get("example.txt")', ("java.nio.file.Paths",)),)),
}


class CollectionShape(NamedTuple):
    """How to write a collection type: `List.of(e)` wrapped in `new ArrayList<>(...)` when concrete."""

    factory: str  # java.util.List, java.util.Set, java.util.Map or java.util.stream.Stream
    wrapper: str | None = None


_LIST, _SET, _MAP = "java.util.List", "java.util.Set", "java.util.Map"
COLLECTIONS: dict[str, CollectionShape] = {
    _LIST: CollectionShape(_LIST), "java.util.Collection": CollectionShape(_LIST),
    "java.lang.Iterable": CollectionShape(_LIST),
    "java.util.ArrayList": CollectionShape(_LIST, "java.util.ArrayList"),
    "java.util.LinkedList": CollectionShape(_LIST, "java.util.LinkedList"),
    "java.util.concurrent.CopyOnWriteArrayList": CollectionShape(_LIST, "java.util.concurrent.CopyOnWriteArrayList"),
    "java.util.Queue": CollectionShape(_LIST, "java.util.ArrayDeque"),
    "java.util.Deque": CollectionShape(_LIST, "java.util.ArrayDeque"),
    "java.util.ArrayDeque": CollectionShape(_LIST, "java.util.ArrayDeque"),
    "java.util.PriorityQueue": CollectionShape(_LIST, "java.util.PriorityQueue"),
    _SET: CollectionShape(_SET),
    "java.util.HashSet": CollectionShape(_SET, "java.util.HashSet"),
    "java.util.LinkedHashSet": CollectionShape(_SET, "java.util.LinkedHashSet"),
    "java.util.SortedSet": CollectionShape(_SET, "java.util.TreeSet"),
    "java.util.NavigableSet": CollectionShape(_SET, "java.util.TreeSet"),
    "java.util.TreeSet": CollectionShape(_SET, "java.util.TreeSet"),
    _MAP: CollectionShape(_MAP),
    "java.util.HashMap": CollectionShape(_MAP, "java.util.HashMap"),
    "java.util.LinkedHashMap": CollectionShape(_MAP, "java.util.LinkedHashMap"),
    "java.util.SortedMap": CollectionShape(_MAP, "java.util.TreeMap"),
    "java.util.NavigableMap": CollectionShape(_MAP, "java.util.TreeMap"),
    "java.util.TreeMap": CollectionShape(_MAP, "java.util.TreeMap"),
    "java.util.concurrent.ConcurrentMap": CollectionShape(_MAP, "java.util.concurrent.ConcurrentHashMap"),
    "java.util.concurrent.ConcurrentHashMap": CollectionShape(_MAP, "java.util.concurrent.ConcurrentHashMap"),
    "java.util.stream.Stream": CollectionShape("java.util.stream.Stream"),
}

# Before Java 9 there is no `List.of`: (empty, one element) factories of Java 8 per collection factory. The
# generator builds at most one element (Map: one entry); `Stream.of` is Java 8 already.
LEGACY_COLLECTIONS: dict[str, tuple[str, str]] = {
    _LIST: ("java.util.Collections.emptyList", "java.util.Collections.singletonList"),
    _SET: ("java.util.Collections.emptySet", "java.util.Collections.singleton"),
    _MAP: ("java.util.Collections.emptyMap", "java.util.Collections.singletonMap"),
}


class FunctionShape(NamedTuple):
    """A functional interface as a lambda: its arity and what it returns.

    `result` is the index of the type argument it returns, `same` for its first argument, `void`,
    or a literal (`true`, `0`).
    """

    arity: int
    result: int | str


_F = "java.util.function."
FUNCTIONS: dict[str, FunctionShape] = {
    f"{_F}Supplier": FunctionShape(0, 0), "java.util.concurrent.Callable": FunctionShape(0, 0),
    f"{_F}Function": FunctionShape(1, 1), f"{_F}BiFunction": FunctionShape(2, 2),
    f"{_F}UnaryOperator": FunctionShape(1, "same"), f"{_F}BinaryOperator": FunctionShape(2, "same"),
    f"{_F}Predicate": FunctionShape(1, "true"), f"{_F}BiPredicate": FunctionShape(2, "true"),
    f"{_F}Consumer": FunctionShape(1, "void"), f"{_F}BiConsumer": FunctionShape(2, "void"),
    "java.lang.Runnable": FunctionShape(0, "void"), "java.util.Comparator": FunctionShape(2, "0"),
    f"{_F}ToIntFunction": FunctionShape(1, "1"), f"{_F}ToLongFunction": FunctionShape(1, "1L"),
    f"{_F}ToDoubleFunction": FunctionShape(1, "1.0"), f"{_F}IntFunction": FunctionShape(1, 0),
    f"{_F}IntPredicate": FunctionShape(1, "true"), f"{_F}IntUnaryOperator": FunctionShape(1, "same"),
    f"{_F}IntSupplier": FunctionShape(0, "1"), f"{_F}BooleanSupplier": FunctionShape(0, "true"),
}
# Factories whose result differs from run to run: a test value must not come from them.
NONDETERMINISTIC_FACTORIES = frozenset({
    "newid", "random", "randomid", "randomuuid", "now", "today", "generate", "generateid", "nextid", "uuid",
    "current", "newinstance",
})
PREFERRED_FACTORIES = ("of", "valueOf", "from", "create", "parse", "getInstance", "instance")

"""value_expression on JDK types, containers and the repo types of the shop and of a small edge-case repo."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from junitbot.analysis import TypeRef
from junitbot.generation import ImportSet, ValueExpr
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.template import Scope, string_value, value_expression
from junitbot.generation.template.context import graph_implementations
from tests.generation.conftest import Indexed, copy_shop, index, index_files, write_files

SHOP = "com.acme.shop"
EDGE = "com.example.edge"


def jdk(text: str, fqn: str | None = None, *arguments: TypeRef) -> TypeRef:
    name = text.split("<")[0]
    return TypeRef(text=text, name=name, fqn=fqn, arguments=arguments)


def repo(fqn: str, *arguments: TypeRef) -> TypeRef:
    name = fqn.rsplit(".", 1)[-1]
    return TypeRef(text=name, name=name, fqn=fqn, in_repo=True, arguments=arguments)


STRING = jdk("String", "java.lang.String")
CATALOG = "com.acme.catalog"
# Value objects whose constructors reject the builder's ordinary values ("text", 1).
VALIDATING = {
    "src/main/java/com/acme/catalog/Isbn.java": r"""package com.acme.catalog;
public record Isbn(String value) {
    public Isbn {
        if (value == null || !value.matches("97[89]-\\d{10}")) {
            throw new IllegalArgumentException("not an ISBN-13: " + value);
        }
    }
}
""",
    "src/main/java/com/acme/catalog/Age.java": """package com.acme.catalog;
public final class Age {
    private final int years;
    public Age(int years) {
        if (years < 18) throw new IllegalArgumentException("adults only");
        this.years = years;
    }
    public int years() { return years; }
}
""",
    "src/main/java/com/acme/catalog/Slug.java": """package com.acme.catalog;
public final class Slug {
    private final String text;
    private Slug(String text) { this.text = text; }
    public static Slug of(String text) {
        if (!text.startsWith("/")) throw new IllegalArgumentException("a slug starts with /");
        return new Slug(text);
    }
}
""",
    "src/main/java/com/acme/catalog/Book.java": """package com.acme.catalog;
public record Book(Isbn isbn, Age minimumAge, Slug slug) {}
""",
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    yield from index(copy_shop(tmp_path_factory.mktemp("values") / "shop"), use_git=False)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("values") / "catalog"
    write_files(root, VALIDATING)
    yield from index(root, use_git=False)


def build(indexed: Indexed, ref: TypeRef, package: str = f"{SHOP}.application", *, level: JavaLevel = MODERN,
          depth: int = 3, **options: object) -> ValueExpr:
    scope = Scope(indexed.lookup, ImportSet(package), level, depth)
    built = value_expression(ref, scope, **options)  # type: ignore[arg-type]
    assert built is not None, ref
    return built


def test_primitives_and_boxed_values_have_variants(shop: Indexed) -> None:
    int_ref = TypeRef(text="int", name="int")
    assert [build(shop, int_ref, variant=v).text for v in range(5)] == [
        "1", "0", "-1", "Integer.MAX_VALUE", "Integer.MIN_VALUE"]
    assert build(shop, int_ref, variant=-1).text == "Integer.MIN_VALUE"
    assert build(shop, jdk("Long", "java.lang.Long")).text == "1L"
    assert build(shop, jdk("Short", "java.lang.Short"), variant=2).text == "(short) -1"
    assert build(shop, TypeRef(text="boolean", name="boolean"), variant=1).text == "false"
    assert build(shop, jdk("Double", "java.lang.Double"), variant=4).text == "Double.NaN"


def test_strings_follow_the_parameter_name(shop: Indexed) -> None:
    assert build(shop, STRING).text == '"text"'
    assert build(shop, STRING, variant=1).text == '""'
    assert build(shop, STRING, hint="newEmail").text == '"user@example.com"'
    assert build(shop, STRING, hint="sku").text == '"ABC-1234"'
    # What a code is of says its shape (joda-money's `of(currencyCode)` was only ever rejected, on "ABC-1234").
    assert [build(shop, STRING, hint=h).text for h in ("currencyCode", "countryCode", "languageCode")] == [
        '"EUR"', '"US"', '"en"']
    assert string_value(1, "email") == ""
    # Two words that name one thing: `newLineStr` asks for a line break, not "text"; a separator for one.
    assert build(shop, STRING, hint="newLineStr").text == '"\\n"'
    assert build(shop, STRING, hint="separatorChars").text == '","'
    assert build(shop, STRING, hint="lineNumber").text == '"text"'
    assert build(shop, STRING, hint="errorMessage").text == '"value must not be null"'
    # A char by its role, so one call's delimiter and quote differ (StrTokenizer's `(input, 'a', 'a')`).
    char = TypeRef(text="char", name="char")
    assert [build(shop, char, hint=h).text for h in ("delim", "quoteChar", "escape", "ch")] == [
        "','", "'\"'", "'\\\\'", "'a'"]
    assert build(shop, char, hint="delim", variant=1).text == "'0'"  # the other variants as before
    # A duration in milliseconds with every unit set (commons-lang's DurationFormatUtils rendered 1 ms as zeros); a
    # span's start at zero; never a timeout a test would wait out.
    long = TypeRef(text="long", name="long")
    hints = ("durationMillis", "startMillis", "endMillis", "timeoutMillis")
    assert [build(shop, long, hint=h).text for h in hints] == ["34563661001L", "0L", "34563661001L", "1L"]
    assert build(shop, TypeRef(text="int", name="int"), hint="elapsedMillis").text == "90061001"


def test_jdk_values_are_fixed_and_imported(shop: Indexed) -> None:
    cases = {
        "java.math.BigDecimal": 'new BigDecimal("10.00")',
        "java.util.UUID": 'UUID.fromString("123e4567-e89b-12d3-a456-426614174000")',
        "java.time.Instant": 'Instant.parse("2024-01-01T00:00:00Z")',
        "java.time.LocalDate": "LocalDate.of(2024, 1, 1)",
        "java.time.Duration": "Duration.ofSeconds(60)",
        "java.math.BigInteger": "BigInteger.TEN",
    }
    for fqn, text in cases.items():
        built = build(shop, jdk(fqn.rsplit(".", 1)[-1], fqn))
        assert (built.text, built.imports, built.strategy) == (text, (fqn,), "jdk")
    clock = build(shop, jdk("Clock", "java.time.Clock"))
    assert clock.imports == ("java.time.Clock", "java.time.Instant", "java.time.ZoneOffset")


@pytest.mark.parametrize(("fqn", "text", "imports"), [
    ("java.lang.Appendable", "new StringBuilder()", ()),
    ("java.io.Writer", "new StringWriter()", ("java.io.StringWriter", "java.io.Writer")),
    ("java.io.OutputStream", "new ByteArrayOutputStream()", ("java.io.ByteArrayOutputStream", "java.io.OutputStream")),
    ("java.io.PrintStream", "new PrintStream(new ByteArrayOutputStream())",
     ("java.io.ByteArrayOutputStream", "java.io.PrintStream")),
    ("java.io.Reader", 'new StringReader("text")', ("java.io.Reader", "java.io.StringReader")),
])
def test_sinks_and_sources_are_the_jdks_in_memory_ones_not_mocks(shop: Indexed, fqn: str, text: str,
                                                                  imports: tuple[str, ...]) -> None:
    built = build(shop, jdk(fqn.rsplit(".", 1)[-1], fqn))
    # The declared type is imported too, for a local that holds the value.
    assert (built.text, built.imports, built.strategy) == (text, imports, "jdk")


def test_unresolved_jdk_names_are_recognised(shop: Indexed) -> None:
    assert build(shop, jdk("BigDecimal")).text == 'new BigDecimal("10.00")'
    assert value_expression(jdk("Map.Entry"), Scope(shop.lookup, ImportSet("a"))) is None


def test_enums_pick_constants_by_variant(shop: Indexed) -> None:
    currency = repo(f"{SHOP}.domain.Currency")
    assert [build(shop, currency, variant=v).text for v in (0, 1, 4)] == ["Currency.EUR", "Currency.USD",
                                                                           "Currency.EUR"]
    assert build(shop, currency).strategy == "enum"


def test_records_use_the_canonical_constructor_recursively(shop: Indexed) -> None:
    line = build(shop, repo(f"{SHOP}.domain.OrderLine"))
    assert line.strategy == "record"
    # What the shop's own OrderTest passes (`new OrderLine(BOOK, 1, Money.of("10.00", Currency.USD))`, BOOK a
    # constant of the test), mined; the made-up values come from the variants past the repository's examples.
    assert line.text == 'new OrderLine(ProductId.of("book"), 1, Money.of("10.00", Currency.USD))'
    made_up = build(shop, repo(f"{SHOP}.domain.OrderLine"), variant=2)
    assert made_up.strategy == "record" and made_up.text.startswith("new OrderLine(new ProductId(")
    item = build(shop, repo(f"{SHOP}.application.PlaceOrderCommand.Item"))
    assert item.text == 'new PlaceOrderCommand.Item(ProductId.of("p-1"), 1)' and item.type_text == (
        "PlaceOrderCommand.Item")


def test_builders_factories_and_constructors(shop: Indexed, edge: Indexed) -> None:
    mined = [build(shop, repo(f"{SHOP}.domain.Money"), variant=v) for v in (0, 1)]
    assert [(m.strategy, m.text) for m in mined] == [("factory", 'Money.of("60.00", Currency.EUR)'),
                                                     ("factory", "Money.zero(Currency.EUR)")]
    money = build(shop, repo(f"{SHOP}.domain.Money"), variant=2)
    assert (money.strategy, money.text) == ("builder", 'Money.builder().amount(new BigDecimal("-1.50")).currency('
                                                       "Currency.GBP).build()")
    config = build(shop, repo(f"{SHOP}.infrastructure.ShopConfiguration"))
    assert (config.strategy, config.text) == ("factory", "ShopConfiguration.inMemory()")
    gateway = build(shop, repo(f"{SHOP}.infrastructure.SystemTimeSource"))
    assert gateway.strategy == "constructor" and gateway.text.startswith("new SystemTimeSource(Clock.fixed(")
    assert build(edge, repo(f"{EDGE}.Temperature"), EDGE).text == "Temperature.of(1.0)"
    assert build(edge, repo(f"{EDGE}.Point"), EDGE).text == "new Point(1, 1)"
    assert build(edge, repo(f"{EDGE}.Shape"), EDGE).text == "Shape.unit()"
    assert build(edge, repo(f"{EDGE}.Ticket"), EDGE).text == (
        'Ticket.builder().title("text").seats(1).level(Level.LOW).build()')


def test_collections_optionals_arrays_and_lambdas(edge: Indexed) -> None:
    holder = edge.info(f"{EDGE}.Holder")
    params = {p.name: p.type for p in holder.constructors[0].parameters}

    def value(name: str, variant: int = 0) -> str:
        return build(edge, params[name], EDGE, variant=variant).text

    # A container's number is 2: of one element, 1 is also its count and the identity of `*` and `/`.
    assert value("index") == 'Map.of("text", List.of(2))'
    assert value("index", 1) == "Map.of()"
    assert value("levels") == "Set.of(Level.LOW)"
    assert value("levels", 2) == "Set.of(Level.MEDIUM)"
    assert (value("note"), value("note", 1)) == ('Optional.of("text")', "Optional.empty()")
    assert (value("counts"), value("counts", 1)) == ("new int[] { 2 }", "new int[0]")
    assert value("grid") == 'new String[][] { new String[] { "text" } }'
    assert value("length") == "arg3 -> 1"
    assert value("origin") == "() -> new Point(1, 1)"
    assert value("task") == "() -> { }"
    assert value("type") == "String.class"
    assert value("totals") == 'new TreeMap<>(Map.of("text", 2L))'
    assert value("nodes") == "List.of()"  # a Node needs a Node: the element cannot be built, the list stays empty
    assert build(edge, params["index"], EDGE).type_text == "Map<String, List<Integer>>"


def test_below_java_9_collections_are_built_with_java_8_factories(edge: Indexed) -> None:
    holder = edge.info(f"{EDGE}.Holder")
    params = {p.name: p.type for p in holder.constructors[0].parameters}
    java8 = JavaLevel(release=8)

    def value(name: str, variant: int = 0) -> ValueExpr:
        return build(edge, params[name], EDGE, variant=variant, level=java8)

    index = value("index")
    assert index.text == 'Collections.singletonMap("text", Collections.singletonList(2))'
    assert "java.util.Collections" in index.imports and index.type_text == "Map<String, List<Integer>>"
    assert value("index", 1).text == "Collections.emptyMap()"
    assert value("levels").text == "Collections.singleton(Level.LOW)"
    assert value("totals").text == 'new TreeMap<>(Collections.singletonMap("text", 2L))'
    assert value("nodes").text == "Collections.emptyList()"
    assert value("note").text == 'Optional.of("text")'  # Java 8 has Optional
    path = TypeRef(text="Path", name="Path", fqn="java.nio.file.Path")
    assert build(edge, path, EDGE, level=java8).text == 'Paths.get("example.txt")'
    assert build(edge, path, EDGE, level=JavaLevel(release=11)).text == 'Path.of("example.txt")'
    assert build(edge, params["index"], EDGE, level=JavaLevel(release=9)).text == 'Map.of("text", List.of(2))'


def test_cycles_depth_and_type_variables(edge: Indexed) -> None:
    assert value_expression(repo(f"{EDGE}.Node"), Scope(edge.lookup, ImportSet(EDGE))) is None
    assert build(edge, repo(f"{EDGE}.Tree"), EDGE).text == 'new Tree("text", List.of())'
    boxed = build(edge, repo(f"{EDGE}.Box", repo(f"{EDGE}.Level")), EDGE)
    assert (boxed.text, boxed.type_text) == ("new Box<>(Level.LOW)", "Box<Level>")
    assert build(edge, repo(f"{EDGE}.Box"), EDGE).text == 'new Box<>("text")'
    nested = repo(f"{EDGE}.Box", repo(f"{EDGE}.Box", repo(f"{EDGE}.Point")))
    assert build(edge, nested, EDGE, depth=3).text == "new Box<>(new Box<>(new Point(1, 1)))"
    assert value_expression(nested, Scope(edge.lookup, ImportSet(EDGE), depth=2)) is None
    type_variable = TypeRef(text="T", name="T")
    assert build(edge, type_variable, EDGE, bindings={"T": repo(f"{EDGE}.Level")}).text == "Level.LOW"


def test_what_cannot_be_built_is_none(edge: Indexed) -> None:
    def nothing(fqn: str, package: str = EDGE) -> bool:
        return value_expression(repo(fqn), Scope(edge.lookup, ImportSet(package))) is None

    assert nothing(f"{EDGE}.Base")  # abstract, no factory
    assert nothing(f"{EDGE}.Loader")  # interface, no factory: the caller mocks it
    assert nothing(f"{EDGE}.Outer.Inner")  # needs an Outer instance
    assert nothing(f"{EDGE}.Outer.Secret")  # private
    assert nothing(f"{EDGE}.Locked")  # private constructor, no factory
    assert nothing(f"{EDGE}.Empty")  # enum without constants
    assert nothing("com.example.other.Hidden")  # package-private elsewhere
    assert not nothing("com.example.other.Hidden", "com.example.other")
    assert value_expression(jdk("Socket", "java.net.Socket"), Scope(edge.lookup, ImportSet(EDGE))) is None


def test_a_failed_value_leaves_the_imports_alone(edge: Indexed) -> None:
    imports = ImportSet(EDGE)
    assert value_expression(repo(f"{EDGE}.Node"), Scope(edge.lookup, imports)) is None
    assert imports.imports == () and imports.claims == ()


def test_imports_avoid_clashes_between_simple_names(shop: Indexed) -> None:
    imports = ImportSet(f"{SHOP}.domain")
    shop_currency = value_expression(repo(f"{SHOP}.domain.Currency"), Scope(shop.lookup, imports))
    jdk_currency = value_expression(jdk("Currency", "java.util.Currency"), Scope(shop.lookup, imports))
    assert shop_currency is not None and jdk_currency is not None
    assert (shop_currency.text, jdk_currency.text) == ("Currency.EUR", 'java.util.Currency.getInstance("EUR")')
    assert jdk_currency.type_text == "java.util.Currency" and jdk_currency.imports == ()


def test_parts_pass_the_checks_of_the_constructors_and_factories_that_take_them(catalog: Indexed) -> None:
    book = build(catalog, repo(f"{CATALOG}.Book"), CATALOG)
    assert book.text == 'new Book(new Isbn("978-1234567890"), new Age(18), Slug.of("/text"))'
    # The checks hold for every variant; a value a check rejects is not built.
    assert build(catalog, repo(f"{CATALOG}.Isbn"), CATALOG, variant=1).text == 'new Isbn("978-1234567890")'
    checks = catalog.info(f"{CATALOG}.Age").constructors[0].compared_literals
    years = TypeRef(text="int", name="int")
    assert build(catalog, years, CATALOG, hint="years", checks=checks).text == "18"
    assert build(catalog, years, CATALOG, hint="other", checks=checks).text == "1"  # checks on another name


PAY = "com.acme.pay"
SHIPPED = {
    "src/main/java/com/acme/pay/Amount.java": """package com.acme.pay;
public interface Amount {
    long cents();
}
""",
    "src/main/java/com/acme/pay/Price.java": """package com.acme.pay;
public final class Price implements Amount {
    public static final Price ZERO = of(0);
    public static final Price ONE = of(100);
    private static final Price CACHED = of(7);
    private final long cents;
    Price(long cents) { this.cents = cents; }
    public static Price of(long cents) { return new Price(cents); }
    public long cents() { return cents; }
}
""",
    "src/main/java/com/acme/pay/Tally.java": """package com.acme.pay;
public final class Tally {
    private final int count;
    Tally(int count) { this.count = count; }
    public static Tally of(int count) { return new Tally(count); }
    public Tally plus(Amount amount) { return this; }
}
""",
}


@pytest.fixture(scope="module")
def pay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    yield from index_files(tmp_path_factory, "pay", SHIPPED)


def test_library_values_come_as_its_users_write_them(pay: Indexed) -> None:
    scope = Scope(pay.lookup, ImportSet(PAY), implementations=graph_implementations(pay.graph))

    def built(fqn: str, variant: int = 0) -> tuple[str, str] | None:
        value = value_expression(repo(fqn), scope, variant=variant)
        return None if value is None else (value.text, value.type_text)

    # The class's own public constants, in turn (not the private one), before its package constructor.
    assert built(f"{PAY}.Price") == ("Price.ZERO", "Price")
    assert built(f"{PAY}.Price", 1) == ("Price.ONE", "Price")
    # A class built through its public factory, not the package constructor a test in its package could reach.
    assert built(f"{PAY}.Tally") == ("Tally.of(1)", "Tally")
    # An interface with no factory or constant of its own: its production implementation, declared as the interface
    # (`Tally.plus(Amount)` went untested before, as joda-money's `isGreaterThan(BigMoneyProvider)` did).
    assert built(f"{PAY}.Amount") == ("Price.ZERO", "Amount")
    assert value_expression(repo(f"{PAY}.Amount"), Scope(pay.lookup, ImportSet(PAY))) is None  # none known


FORMATS = "com.acme.formats"
PRODUCED = {
    "src/main/java/com/acme/formats/Durations.java": """package com.acme.formats;
/**
 * <table>
 * <tr><td>H'h'm'm'</td><td>1h1m</td></tr>
 * <tr><td>[d'd']s's'</td><td>1s</td></tr>
 * </table>
 */
public final class Durations {
    static final class Token {
        private final CharSequence value;
        Token(CharSequence value, boolean optional, int index) { this.value = value; }
    }
    static Token[] lexx(String format) { return new Token[0]; }
    static String format(Token[] tokens, long millis) { return ""; }
}
""",
    "src/main/java/com/acme/formats/Plain.java": """package com.acme.formats;
public final class Plain {
    static final class Part {
        Part(String value) { }
    }
    static Part[] split(String text) { return new Part[0]; }
}
""",
}


@pytest.fixture(scope="module")
def formats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    yield from index_files(tmp_path_factory, "formats", PRODUCED)


def test_an_array_of_a_nested_type_is_made_by_its_class_from_a_documented_text(formats: Indexed) -> None:
    scope = Scope(formats.lookup, ImportSet(FORMATS))

    def built(fqn: str, variant: int = 0) -> str | None:
        element = repo(fqn)
        ref = element.model_copy(update={"text": f"{element.text}[]", "array": True})
        value = value_expression(ref, scope, variant=variant)
        return None if value is None else value.text

    # Tokens as the class makes them from the patterns its Javadoc documents, not `new Token("text", true, 1)`.
    assert built(f"{FORMATS}.Durations.Token") == "Durations.lexx(\"[d'd']s's'\")"
    assert built(f"{FORMATS}.Durations.Token", 2) == "Durations.lexx(\"H'h'm'm'\")"
    assert built(f"{FORMATS}.Durations.Token", 1) == "new Durations.Token[0]"  # the empty variant stays empty
    # A class that documents no text: its producer would be fed a made-up one, so the parts are built as before.
    assert built(f"{FORMATS}.Plain.Part") == 'new Plain.Part[] { new Plain.Part("text") }'

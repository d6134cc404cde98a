"""Named fixtures: values built twice in one class get one name; unused ones leave with the tests that used them."""

from __future__ import annotations

from junitbot.analysis import (
    ClassInfo,
    FieldInfo,
    MethodInfo,
    ParameterInfo,
    TypeKind,
    TypeRef,
)
from junitbot.generation.template.fixtures import named_fixtures

_MONEY_REF = TypeRef(text="Money", name="Money", fqn="com.acme.Money", in_repo=True)
# A value class (equals over final fields only) with a static factory, and an entity (a mutable field).
_MONEY = ClassInfo(fqn="com.acme.Money", name="Money", package="com.acme", kind=TypeKind.CLASS, file="Money.java",
                   modifiers=("public", "final"),
                   fields=(FieldInfo(name="cents", type=TypeRef(text="int", name="int"),
                                     modifiers=("private", "final")),),
                   methods=(MethodInfo(name="equals", parameters=(
                       ParameterInfo(name="o", type=TypeRef(text="Object", name="Object")),)),
                            MethodInfo(name="of", modifiers=("public", "static"), return_type=_MONEY_REF)))
_CUSTOMER = ClassInfo(fqn="com.acme.Customer", name="Customer", package="com.acme", kind=TypeKind.CLASS,
                      file="Customer.java",
                      fields=(FieldInfo(name="points", type=TypeRef(text="int", name="int"), modifiers=("private",)),))


def _lookup(name: str) -> ClassInfo | None:
    return {"Money": _MONEY, "Customer": _CUSTOMER}.get(name)


def _test(name: str, line: str) -> str:
    return f"@Test\nvoid {name}() {{\n    {line}\n}}\n"


def test_an_immutable_value_becomes_a_constant_and_an_entity_a_factory_method() -> None:
    methods = [_test("a", "Money price = Money.of(1250, \"EUR\");"),
               _test("b", "when(prices.find(any())).thenReturn(Money.of(1250, \"EUR\"));"),
               _test("c", "when(customers.find(any())).thenReturn(new Customer(\"jane@example.com\"));"),
               _test("d", "Customer customer = new Customer(\"jane@example.com\");"),
               _test("e", "Money other = Money.of(1, \"EUR\");")]
    fixtures = named_fixtures(methods, lookup=_lookup)
    assert fixtures.fields == ('private static final Money PRICE = Money.of(1250, "EUR");',)
    assert fixtures.helpers == (
        'private static Customer customer() {\n    return new Customer("jane@example.com");\n}\n',)
    assert "Money price = PRICE;" in fixtures.methods[0]
    assert "thenReturn(PRICE)" in fixtures.methods[1]
    assert "thenReturn(customer())" in fixtures.methods[2] and "Customer customer = customer();" in fixtures.methods[3]
    assert fixtures.methods[4] == methods[4]  # built once: stays where it is


def test_the_call_under_test_and_values_of_locals_stay_written_out() -> None:
    act = ["@Test\nvoid a() {\n    // Act\n    var result = Money.of(1250, \"EUR\");\n    // Assert\n"
           "    assertTrue(true);\n}\n",
           "@Test\nvoid b() {\n    // Act + Assert\n    assertThrows(X.class, () -> Money.of(1250, \"EUR\"));\n}\n",
           "@Test\nvoid c() {\n    Money m = Money.of(1250, \"EUR\");\n}\n",
           _test("d", "Money price = Money.of(cents, \"EUR\");"), _test("e", "Money price = Money.of(cents, \"EUR\");")]
    fixtures = named_fixtures(act, lookup=_lookup)
    assert fixtures.methods == tuple(act) and not fixtures.fields  # the same value, but never in an act or lambda


def test_a_value_built_from_a_local_stays_written_out_whatever_the_locals_case() -> None:
    # A seed from a human test declares its constants as locals (`ProductId BOOK = ..`): no field can see them.
    methods = [f"@Test\nvoid {n}() {{\n    ProductId BOOK = ProductId.of(\"book\");\n"
               f"    Money price = Money.of(BOOK.cents(), \"EUR\");\n}}\n" for n in ("a", "b")]
    fixtures = named_fixtures(methods, lookup=_lookup)
    assert fixtures.methods == tuple(methods) and not fixtures.fields


def test_a_constant_is_never_named_like_a_local_that_would_shadow_it() -> None:
    methods = [f"@Test\nvoid {n}() {{\n    Money PRICE = Money.of(1250, \"EUR\");\n}}\n" for n in ("a", "b")]
    fixtures = named_fixtures(methods, lookup=_lookup)
    assert fixtures.fields == ('private static final Money PRICE_1250_EUR = Money.of(1250, "EUR");',)
    assert all("Money PRICE = PRICE_1250_EUR;" in m for m in fixtures.methods)


def test_values_of_one_name_are_named_by_what_they_hold_not_numbered() -> None:
    # joda-money's MoneyUtilsGeneratedTest: `MONEY1`, `MONEY13`, `MONEY15`, `MONEY110` said nothing of the amounts
    # and currencies they held.
    methods = [_test(f"{name}{n}", line) for n in range(2) for name, line in (
        ("a", 'Money money = Money.of(1250, "EUR");'), ("b", 'Money money = Money.of(900, "USD");'),
        ("c", 'Money money = Money.of(700, "GBP");'))]
    fixtures = named_fixtures(methods, lookup=_lookup)
    names = sorted(field.split(" = ", 1)[0].rsplit(" ", 1)[1] for field in fixtures.fields)
    # The first value named keeps the plain name; the others say what they hold.
    assert len(names) == 3 and "MONEY" in names and not any(name[-1].isdigit() and "_" not in name for name in names)
    assert {"MONEY_1250_EUR", "MONEY_900_USD", "MONEY_700_GBP"} & set(names) == set(names) - {"MONEY"}, names


def test_a_value_is_named_only_where_it_is_written_whole() -> None:
    # joda-money: `Money.parse("GBP 2.22")` named inside `BigMoney.parse("GBP 2.22")` made `BigMONEY22`, and the
    # class did not compile.
    methods = [_test("a", "Money price = Money.of(1250, \"EUR\");"),
               _test("b", "when(prices.find(any())).thenReturn(Money.of(1250, \"EUR\"));"),
               _test("c", "BigMoney big = BigMoney.of(1250, \"EUR\");")]
    fixtures = named_fixtures(methods, lookup=_lookup)
    assert fixtures.fields == ('private static final Money PRICE = Money.of(1250, "EUR");',)
    assert "thenReturn(PRICE)" in fixtures.methods[1] and fixtures.methods[2] == methods[2]


def test_a_second_factory_of_one_type_is_named_by_the_flag_its_call_sets_not_numbered() -> None:
    # commons-codec's PercentCodecGeneratedTest: `percentCodec()` and `percentCodec2()` for `new PercentCodec(null,
    # true)`, whose second parameter is `plusForSpace`.
    codec = ClassInfo(fqn="a.Codec", name="Codec", package="a", kind=TypeKind.CLASS, file="Codec.java",
                      modifiers=("public",), fields=(FieldInfo(name="n", type=TypeRef(text="int", name="int")),),
                      constructors=(MethodInfo(name="Codec", kind="constructor", parameters=(
                          ParameterInfo(name="encodeChars", type=TypeRef(text="byte[]", name="byte", array=True)),
                          ParameterInfo(name="plusForSpace", type=TypeRef(text="boolean", name="boolean")))),))
    methods = [_test(name, line) for name, line in (
        ("a", 'codec = new Codec("abcdef".getBytes(), false);'),
        ("b", 'codec = new Codec("abcdef".getBytes(), false);'),
        ("c", "codec = new Codec(null, true);"), ("d", "codec = new Codec(null, true);"))]
    fixtures = named_fixtures(methods, lookup={"Codec": codec}.get)
    names = sorted(h.split("(", 1)[0].rsplit(" ", 1)[-1] for h in fixtures.helpers)
    assert names == ["codec", "codecWithPlusForSpace"], fixtures.helpers


def test_other_factories_of_one_type_are_named_by_the_static_factory_or_as_the_default_not_numbered() -> None:
    # commons-text's StringTokenizerGeneratedTest: `stringTokenizer4()` for `StringTokenizer.getCSVInstance()` and
    # `stringTokenizer5()` for `new StringTokenizer()`.
    tokenizer_ref = TypeRef(text="StringTokenizer", name="StringTokenizer", fqn="a.StringTokenizer", in_repo=True)
    tokenizer = ClassInfo(fqn="a.StringTokenizer", name="StringTokenizer", package="a", kind=TypeKind.CLASS,
                          file="StringTokenizer.java", modifiers=("public",),
                          fields=(FieldInfo(name="pos", type=TypeRef(text="int", name="int")),),
                          methods=(MethodInfo(name="getCSVInstance", modifiers=("public", "static"),
                                              return_type=tokenizer_ref),
                                   MethodInfo(name="getClassic", modifiers=("public", "static"),
                                              return_type=tokenizer_ref)))
    methods = [_test(name, line) for name, line in (
        ("a", 'tok = new StringTokenizer("a b c");'), ("b", 'tok = new StringTokenizer("a b c");'),
        ("c", "tok = StringTokenizer.getCSVInstance();"), ("d", "tok = StringTokenizer.getCSVInstance();"),
        ("e", "tok = new StringTokenizer();"), ("f", "tok = new StringTokenizer();"),
        ("g", "tok = StringTokenizer.getClassic();"), ("h", "tok = StringTokenizer.getClassic();"))]
    fixtures = named_fixtures(methods, lookup={"StringTokenizer": tokenizer}.get)
    names = {h.split("(", 1)[0].rsplit(" ", 1)[-1]: h.split("return ", 1)[1].split(";", 1)[0] for h in fixtures.helpers}
    assert names == {"stringTokenizer": 'new StringTokenizer("a b c")',
                     "csvInstance": "StringTokenizer.getCSVInstance()",
                     "defaultStringTokenizer": "new StringTokenizer()",
                     "classic": "StringTokenizer.getClassic()"}, names


def test_a_numbered_local_gives_its_value_the_type_s_name() -> None:
    # joda-money's `Money money1 = Money.of(..)` (a parameter's name) made `MONEY1_EUR_ZERO`.
    methods = [_test(n, 'Money money1 = Money.of(1250, "EUR");') for n in ("a", "b")]
    assert named_fixtures(methods, lookup=_lookup).fields == (
        'private static final Money MONEY = Money.of(1250, "EUR");',)


def test_a_local_of_a_supertype_does_not_name_the_value() -> None:
    # joda-money's `BigMoneyProvider moneyProvider = BigMoney.of(..)` made `BigMoney MONEY_PROVIDER`.
    methods = [_test(n, f'{kind} {local} = Money.of(1250, "EUR");')
               for n, kind, local in (("a", "Amount", "amount"), ("b", "Amount", "amount"), ("c", "Money", "price"))]
    assert named_fixtures(methods, lookup=_lookup).fields == (
        'private static final Money PRICE = Money.of(1250, "EUR");',)


def test_a_constructor_call_that_declares_an_anonymous_class_is_never_named() -> None:
    # commons-text's StringTokenizerTest subclasses the tokenizer in place; naming `new StringTokenizer("a b c")`
    # left `tokenizer() { @Override .. }` behind, a syntax error that cost all 107 methods of the class.
    anonymous = ("Customer customer = new Customer(\"jane@example.com\") "
                 "{ @Override public String toString() { return \"\"; } };")
    plain = "Customer customer = new Customer(\"jane@example.com\");"
    twice = named_fixtures([_test("a", anonymous), _test("b", anonymous)], lookup=_lookup)
    assert twice.methods == (_test("a", anonymous), _test("b", anonymous)) and not twice.helpers
    mixed = named_fixtures([_test("a", plain), _test("b", plain), _test("c", anonymous)], lookup=_lookup)
    assert all("Customer customer = customer();" in m for m in mixed.methods[:2])
    assert mixed.methods[2] == _test("c", anonymous)

"""Test bodies from observations: accidents of mocks are never asserted, what the code did is."""

from __future__ import annotations

from junitbot.analysis import CallSite, ClassInfo, FieldInfo, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.imports import ImportSet
from junitbot.generation.template import ClassContext, ModuleContext, Scope
from junitbot.generation.template.bodies import final_body, in_assertj
from junitbot.generation.template.expected import expected_value
from junitbot.generation.template.observations import Observation, ObservedCall, ObservedValue
from junitbot.generation.template.probe import Scenario

_INT = TypeRef(text="int", name="int")
_MONEY_REF = TypeRef(text="Money", name="Money", fqn="com.acme.Money", in_repo=True)
_MONEY = ClassInfo(
    fqn="com.acme.Money", name="Money", package="com.acme", kind=TypeKind.CLASS, file="Money.java",
    modifiers=("public", "final"), fields=(FieldInfo(name="cents", type=_INT, modifiers=("private", "final")),),
    constructors=(MethodInfo(name="Money", kind="constructor", modifiers=("private",),
                             parameters=(ParameterInfo(name="cents", type=_INT),)),),
    methods=(MethodInfo(name="equals", parameters=(ParameterInfo(name="o", type=TypeRef(text="Object",
                                                                                             name="Object")),)),
             MethodInfo(name="of", modifiers=("public", "static"), return_type=_MONEY_REF,
                        parameters=(ParameterInfo(name="cents", type=_INT),))))
_CUSTOMER = ClassInfo(fqn="com.acme.Customer", name="Customer", package="com.acme", kind=TypeKind.CLASS,
                      file="Customer.java", modifiers=("public",),
                      fields=(FieldInfo(name="points", type=_INT, modifiers=("private",)),),
                      methods=(MethodInfo(name="equals", parameters=(
                          ParameterInfo(name="o", type=TypeRef(text="Object", name="Object")),)),))
_CLASSES = {c.fqn: c for c in (_MONEY, _CUSTOMER)}


def _context() -> ClassContext:
    return ClassContext(ModuleContext(_CLASSES.get), _CUSTOMER, ImportSet("com.acme"), {"customers": None})


def _scenario(*arrange: str, call: str = "shop.points(name)", method: str = "points") -> Scenario:
    return Scenario(id="s", method=method, hint="", arrange=arrange, call=call, subject="shop")


def _money(cents: str) -> ObservedValue:
    return ObservedValue.model_validate({"t": "object", "class": "com.acme.Money",
                                         "components": {"cents": {"t": "Integer", "v": cents}}})


def test_an_npe_is_a_test_only_when_the_scenario_passes_the_null() -> None:
    npe = Observation(scenario="s", outcome="threw", exception="java.lang.NullPointerException",
                      message="name must not be null")
    assert final_body(_scenario('String name = "jane";'), npe, _context()) is None  # a mock's default answer
    body = final_body(_scenario("String name = null;"), npe, _context())
    assert body is not None and body[-2:] == [
        "NullPointerException thrown = assertThrows(NullPointerException.class, () -> shop.points(name));",
        'assertEquals("name must not be null", thrown.getMessage());']
    helpful = npe.model_copy(update={"message": 'Cannot invoke "String.length()" because "name" is null'})
    body = final_body(_scenario("String name = null;"), helpful, _context())
    assert body is not None and body[-1] == "assertThrows(NullPointerException.class, () -> shop.points(name));"
    assert in_assertj(body)[-1] == (
        "assertThatThrownBy(() -> shop.points(name)).isInstanceOf(NullPointerException.class);")


def test_a_jdk_error_is_never_pinned_but_a_repository_exception_named_error_is() -> None:
    for error in ("java.lang.AssertionError", "java.lang.StackOverflowError", "java.lang.OutOfMemoryError"):
        thrown = Observation(scenario="s", outcome="threw", exception=error)
        assert final_body(_scenario("String name = null;"), thrown, _context()) is None, error
    own = Observation(scenario="s", outcome="threw", exception="com.acme.ValidationError", message="bad name")
    body = final_body(_scenario("String name = null;"), own, _context())
    assert body is not None and "assertThrows(ValidationError.class" in body[-2]


def test_a_null_an_unstubbed_call_handed_back_is_not_asserted() -> None:
    passed = Observation(scenario="s", outcome="returned", value=ObservedValue(t="null"), calls=(
        ObservedCall(mock="customers", method="find", arguments=1, returned=ObservedValue(t="null"),
                     default_answer=True),))
    assert final_body(_scenario('String name = "jane";'), passed, _context()) is None


def test_the_object_a_stub_returned_is_asserted_the_same_never_field_by_field() -> None:
    stub = "when(customers.find(any(String.class))).thenReturn(new Customer(\"jane\"));"
    customer = ObservedValue.model_validate({"t": "object", "class": "com.acme.Customer",
                                             "components": {"points": {"t": "Integer", "v": "0"}}})
    observed = Observation(scenario="s", outcome="returned", value=customer, calls=(
        ObservedCall(mock="customers", method="find", arguments=1, stubbed=True, result=True, returned=customer),))
    body = final_body(_scenario('String name = "jane";', stub, call="shop.find(name)", method="find"), observed,
                     _context())
    assert body == ["// Arrange", 'String name = "jane";', 'var expected = new Customer("jane");',
                    "when(customers.find(any(String.class))).thenReturn(expected);", "// Act",
                    "var result = shop.find(name);", "// Assert", "assertSame(expected, result);"]


def test_a_value_class_is_compared_with_an_equal_value_an_entity_by_its_accessors() -> None:
    imports = ImportSet("com.acme")
    assert expected_value(_money("250"), Scope(_CLASSES.get, imports)) == "Money.of(250)"
    entity = ObservedValue.model_validate({"t": "object", "class": "com.acme.Customer",
                                           "components": {"points": {"t": "Integer", "v": "50"}}})
    assert expected_value(entity, Scope(_CLASSES.get, imports)) is None  # equals compares an id
    returned = Observation(scenario="s", outcome="returned", value=_money("250"))
    body = final_body(_scenario("int quantity = 1;", call="shop.price(quantity)", method="price"), returned,
                     _context())
    assert body is not None and body[-1] == "assertEquals(Money.of(250), result);"
    # The factory under test never builds its own expected value.
    body = final_body(_scenario("int cents = 250;", call="Money.of(cents)", method="of"), returned, _context())
    assert body is not None and body[-1] == "assertEquals(250, result.cents());"


def test_a_constructor_with_nothing_to_read_and_a_fluent_setter() -> None:
    built = Observation(scenario="s", outcome="returned", value=ObservedValue(t="object", cls="com.acme.Shop"))
    constructed = Scenario(id="s", method="newShop", hint="", arrange=(), call="new Shop()", constructor=True)
    assert final_body(constructed, built, _context()) is None  # `assertNotNull(new Shop())` says nothing
    itself = built.model_copy(update={"itself": True})
    body = final_body(_scenario(call="shop.named(name)", method="named"), itself, _context())
    assert body is not None and body[-1] == "assertSame(shop, result);"


def _registry() -> ClassInfo:
    """joda-money's CurrencyUnit in small: a static map a `register..` method puts into, its 2-argument overload
    calling the 3-argument one, and a lookup that only reads the map."""
    text = TypeRef(text="String", name="String", fqn="java.lang.String")
    unit = TypeRef(text="Unit", name="Unit", fqn="com.acme.Unit", in_repo=True)
    put = CallSite(method="put", receiver="byCode", receiver_kind="field", arguments=2, line=3)
    get = CallSite(method="get", receiver="byCode", receiver_kind="field", arguments=1, line=9)
    nested = CallSite(method="register", receiver=None, receiver_kind="none", arguments=3, line=6)
    code = ParameterInfo(name="code", type=text)
    return ClassInfo(
        fqn="com.acme.Unit", name="Unit", package="com.acme", kind=TypeKind.CLASS, file="Unit.java",
        modifiers=("public",), fields=(FieldInfo(name="byCode", type=TypeRef(text="Map", name="Map"),
                                                 modifiers=("private", "static", "final")),),
        methods=(MethodInfo(name="register", modifiers=("public", "static"), return_type=unit, calls=(put,),
                            parameters=(code, ParameterInfo(name="places", type=_INT),
                                        ParameterInfo(name="force", type=TypeRef(text="boolean", name="boolean")))),
                 MethodInfo(name="register", modifiers=("public", "static"), return_type=unit, calls=(nested,),
                            parameters=(code, ParameterInfo(name="places", type=_INT))),
                 MethodInfo(name="of", modifiers=("public", "static"), return_type=unit, calls=(get,),
                            parameters=(code,))))


def test_a_registry_change_that_returned_is_never_a_test_its_refusals_are() -> None:
    registry = _registry()
    context = ClassContext(ModuleContext({registry.fqn: registry}.get), registry, ImportSet("com.acme"))
    returned = Observation(scenario="s", outcome="returned", value=ObservedValue(t="String", v="EUR"))
    register = Scenario(id="s", method="register", hint="", arrange=('String code = "EUR";',),
                        call="Unit.register(code, 2)")
    # The euro re-registered would stay so for every later test of the JVM, through either overload.
    assert final_body(register, returned, context) is None
    refused = Observation(scenario="s", outcome="threw", exception="java.lang.IllegalArgumentException",
                          message="Currency already registered: EUR")
    body = final_body(register, refused, context)
    assert body is not None and "assertThrows(IllegalArgumentException.class" in body[-2], body
    # A lookup after a registration in its arrange step leaves the registration behind too; a lookup alone stays.
    after = Scenario(id="s", method="of", hint="", arrange=('Unit.register("XTS", 2, true);',), call='Unit.of("XTS")')
    assert final_body(after, returned, context) is None
    lookup = Scenario(id="s", method="of", hint="", arrange=(), call='Unit.of("EUR")')
    assert final_body(lookup, returned, context) is not None


def test_a_jdk_value_is_compared_with_the_one_its_text_names() -> None:
    # joda-money's `toCurrency()` was only asserted not null.
    imports = ImportSet("com.acme")
    scope = Scope(_CLASSES.get, imports)
    for cls, text, expected in (("java.util.Currency", "EUR", 'Currency.getInstance("EUR")'),
                                ("java.nio.charset.Charset", "UTF-8", 'Charset.forName("UTF-8")'),
                                ("java.net.URI", "https://example.com/a?b=c", 'URI.create("https://example.com/a?b=c")')):
        value = ObservedValue.model_validate({"t": "object", "class": cls, "text": text})
        assert expected_value(value, scope) == expected
    assert {"java.util.Currency", "java.nio.charset.Charset", "java.net.URI"} <= set(imports.imports)

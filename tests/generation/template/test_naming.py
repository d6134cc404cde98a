"""Behaviour names: the method, the condition and what the code was seen to do."""

from __future__ import annotations

from junitbot.generation.template.naming import behaviour_name, family_name, singular, third_person
from junitbot.generation.template.observations import Observation, ObservedCall, ObservedValue
from junitbot.generation.template.probe import Scenario


def _scenario(method: str, hint: str = "", **extra: object) -> Scenario:
    return Scenario.model_validate({"id": "s", "method": method, "hint": hint, "call": f"x.{method}()", **extra})


def test_names_say_the_outcome_never_returns_value() -> None:
    money = ObservedValue.model_validate({"t": "object", "class": "com.acme.Money", "components": {}})
    assert behaviour_name(_scenario("total"), Observation(scenario="s", outcome="returned", value=money),
                          "underscore") == "total_returnsMoney"
    rejected = Observation(scenario="s", outcome="threw", exception="java.lang.IllegalArgumentException")
    assert behaviour_name(_scenario("of", "whenCodeIsBlank"), rejected, "underscore") == "of_rejectsBlankCode"
    # Two arguments set: the first is the one rejected, the other stays the condition.
    assert behaviour_name(_scenario("label", "whenNameIsEmptyAndSizeIs0"), rejected, "camel") == (
        "labelWhenSizeIs0RejectsEmptyName")
    assert behaviour_name(_scenario("of", "whenBrandIsAndroid"), rejected, "camel") == "ofRejectsAndroidBrand"
    # Unless the exception's message names another argument set, and not the first (commons-text's WordUtils:
    # `abbreviate("01234567", 9, ..)` was named `abbreviateWhenLowerIs9Rejects01234567Str`).
    bounds = rejected.model_copy(update={"message": "upper value is less than lower value"})
    hint = "whenStrIs01234567AndLowerIs9"
    assert behaviour_name(_scenario("abbreviate", hint), bounds, "camel") == "abbreviateWhenStrIs01234567Rejects9Lower"
    assert behaviour_name(_scenario("abbreviate", hint + "AndUpperIs3"), bounds, "underscore") == (
        "abbreviate_whenStrIs01234567AndUpperIs3_rejects9Lower")
    # A message that names the first argument, or none set, leaves the blame where it was.
    named = rejected.model_copy(update={"message": "str must not be longer than lower"})
    assert behaviour_name(_scenario("abbreviate", hint), named, "camel") == "abbreviateWhenLowerIs9Rejects01234567Str"
    # An argument the hint did not set, passed as it was (`upper` of -10), is blamed after the whole condition.
    below = rejected.model_copy(update={"message": "upper value cannot be less than -1"})
    passed = _scenario("abbreviate", hint, call="WordUtils.abbreviate(str, lower, upper, appendToEnd)",
                       arrange=('String str = "01 23 45 67 89";', "int lower = 9;", "int upper = -10;",
                                "String appendToEnd = null;"))
    assert behaviour_name(passed, below, "camel") == "abbreviateWhenStrIs01234567AndLowerIs9RejectsMinus10Upper"
    other = rejected.model_copy(update={"message": "no such width"})
    assert behaviour_name(_scenario("label", "whenNameIsEmptyAndSizeIs0"), other, "camel") == (
        "labelWhenSizeIs0RejectsEmptyName")
    # A generated hint of thousands of characters is named at once, not after minutes of regex backtracking.
    long_hint = "whenNameIs" + "AndXIs" * 2000 + "Y"
    assert behaviour_name(_scenario("of", long_hint), rejected, "camel").endswith("ThrowsIllegalArgument")
    declined = Observation(scenario="s", outcome="threw", exception="com.acme.PaymentDeclinedException")
    compensation = _scenario("placeOrder", "whenPaymentDeclined", handles="com.acme.PaymentDeclinedException",
                             handled_by="releasesStock")
    assert behaviour_name(compensation, declined, "underscore") == (
        "placeOrder_whenPaymentDeclined_releasesStockAndRethrows")
    saved = Observation(scenario="s", outcome="void", calls=(ObservedCall(mock="customers", method="save", arguments=1,
                                                                          args=(money,)),))
    assert behaviour_name(_scenario("register"), saved, "camel") == "registerSavesMoney"
    state = Observation(scenario="s", outcome="void",
                        before=ObservedValue.model_validate({"t": "object", "components": {
                            "status": {"t": "enum", "class": "S", "v": "DRAFT"}}}),
                        after=ObservedValue.model_validate({"t": "object", "components": {
                            "status": {"t": "enum", "class": "S", "v": "PLACED"}}}))
    assert behaviour_name(_scenario("place", "afterAddLine"), state, "underscore") == (
        "place_afterAddLine_changesStatusToPlaced")
    itself = Observation(scenario="s", outcome="returned", value=money, itself=True)
    assert behaviour_name(_scenario("amount"), itself, "underscore") == "amount_returnsItself"
    # Text outside ASCII is named as such, not by the ASCII letters it holds (`Élève` once named `returnsLVe`).
    accented = ObservedValue.model_validate({"t": "String", "v": "\u00c9l\u00e8ve"})
    assert behaviour_name(_scenario("capitalize"), Observation(scenario="s", outcome="returned", value=accented),
                          "underscore") == "capitalize_returnsNonAsciiText"


def test_family_names_and_words() -> None:
    parts = [("", "rejects101Percent"), ("", "rejectsMinus1Percent")]
    assert family_name("percentage", parts, ["percent"], "underscore") == "percentage_rejectsInvalidPercent"
    # joda-money: every row rejects the code; the number varied beside it is not blamed.
    parts = [("", "rejectsACurrencyCode"), ("", "rejectsABCDCurrencyCode")]
    assert family_name("registerCurrency", parts, ["currencyCode", "numericCurrencyCode", "decimalPlaces"],
                       "underscore") == "registerCurrency_rejectsInvalidCurrencyCode"
    parts = [("", "rejectsACurrencyCode"), ("", "throwsIllegalState")]
    assert family_name("registerCurrency", parts, ["currencyCode", "numericCurrencyCode"], "underscore") == (
        "registerCurrency_rejectsInvalidCurrencyCodeAndNumericCurrencyCode")
    parts = [("", "returns0"), ("", "returns1")]
    assert family_name("count", parts, ["items"], "camel") == "countReturnsResultForEachItems"
    assert third_person("releaseStock") == "releasesStock" and third_person("publish") == "publishes"
    assert third_person("copy") == "copies" and singular("customers") == "customer"


def test_bytes_that_hold_text_are_named_as_that_text_not_by_their_count() -> None:
    # Base64's `encode("text")` was asserted as `"dGV4dA=="` and named `returns8Elements`.
    def array(*values: int) -> Observation:
        return Observation(scenario="s", outcome="returned", value=ObservedValue.model_validate({
            "t": "Array", "class": "[B", "size": len(values), "items": [{"t": "Byte", "v": str(v)} for v in values]}))

    assert behaviour_name(_scenario("encode"), array(*b"abc"), "camel") == "encodeReturnsAbc"
    text = Observation(scenario="s", outcome="returned", value=ObservedValue(t="String", v="dGV4dA=="))
    assert behaviour_name(_scenario("encode"), array(*b"dGV4dA=="), "camel") == behaviour_name(
        _scenario("encode"), text, "camel")  # as the same text returned as a String is
    assert behaviour_name(_scenario("encode"), array(*b"a b c d e"), "camel") == "encodeReturnsText"
    assert behaviour_name(_scenario("digest"), array(0, 255 - 256, 7), "camel") == "digestReturns3Elements"

"""accepted_value and rejected_values on the checks of real validating constructors, as extract_file reads them."""

from __future__ import annotations

from junitbot.analysis import MethodInfo, extract_file
from junitbot.generation.template.constraints import accepted_value, rejected_values

SOURCE = r"""
package com.acme.catalog;

import java.util.Objects;

public final class Listing {
    public Listing(String sku, int stock, long price, String title, Integer rating, Object owner, double ratio) {
        if (sku == null || !sku.matches("[A-Z]{3}-\\d{4}")) {
            throw new IllegalArgumentException("bad sku: " + sku);
        }
        if (stock < 18 || 100 < stock) throw new IllegalArgumentException("stock out of range");
        if (price <= 0L) throw new IllegalArgumentException("price must be positive");
        if (title.length() > 5 || !title.startsWith("A")) throw new IllegalArgumentException("title");
        if (rating != null && rating > 5) throw new IllegalArgumentException("rating");
        Objects.requireNonNull(owner, "owner");
        if (ratio >= 1.5) {
            throw new IllegalArgumentException("ratio");
        }
    }
}
"""


def _constructor() -> MethodInfo:
    (info,) = extract_file(SOURCE.encode(), "src/main/java/com/acme/catalog/Listing.java").classes
    return info.constructors[0]


def _accepted(name: str, first: str) -> str | None:
    constructor = _constructor()
    param = next(p for p in constructor.parameters if p.name == name)
    return accepted_value(param.type, name, constructor.compared_literals, first=first)


def _rejected(name: str, first: str) -> list[str]:
    constructor = _constructor()
    param = next(p for p in constructor.parameters if p.name == name)
    return rejected_values(param.type, name, constructor.compared_literals, first=first)


def test_a_rejected_default_is_replaced_by_a_value_every_check_accepts() -> None:
    assert _accepted("sku", '"text"') == '"ABC-1234"'  # from the pattern
    assert _accepted("stock", "1") == "18"  # the lower bound
    assert _accepted("price", "0L") == "1L"
    assert _accepted("title", '"text"') == '"Atext"'
    assert _accepted("ratio", "Double.MAX_VALUE") == "0.5"  # a value the builder wrote that is no literal


def test_an_accepted_default_or_an_unchecked_parameter_is_left_alone() -> None:
    assert _accepted("sku", '"XYZ-0001"') is None
    assert _accepted("stock", "50") is None
    assert _accepted("rating", "1") is None  # `&&`: neither side alone decides
    assert _accepted("owner", '"text"') is None  # not a string or number: only null is checked


def test_rejected_values_break_one_check_each() -> None:
    assert _rejected("sku", '"ABC-1234"') == ["null", '"text"']
    assert _rejected("stock", "1") == ["17", "101"]
    assert _rejected("price", "1L") == ["0L"]
    assert _rejected("title", '"Atext"') == ['"AAtext"', '"xxxxx"']  # too long but starting well, and the reverse
    assert _rejected("ratio", "1.0") == ["1.5"]
    assert _rejected("owner", "new Object()") == ["null"]
    assert _rejected("rating", "1") == []


ZONE = r"""
package com.acme.warehouse;

public final class Bin {
    public Bin(char zone) {
        if (zone < 'A' || zone > 'F') {
            throw new IllegalArgumentException("zone must be between A and F: " + zone);
        }
    }
}
"""


def test_char_checks_are_compared_as_codes_and_written_as_chars() -> None:
    (info,) = extract_file(ZONE.encode(), "src/main/java/com/acme/warehouse/Bin.java").classes
    constructor = info.constructors[0]
    zone = constructor.parameters[0]
    assert accepted_value(zone.type, "zone", constructor.compared_literals, first="'a'") == "'A'"
    assert accepted_value(zone.type, "zone", constructor.compared_literals, first="'C'") is None
    assert rejected_values(zone.type, "zone", constructor.compared_literals, first="'A'") == ["'@'", "'G'"]

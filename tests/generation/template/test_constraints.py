"""accepted_value and rejected_values on the checks of real validating constructors, as extract_file reads them."""

from __future__ import annotations

from junitbot.analysis import MethodInfo, extract_file
from junitbot.generation.template.constraints import accepted_value, rejected_values, rejects

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


SKU = r"""
package com.acme.warehouse;

import java.util.Locale;
import java.util.regex.Pattern;

public final class Sku {
    private static final Pattern FORMAT = Pattern.compile("[A-Z]{2,5}-\\d{6}");

    public static Sku of(String code) {
        if (code == null || code.trim().isEmpty()) {
            throw new IllegalArgumentException("SKU must not be blank");
        }
        String normalized = code.trim().toUpperCase(Locale.ROOT);
        if (!FORMAT.matcher(normalized).matches()) {
            throw new IllegalArgumentException("SKU must look like ABC-000123: " + code);
        }
        return new Sku();
    }
}
"""


def _sku_of() -> MethodInfo:
    (info,) = extract_file(SKU.encode(), "src/main/java/com/acme/warehouse/Sku.java").classes
    return next(m for m in info.methods if m.name == "of")


def test_a_pattern_constant_is_checked_on_the_normalized_parameter() -> None:
    of = _sku_of()
    code = of.parameters[0]
    checks = of.compared_literals
    assert accepted_value(code.type, "code", checks, first='"text"') == '"AB-123456"'
    assert accepted_value(code.type, "code", checks, first='" tool-000123 "') is None  # trimmed, upper-cased: it passes
    # Null, blank (empty once trimmed), malformed: one value per check.
    assert rejected_values(code.type, "code", checks, first='"TOOL-000123"') == ["null", '"text"', '""']


def test_rejects_tells_a_mined_literal_the_checks_refuse() -> None:
    of = _sku_of()
    code = of.parameters[0]
    checks = of.compared_literals
    assert [rejects(code.type, "code", checks, literal) for literal in (
        '"TOOL-000123"', '"  tool-000123 "', '"TOOL-123"', '"   "', "null")] == [False, False, True, True, True]
    assert not rejects(code.type, "code", checks, '"TOOL-" + "000123"')  # no literal it reads: it cannot tell
    assert not rejects(code.type, "other", checks, '"x"')  # no check on that parameter

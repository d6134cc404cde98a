"""throws_when through extract_file: which value of a compared literal makes a constructor or method throw."""

from __future__ import annotations

from junitbot.analysis import ComparedLiteral, extract_file

SKU = r"""
package com.acme.catalog;

import java.util.Objects;

public record Sku(String code, int stock, String label) {
    public Sku {
        if (code == null || !code.matches("[A-Z]{3}-\\d{4}")) {
            throw new IllegalArgumentException("bad sku: " + code);
        }
        if (!(stock >= 0)) throw new IllegalArgumentException("negative stock");
        else log(stock);
        Objects.requireNonNull(label, "label");
    }

    private static void log(int stock) {
    }
}
"""

CHECKS = """
package com.acme.catalog;

public class Limits {
    private final int size;

    public Limits(int size, String mode) {
        Preconditions.checkArgument(size < 100, "too big");
        assert size != 3;
        if (0 > size) {
            this.size = 0;
            return;
        }
        if (size > 5 && mode.equals("strict")) {
            throw new IllegalStateException("strict");
        }
        this.size = size;
    }
}
"""


def _compared(source: str, path: str) -> set[tuple[str, str, str, bool | None]]:
    (info,) = extract_file(source.encode(), path).classes
    (constructor,) = [c for c in info.constructors if c.synthetic is None]
    return {_key(c) for c in constructor.compared_literals}


def _key(compared: ComparedLiteral) -> tuple[str, str, str, bool | None]:
    return compared.subject, compared.operator, compared.literal, compared.throws_when


def test_an_if_that_throws_marks_each_alternative_of_its_condition() -> None:
    found = _compared(SKU, "src/main/java/com/acme/catalog/Sku.java")
    assert ("code", "==", "null", True) in found
    assert ("code", "matches", r'"[A-Z]{3}-\\d{4}"', False) in found
    assert ("stock", ">=", "0", False) in found
    assert ("label", "==", "null", True) in found  # requireNonNull is a null comparison that throws


def test_checks_asserts_and_branches() -> None:
    found = _compared(CHECKS, "src/main/java/com/acme/catalog/Limits.java")
    assert ("size", "<", "100", False) in found
    assert ("size", "!=", "3", False) in found
    # `0 > size` reads with the subject on the left; an if that returns decides nothing about throwing.
    assert ("size", "<", "0", None) in found
    # One side of `&&` being true does not make the whole condition true.
    assert ("size", ">", "5", None) in found and ("mode", "equals", '"strict"', None) in found

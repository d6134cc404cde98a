"""Compared literals of Pattern constants, normalized locals and emptiness checks, as extract_file reads them."""

from __future__ import annotations

from junitbot.analysis import ComparedLiteral, extract_file

SOURCE = r"""
package com.acme.warehouse;

import java.util.Locale;
import java.util.regex.Pattern;

public final class Codes {
    private static final Pattern FORMAT = Pattern.compile("[A-Z]{2,5}-\\d{6}");
    private static final Pattern ZONE = Pattern.compile("[a-f]", Pattern.CASE_INSENSITIVE);
    private static final Pattern MULTI = Pattern.compile("^x$", Pattern.MULTILINE);
    private final Pattern notConstant = Pattern.compile("[0-9]+");

    public static String sku(String code) {
        if (code == null || code.trim().isEmpty()) {
            throw new IllegalArgumentException("blank");
        }
        String normalized = code.trim().toUpperCase(Locale.ROOT);
        if (!FORMAT.matcher(normalized).matches()) {
            throw new IllegalArgumentException("bad: " + code);
        }
        return normalized;
    }

    public void zone(String zone, String label, String digits, String other) {
        if (!Codes.ZONE.matcher(zone).matches()) throw new IllegalArgumentException();
        if (label.isBlank()) throw new IllegalStateException();
        if (!Pattern.matches("\\w+", label.strip())) throw new IllegalArgumentException();
        if (!notConstant.matcher(digits).matches()) throw new IllegalArgumentException();
        if (!MULTI.matcher(other).matches()) throw new IllegalArgumentException();
        String cut = other.substring(1);
        if (FORMAT.matcher(cut).matches()) return;
    }

    public static int count(char[] chars, String text, Object any) {
        if (ArrayUtils.isEmpty(chars) || StringUtils.isBlank(text.trim()) || helper.isEmpty(any)) {
            return 0;
        }
        return chars.length;
    }
}
"""


def _checks(method: str) -> list[tuple[str, str, str, bool | None]]:
    (info,) = extract_file(SOURCE.encode(), "src/main/java/com/acme/warehouse/Codes.java").classes
    found: tuple[ComparedLiteral, ...] = next(m for m in info.methods if m.name == method).compared_literals
    return [(c.subject, c.operator, c.literal, c.throws_when) for c in found]


def test_a_pattern_constant_checks_the_parameter_a_local_normalizes() -> None:
    assert _checks("sku") == [
        ("code", "==", "null", True),
        ("code.trim().toUpperCase()", "matches", r'"[A-Z]{2,5}-\\d{6}"', False),
        ("code.trim()", "isEmpty", '""', True),
    ]


def test_flags_qualified_constants_static_matches_and_what_is_no_pattern_constant() -> None:
    checks = _checks("zone")
    assert ("zone", "matches", '"(?i)[a-f]"', False) in checks  # Codes.ZONE, case-insensitive
    assert ("label", "isBlank", '""', True) in checks
    assert ("label.strip()", "matches", r'"\\w+"', False) in checks  # Pattern.matches("re", s)
    assert ("cut", "matches", r'"[A-Z]{2,5}-\\d{6}"', None) in checks  # substring: the local stays the subject
    patterns = [c for c in checks if c[1] == "matches"]
    assert len(patterns) == 3  # not the instance field, not the MULTILINE one (its meaning would change)


def test_a_utility_s_emptiness_test_of_a_parameter_is_its_null_check() -> None:
    # commons-lang's StrTokenizer: `if (ArrayUtils.isEmpty(srcChars)) return emptyList();` is what `tokenize(null, ..)`
    # takes, where without it the method throws; only a type's static test of a bare variable counts.
    assert _checks("count") == [("chars", "==", "null", None)]  # it returns there: no throw

package com.acme.shop.domain;

import java.util.Locale;
import java.util.Objects;

/**
 * Currencies the shop can sell in, with the number of minor-unit digits used for rounding.
 */
public enum Currency {
    EUR("Euro", 2),
    USD("US Dollar", 2),
    GBP("Pound Sterling", 2),
    JPY("Japanese Yen", 0);

    private final String displayName;
    private final int fractionDigits;

    Currency(String displayName, int fractionDigits) {
        this.displayName = displayName;
        this.fractionDigits = fractionDigits;
    }

    public String displayName() {
        return displayName;
    }

    public int fractionDigits() {
        return fractionDigits;
    }

    /**
     * Parses an ISO code such as {@code "eur"} or {@code " USD "}.
     *
     * @throws IllegalArgumentException if the code is not a supported currency
     */
    public static Currency fromCode(String code) {
        Objects.requireNonNull(code, "code must not be null");
        return valueOf(code.trim().toUpperCase(Locale.ROOT));
    }
}

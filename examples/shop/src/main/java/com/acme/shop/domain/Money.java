package com.acme.shop.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * Immutable, non-negative amount of money in a single currency.
 * The amount is always scaled to the currency's number of fraction digits.
 */
public final class Money implements Comparable<Money> {

    private static final BigDecimal ONE_HUNDRED = BigDecimal.valueOf(100);

    private final BigDecimal amount;
    private final Currency currency;

    private Money(BigDecimal amount, Currency currency) {
        Objects.requireNonNull(amount, "amount must not be null");
        Objects.requireNonNull(currency, "currency must not be null");
        if (amount.compareTo(BigDecimal.ZERO) < 0) {
            throw new IllegalArgumentException("Money must not be negative: " + amount);
        }
        this.amount = amount.setScale(currency.fractionDigits(), RoundingMode.HALF_EVEN);
        this.currency = currency;
    }

    public static Money of(BigDecimal amount, Currency currency) {
        return new Money(amount, currency);
    }

    public static Money of(String amount, Currency currency) {
        Objects.requireNonNull(amount, "amount must not be null");
        return new Money(new BigDecimal(amount), currency);
    }

    public static Money zero(Currency currency) {
        return new Money(BigDecimal.ZERO, currency);
    }

    public static Builder builder() {
        return new Builder();
    }

    public BigDecimal amount() {
        return amount;
    }

    public Currency currency() {
        return currency;
    }

    public Money add(Money other) {
        requireSameCurrency(other);
        return new Money(amount.add(other.amount), currency);
    }

    /**
     * @throws IllegalArgumentException if {@code other} is larger than this amount
     */
    public Money subtract(Money other) {
        requireSameCurrency(other);
        BigDecimal difference = amount.subtract(other.amount);
        if (difference.signum() < 0) {
            throw new IllegalArgumentException("Cannot subtract " + other + " from " + this);
        }
        return new Money(difference, currency);
    }

    public Money multiply(int factor) {
        if (factor < 0) {
            throw new IllegalArgumentException("factor must not be negative: " + factor);
        }
        return new Money(amount.multiply(BigDecimal.valueOf(factor)), currency);
    }

    /**
     * Returns {@code percent}% of this amount, e.g. {@code 10} yields a tenth.
     */
    public Money percentage(int percent) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percent must be between 0 and 100: " + percent);
        }
        BigDecimal part = amount.multiply(BigDecimal.valueOf(percent))
                .divide(ONE_HUNDRED, currency.fractionDigits(), RoundingMode.HALF_EVEN);
        return new Money(part, currency);
    }

    public boolean isGreaterThan(Money other) {
        return compareTo(other) > 0;
    }

    public boolean isZero() {
        return amount.signum() == 0;
    }

    @Override
    public int compareTo(Money other) {
        requireSameCurrency(other);
        return amount.compareTo(other.amount);
    }

    private void requireSameCurrency(Money other) {
        Objects.requireNonNull(other, "other must not be null");
        if (other.currency != currency) {
            throw new IllegalArgumentException(
                    "Currency mismatch: " + currency + " vs " + other.currency);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        return o instanceof Money other
                && amount.equals(other.amount)
                && currency == other.currency;
    }

    @Override
    public int hashCode() {
        return Objects.hash(amount, currency);
    }

    @Override
    public String toString() {
        return amount.toPlainString() + " " + currency.name();
    }

    /**
     * Fluent builder, mainly handy in tests: {@code Money.builder().amount("9.99").currency(Currency.USD).build()}.
     */
    public static final class Builder {
        private BigDecimal amount = BigDecimal.ZERO;
        private Currency currency = Currency.EUR;

        private Builder() {
        }

        public Builder amount(BigDecimal amount) {
            this.amount = amount;
            return this;
        }

        public Builder amount(String amount) {
            return amount(new BigDecimal(amount));
        }

        public Builder currency(Currency currency) {
            this.currency = currency;
            return this;
        }

        public Money build() {
            return new Money(amount, currency);
        }
    }
}

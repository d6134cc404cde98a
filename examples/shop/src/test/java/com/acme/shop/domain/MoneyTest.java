package com.acme.shop.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MoneyTest {

    private static Money eur(String amount) {
        return Money.of(amount, Currency.EUR);
    }

    @Test
    void builderDefaultsToZeroEuro() {
        Money money = Money.builder().build();

        assertEquals(Money.zero(Currency.EUR), money);
        assertTrue(money.isZero());
    }

    @Test
    void builderScalesAmountToCurrencyDigits() {
        Money money = Money.builder().amount("9.999").currency(Currency.USD).build();

        assertEquals(new BigDecimal("10.00"), money.amount());
        assertEquals(Currency.USD, money.currency());
    }

    @Test
    void equalAmountsWithDifferentScalesAreEqual() {
        assertEquals(eur("5"), eur("5.00"));
        assertEquals(eur("5").hashCode(), eur("5.00").hashCode());
    }

    @Test
    void addsSubtractsAndMultiplies() {
        assertEquals(eur("15.50"), eur("10.00").add(eur("5.50")));
        assertEquals(eur("4.50"), eur("10.00").subtract(eur("5.50")));
        assertEquals(eur("31.50"), eur("10.50").multiply(3));
    }

    @Test
    void percentageRoundsHalfEven() {
        assertEquals(eur("1.00"), eur("10.00").percentage(10));
        assertEquals(eur("0.12"), eur("1.25").percentage(10));
    }

    @Test
    void rejectsNegativeResults() {
        assertThrows(IllegalArgumentException.class, () -> Money.of(new BigDecimal("-0.01"), Currency.EUR));
        assertThrows(IllegalArgumentException.class, () -> eur("1.00").subtract(eur("2.00")));
        assertThrows(IllegalArgumentException.class, () -> eur("1.00").multiply(-1));
    }

    @Test
    void rejectsMixedCurrencies() {
        Money dollars = Money.of("1.00", Currency.USD);

        assertThrows(IllegalArgumentException.class, () -> eur("1.00").add(dollars));
        assertThrows(IllegalArgumentException.class, () -> eur("1.00").isGreaterThan(dollars));
    }

    @Test
    void comparesAmounts() {
        assertTrue(eur("2.00").isGreaterThan(eur("1.99")));
        assertFalse(eur("2.00").isGreaterThan(eur("2.00")));
    }

    @Test
    void yenHasNoMinorUnitsAndRoundsHalfEven() {
        assertEquals("1234 JPY", Money.of("1234.5", Currency.JPY).toString());
        assertEquals("1236 JPY", Money.of("1235.5", Currency.JPY).toString());
    }
}

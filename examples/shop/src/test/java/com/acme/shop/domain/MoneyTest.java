package com.acme.shop.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MoneyTest {

    private static Money eur(String amount) {
        return Money.of(amount, Currency.EUR);
    }

    @Test
    void builderDefaultsToZeroEuro() {
        Money money = Money.builder().build();

        assertThat(money).isEqualTo(Money.zero(Currency.EUR));
        assertThat(money.isZero()).isTrue();
    }

    @Test
    void builderScalesAmountToCurrencyDigits() {
        Money money = Money.builder().amount("9.999").currency(Currency.USD).build();

        assertThat(money.amount()).isEqualTo(new BigDecimal("10.00"));
        assertThat(money.currency()).isEqualTo(Currency.USD);
    }

    @Test
    void equalAmountsWithDifferentScalesAreEqual() {
        assertThat(eur("5")).isEqualTo(eur("5.00"))
                .hasSameHashCodeAs(eur("5.00"));
    }

    @Test
    void addsSubtractsAndMultiplies() {
        assertThat(eur("10.00").add(eur("5.50"))).isEqualTo(eur("15.50"));
        assertThat(eur("10.00").subtract(eur("5.50"))).isEqualTo(eur("4.50"));
        assertThat(eur("10.50").multiply(3)).isEqualTo(eur("31.50"));
    }

    @Test
    void percentageRoundsHalfEven() {
        assertThat(eur("10.00").percentage(10)).isEqualTo(eur("1.00"));
        assertThat(eur("1.25").percentage(10)).isEqualTo(eur("0.12"));
    }

    @Test
    void rejectsNegativeResults() {
        assertThatIllegalArgumentException().isThrownBy(() -> Money.of(new BigDecimal("-0.01"), Currency.EUR));
        assertThatIllegalArgumentException().isThrownBy(() -> eur("1.00").subtract(eur("2.00")));
        assertThatIllegalArgumentException().isThrownBy(() -> eur("1.00").multiply(-1));
    }

    @Test
    void rejectsMixedCurrencies() {
        Money dollars = Money.of("1.00", Currency.USD);

        assertThatIllegalArgumentException().isThrownBy(() -> eur("1.00").add(dollars))
                .withMessageContaining("Currency mismatch");
        assertThatIllegalArgumentException().isThrownBy(() -> eur("1.00").isGreaterThan(dollars));
    }

    @Test
    void comparesAmounts() {
        assertThat(eur("2.00").isGreaterThan(eur("1.99"))).isTrue();
        assertThat(eur("2.00").isGreaterThan(eur("2.00"))).isFalse();
    }

    @Test
    void yenHasNoMinorUnitsAndRoundsHalfEven() {
        assertThat(Money.of("1234.5", Currency.JPY)).hasToString("1234 JPY");
        assertThat(Money.of("1235.5", Currency.JPY)).hasToString("1236 JPY");
    }
}

package com.acme.shop.domain;

import java.util.Arrays;
import java.util.Objects;

/**
 * A promotion that grants a discount on an order subtotal.
 */
@FunctionalInterface
public interface DiscountPolicy {

    /**
     * @return the amount to take off {@code subtotal}; never more than {@code subtotal}
     */
    Money discountFor(Customer customer, Money subtotal);

    /**
     * Applies this policy first and {@code next} to what is left of the subtotal.
     */
    default DiscountPolicy andThen(DiscountPolicy next) {
        Objects.requireNonNull(next, "next must not be null");
        return (customer, subtotal) -> {
            Money first = discountFor(customer, subtotal);
            return first.add(next.discountFor(customer, subtotal.subtract(first)));
        };
    }

    static DiscountPolicy none() {
        return (customer, subtotal) -> Money.zero(subtotal.currency());
    }

    static DiscountPolicy percentOff(int percent) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percent must be between 0 and 100: " + percent);
        }
        return (customer, subtotal) -> subtotal.percentage(percent);
    }

    static DiscountPolicy allOf(DiscountPolicy... policies) {
        return Arrays.stream(policies).reduce(none(), DiscountPolicy::andThen);
    }
}

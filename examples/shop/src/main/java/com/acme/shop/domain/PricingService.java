package com.acme.shop.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Works out what a customer pays for an order: loyalty-tier discount, then the current
 * promotion, then a volume discount for large orders.
 */
@DomainService("pricing")
public class PricingService {

    private final DiscountPolicy promotion;

    public PricingService() {
        this(DiscountPolicy.none());
    }

    public PricingService(DiscountPolicy promotion) {
        this.promotion = Objects.requireNonNull(promotion, "promotion must not be null");
    }

    public Money priceFor(Customer customer, Order order) {
        Objects.requireNonNull(order, "order must not be null");
        return priceFor(customer, order.total());
    }

    public Money priceFor(Customer customer, Money subtotal) {
        Objects.requireNonNull(customer, "customer must not be null");
        Objects.requireNonNull(subtotal, "subtotal must not be null");

        Money afterTier = subtotal.subtract(tierDiscount(customer, subtotal));

        Money promotionDiscount = promotion.discountFor(customer, afterTier);
        if (promotionDiscount.isGreaterThan(afterTier)) {
            promotionDiscount = afterTier;
        }
        Money afterPromotion = afterTier.subtract(promotionDiscount);

        return afterPromotion.subtract(volumeDiscount(afterPromotion));
    }

    public Money tierDiscount(Customer customer, Money subtotal) {
        return subtotal.percentage(customer.tier().discountPercent());
    }

    /**
     * 2% off above 100 and 5% off above 1000 (in the order's currency units).
     */
    public Money volumeDiscount(Money total) {
        BigDecimal amount = total.amount();
        if (amount.compareTo(new BigDecimal("1000")) > 0) {
            return total.percentage(5);
        }
        if (amount.compareTo(new BigDecimal("100")) > 0) {
            return total.percentage(2);
        }
        return Money.zero(total.currency());
    }
}

package com.acme.shop.domain;

import java.util.Objects;

/**
 * One line of an {@link Order}: a quantity of a product at a fixed unit price.
 */
public record OrderLine(ProductId productId, int quantity, Money unitPrice) {

    public OrderLine {
        Objects.requireNonNull(productId, "productId must not be null");
        Objects.requireNonNull(unitPrice, "unitPrice must not be null");
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
    }

    public Money total() {
        return unitPrice.multiply(quantity);
    }

    public OrderLine withQuantity(int newQuantity) {
        return new OrderLine(productId, newQuantity, unitPrice);
    }
}

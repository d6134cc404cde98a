package com.acme.shop.application;

import com.acme.shop.domain.Currency;
import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.ProductId;

import java.util.List;
import java.util.Objects;

/**
 * Request to place an order for a customer.
 */
public record PlaceOrderCommand(CustomerId customerId, Currency currency, List<Item> items) {

    public PlaceOrderCommand {
        Objects.requireNonNull(customerId, "customerId must not be null");
        Objects.requireNonNull(currency, "currency must not be null");
        Objects.requireNonNull(items, "items must not be null");
        if (items.isEmpty()) {
            throw new IllegalArgumentException("An order needs at least one item");
        }
        items = List.copyOf(items);
    }

    public static PlaceOrderCommand of(CustomerId customerId, Currency currency, Item... items) {
        return new PlaceOrderCommand(customerId, currency, List.of(items));
    }

    public record Item(ProductId productId, int quantity) {

        public Item {
            Objects.requireNonNull(productId, "productId must not be null");
            if (quantity <= 0) {
                throw new IllegalArgumentException("quantity must be positive: " + quantity);
            }
        }
    }
}

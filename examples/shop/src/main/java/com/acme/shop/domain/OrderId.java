package com.acme.shop.domain;

import java.util.Objects;
import java.util.UUID;

/**
 * Identity of an {@link Order}.
 */
public record OrderId(String value) {

    public OrderId {
        Objects.requireNonNull(value, "OrderId value must not be null");
        if (value.isBlank()) {
            throw new IllegalArgumentException("OrderId value must not be blank");
        }
    }

    public static OrderId newId() {
        return new OrderId(UUID.randomUUID().toString());
    }

    public static OrderId of(String value) {
        return new OrderId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}

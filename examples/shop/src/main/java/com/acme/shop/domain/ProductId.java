package com.acme.shop.domain;

import java.util.Objects;
import java.util.UUID;

/**
 * Identity of a {@link Product}.
 */
public record ProductId(String value) {

    public ProductId {
        Objects.requireNonNull(value, "ProductId value must not be null");
        if (value.isBlank()) {
            throw new IllegalArgumentException("ProductId value must not be blank");
        }
    }

    public static ProductId newId() {
        return new ProductId(UUID.randomUUID().toString());
    }

    public static ProductId of(String value) {
        return new ProductId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}

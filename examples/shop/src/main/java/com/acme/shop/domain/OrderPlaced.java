package com.acme.shop.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * Published once an order has been placed and paid.
 */
public record OrderPlaced(OrderId orderId, CustomerId customerId, Money amountPaid, Instant occurredAt)
        implements DomainEvent {

    public OrderPlaced {
        Objects.requireNonNull(orderId, "orderId must not be null");
        Objects.requireNonNull(customerId, "customerId must not be null");
        Objects.requireNonNull(amountPaid, "amountPaid must not be null");
        Objects.requireNonNull(occurredAt, "occurredAt must not be null");
    }
}

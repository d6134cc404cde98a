package com.acme.shop.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * Published when an order is cancelled, by the customer or because payment failed.
 */
public record OrderCancelled(OrderId orderId, String reason, Instant occurredAt) implements DomainEvent {

    public OrderCancelled {
        Objects.requireNonNull(orderId, "orderId must not be null");
        Objects.requireNonNull(occurredAt, "occurredAt must not be null");
        if (reason == null || reason.isBlank()) {
            reason = "no reason given";
        }
    }
}

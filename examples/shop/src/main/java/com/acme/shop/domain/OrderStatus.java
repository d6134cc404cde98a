package com.acme.shop.domain;

/**
 * Life cycle of an {@link Order}.
 */
public enum OrderStatus {
    DRAFT,
    PLACED,
    PAID,
    SHIPPED,
    CANCELLED;

    public boolean canTransitionTo(OrderStatus target) {
        return switch (this) {
            case DRAFT -> target == PLACED || target == CANCELLED;
            case PLACED -> target == PAID || target == CANCELLED;
            case PAID -> target == SHIPPED || target == CANCELLED;
            case SHIPPED, CANCELLED -> false;
        };
    }

    /**
     * Whether stock has been reserved for an order in this status.
     */
    public boolean holdsStock() {
        return this == PLACED || this == PAID || this == SHIPPED;
    }

    public boolean isFinal() {
        return this == SHIPPED || this == CANCELLED;
    }
}

package com.acme.shop.domain;

/**
 * Thrown when an operation is not allowed in the order's current {@link OrderStatus}.
 */
public class InvalidOrderStateException extends DomainException {

    private static final long serialVersionUID = 1L;

    public InvalidOrderStateException(String message) {
        super(message);
    }

    public InvalidOrderStateException(OrderId orderId, OrderStatus current, OrderStatus target) {
        this("Order " + orderId + " cannot move from " + current + " to " + target);
    }

    @Override
    public String errorCode() {
        return "INVALID_ORDER_STATE";
    }
}

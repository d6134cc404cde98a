package com.acme.shop.domain;

/**
 * Thrown by a payment gateway when a charge is refused.
 */
public class PaymentDeclinedException extends DomainException {

    private static final long serialVersionUID = 1L;

    private final CustomerId customerId;
    private final Money amount;
    private final String reason;

    public PaymentDeclinedException(CustomerId customerId, Money amount, String reason) {
        super("Payment of " + amount + " for customer " + customerId + " declined: " + reason);
        this.customerId = customerId;
        this.amount = amount;
        this.reason = reason;
    }

    public CustomerId customerId() {
        return customerId;
    }

    public Money amount() {
        return amount;
    }

    public String reason() {
        return reason;
    }

    @Override
    public String errorCode() {
        return "PAYMENT_DECLINED";
    }
}

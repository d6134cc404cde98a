package com.acme.shop.domain.port;

import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.Money;

import java.time.Instant;
import java.util.Objects;

/**
 * Proof of a successful charge.
 */
public record PaymentReceipt(String reference, CustomerId customerId, Money amount, Instant processedAt) {

    public PaymentReceipt {
        Objects.requireNonNull(reference, "reference must not be null");
        Objects.requireNonNull(customerId, "customerId must not be null");
        Objects.requireNonNull(amount, "amount must not be null");
        Objects.requireNonNull(processedAt, "processedAt must not be null");
    }
}

package com.acme.shop.infrastructure;

import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.Money;
import com.acme.shop.domain.PaymentDeclinedException;
import com.acme.shop.domain.port.PaymentGateway;
import com.acme.shop.domain.port.PaymentReceipt;
import com.acme.shop.domain.port.TimeSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Payment gateway for development and tests: accepts every charge up to a limit and declines the rest.
 */
public class FakePaymentGateway implements PaymentGateway {

    public static final BigDecimal DEFAULT_LIMIT = new BigDecimal("5000");

    private final TimeSource time;
    private final BigDecimal limit;
    private final AtomicLong sequence = new AtomicLong();
    private final Map<String, PaymentReceipt> receipts = new ConcurrentHashMap<>();

    public FakePaymentGateway(TimeSource time) {
        this(time, DEFAULT_LIMIT);
    }

    public FakePaymentGateway(TimeSource time, BigDecimal limit) {
        this.time = Objects.requireNonNull(time, "time must not be null");
        this.limit = Objects.requireNonNull(limit, "limit must not be null");
        if (limit.signum() < 0) {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
    }

    @Override
    public PaymentReceipt charge(CustomerId customerId, Money amount) {
        Objects.requireNonNull(customerId, "customerId must not be null");
        Objects.requireNonNull(amount, "amount must not be null");
        if (amount.amount().compareTo(limit) > 0) {
            throw new PaymentDeclinedException(customerId, amount, "amount exceeds the limit of " + limit);
        }
        String reference = String.format("PAY-%06d", sequence.incrementAndGet());
        PaymentReceipt receipt = new PaymentReceipt(reference, customerId, amount, time.now());
        receipts.put(reference, receipt);
        return receipt;
    }

    @Override
    public void refund(String paymentReference) {
        if (receipts.remove(paymentReference) == null) {
            throw new IllegalArgumentException("Unknown payment reference: " + paymentReference);
        }
    }

    /**
     * Charges that have not been refunded, in no particular order.
     */
    public List<PaymentReceipt> openCharges() {
        return List.copyOf(receipts.values());
    }
}

package com.acme.shop.domain.port;

import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.Money;
import com.acme.shop.domain.PaymentDeclinedException;

/**
 * Port to the external payment provider.
 */
public interface PaymentGateway {

    /**
     * @throws PaymentDeclinedException if the provider refuses the charge
     */
    PaymentReceipt charge(CustomerId customerId, Money amount);

    /**
     * Refunds a previous charge in full.
     *
     * @throws IllegalArgumentException if the reference is unknown
     */
    void refund(String paymentReference);
}

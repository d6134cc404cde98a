package com.acme.shop.application;

import com.acme.shop.domain.Customer;
import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.InvalidEmailException;
import com.acme.shop.domain.port.CustomerRepository;

import java.util.Objects;

/**
 * Registers new customers and keeps e-mail addresses unique.
 */
public class CustomerRegistrationService {

    /** Welcome bonus granted to every new customer. */
    public static final int SIGN_UP_BONUS_POINTS = 50;

    private final CustomerRepository customers;

    public CustomerRegistrationService(CustomerRepository customers) {
        this.customers = Objects.requireNonNull(customers, "customers must not be null");
    }

    /**
     * @throws InvalidEmailException if the e-mail address is malformed
     * @throws IllegalStateException if the e-mail address is already registered
     */
    public CustomerId register(String name, String email) {
        if (!Customer.isValidEmail(email)) {
            throw new InvalidEmailException(email);
        }
        requireUnused(email);
        Customer customer = new Customer(CustomerId.newId(), name, email);
        customer.addLoyaltyPoints(SIGN_UP_BONUS_POINTS);
        customers.save(customer);
        return customer.id();
    }

    public Customer changeEmail(CustomerId customerId, String newEmail) {
        if (!Customer.isValidEmail(newEmail)) {
            throw new InvalidEmailException(newEmail);
        }
        Customer customer = customers.getById(customerId);
        if (!Customer.normalizeEmail(newEmail).equals(customer.email())) {
            requireUnused(newEmail);
        }
        customer.changeEmail(newEmail);
        return customers.save(customer);
    }

    private void requireUnused(String email) {
        customers.findByEmail(email).ifPresent(existing -> {
            throw new IllegalStateException("E-mail address already registered: " + existing.email());
        });
    }
}

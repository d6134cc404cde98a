package com.acme.shop.infrastructure;

import com.acme.shop.domain.Customer;
import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.port.CustomerRepository;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Simple, synchronised {@link HashMap}-backed customer store.
 */
public class InMemoryCustomerRepository implements CustomerRepository {

    private final Map<CustomerId, Customer> customers = new HashMap<>();

    @Override
    public synchronized Optional<Customer> findById(CustomerId id) {
        return Optional.ofNullable(customers.get(id));
    }

    @Override
    public synchronized List<Customer> findAll() {
        return new ArrayList<>(customers.values());
    }

    @Override
    public synchronized Customer save(Customer customer) {
        Objects.requireNonNull(customer, "customer must not be null");
        customers.put(customer.id(), customer);
        return customer;
    }

    @Override
    public synchronized Optional<Customer> findByEmail(String email) {
        String wanted = Customer.normalizeEmail(email);
        return customers.values().stream()
                .filter(customer -> customer.email().equals(wanted))
                .findFirst();
    }
}

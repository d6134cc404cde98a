package com.acme.shop.domain.port;

import com.acme.shop.domain.Customer;
import com.acme.shop.domain.CustomerId;

import java.util.Optional;

public interface CustomerRepository extends Repository<Customer, CustomerId> {

    /**
     * Looks a customer up by e-mail address, ignoring case and surrounding blanks.
     */
    Optional<Customer> findByEmail(String email);
}

package com.acme.shop.domain;

/**
 * Thrown when a customer's e-mail address is missing or malformed.
 */
public class InvalidEmailException extends DomainException {

    private static final long serialVersionUID = 1L;

    private final String email;

    public InvalidEmailException(String email) {
        super("Invalid e-mail address: '" + email + "'");
        this.email = email;
    }

    public String email() {
        return email;
    }

    @Override
    public String errorCode() {
        return "INVALID_EMAIL";
    }
}

package com.acme.shop.domain;

/**
 * Base class for violations of business rules.
 */
public abstract class DomainException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    protected DomainException(String message) {
        super(message);
    }

    /**
     * Stable, machine-readable code, e.g. for API error responses.
     */
    public abstract String errorCode();
}

package com.acme.shop.domain;

import java.time.Instant;

/**
 * Something that happened in the domain that other parts of the system may react to.
 */
public interface DomainEvent {

    Instant occurredAt();

    default String eventType() {
        return getClass().getSimpleName();
    }
}

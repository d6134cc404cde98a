package com.acme.shop.domain.port;

import com.acme.shop.domain.DomainEvent;

import java.util.List;

public interface EventPublisher {

    void publish(DomainEvent event);

    default void publishAll(List<? extends DomainEvent> events) {
        events.forEach(this::publish);
    }
}

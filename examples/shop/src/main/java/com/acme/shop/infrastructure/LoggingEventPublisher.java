package com.acme.shop.infrastructure;

import com.acme.shop.domain.DomainEvent;
import com.acme.shop.domain.OrderCancelled;
import com.acme.shop.domain.OrderPlaced;
import com.acme.shop.domain.port.EventPublisher;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * Keeps every published event in memory and logs it; stands in for a message broker.
 */
public class LoggingEventPublisher implements EventPublisher {

    private static final Logger LOG = Logger.getLogger(LoggingEventPublisher.class.getName());

    private final List<LoggedEvent> log = new ArrayList<>();
    private long nextSequence = 1;

    @Override
    public synchronized void publish(DomainEvent event) {
        Objects.requireNonNull(event, "event must not be null");
        LoggedEvent entry = new LoggedEvent(event);
        log.add(entry);
        LOG.fine(entry::describe);
    }

    public synchronized List<DomainEvent> publishedEvents() {
        return log.stream().map(LoggedEvent::event).toList();
    }

    public synchronized <E extends DomainEvent> List<E> eventsOfType(Class<E> type) {
        return log.stream()
                .map(LoggedEvent::event)
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }

    public synchronized List<LoggedEvent> entries() {
        return List.copyOf(log);
    }

    public synchronized void clear() {
        log.clear();
    }

    /**
     * A published event together with its sequence number, which it draws from the enclosing publisher.
     */
    public final class LoggedEvent {

        private final long sequence;
        private final DomainEvent event;

        private LoggedEvent(DomainEvent event) {
            this.sequence = nextSequence++;
            this.event = event;
        }

        public long sequence() {
            return sequence;
        }

        public DomainEvent event() {
            return event;
        }

        public String describe() {
            String details;
            if (event instanceof OrderPlaced placed) {
                details = "order " + placed.orderId() + " placed, paid " + placed.amountPaid();
            } else if (event instanceof OrderCancelled cancelled) {
                details = "order " + cancelled.orderId() + " cancelled: " + cancelled.reason();
            } else {
                details = event.toString();
            }
            return "#" + sequence + " " + event.eventType() + " at " + event.occurredAt() + " - " + details;
        }

        @Override
        public String toString() {
            return describe();
        }
    }
}

package com.acme.shop.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ListIterator;
import java.util.Objects;
import java.util.Optional;

/**
 * Order aggregate root. Lines can only be changed while the order is a draft; afterwards the
 * order moves through the {@link OrderStatus} state machine.
 */
public class Order {

    private final OrderId id;
    private final CustomerId customerId;
    private final Currency currency;
    private final List<OrderLine> lines = new ArrayList<>();
    private OrderStatus status = OrderStatus.DRAFT;
    private String paymentReference;

    public Order(OrderId id, CustomerId customerId, Currency currency) {
        this.id = Objects.requireNonNull(id, "id must not be null");
        this.customerId = Objects.requireNonNull(customerId, "customerId must not be null");
        this.currency = Objects.requireNonNull(currency, "currency must not be null");
    }

    public static Order draft(CustomerId customerId, Currency currency) {
        return new Order(OrderId.newId(), customerId, currency);
    }

    public OrderId id() {
        return id;
    }

    public CustomerId customerId() {
        return customerId;
    }

    public Currency currency() {
        return currency;
    }

    public OrderStatus status() {
        return status;
    }

    public List<OrderLine> lines() {
        return Collections.unmodifiableList(lines);
    }

    public Optional<String> paymentReference() {
        return Optional.ofNullable(paymentReference);
    }

    /**
     * Adds a line; a line for a product that is already on the order increases its quantity.
     */
    public void addLine(OrderLine line) {
        Objects.requireNonNull(line, "line must not be null");
        requireDraft("add a line to");
        if (line.unitPrice().currency() != currency) {
            throw new IllegalArgumentException(
                    "Line is priced in " + line.unitPrice().currency() + " but the order uses " + currency);
        }
        for (ListIterator<OrderLine> it = lines.listIterator(); it.hasNext(); ) {
            OrderLine existing = it.next();
            if (existing.productId().equals(line.productId())) {
                it.set(existing.withQuantity(existing.quantity() + line.quantity()));
                return;
            }
        }
        lines.add(line);
    }

    public void addLines(OrderLine... newLines) {
        for (OrderLine line : newLines) {
            addLine(line);
        }
    }

    /**
     * @return {@code true} if a line for the product was removed
     */
    public boolean removeLine(ProductId productId) {
        Objects.requireNonNull(productId, "productId must not be null");
        requireDraft("remove a line from");
        return lines.removeIf(line -> line.productId().equals(productId));
    }

    public Money total() {
        return lines.stream()
                .map(OrderLine::total)
                .reduce(Money.zero(currency), Money::add);
    }

    public int itemCount() {
        return lines.stream().mapToInt(OrderLine::quantity).sum();
    }

    public void place() {
        if (status == OrderStatus.DRAFT && lines.isEmpty()) {
            throw new InvalidOrderStateException("Order " + id + " has no lines and cannot be placed");
        }
        transitionTo(OrderStatus.PLACED);
    }

    public void markPaid(String paymentReference) {
        if (paymentReference == null || paymentReference.isBlank()) {
            throw new IllegalArgumentException("paymentReference must not be blank");
        }
        transitionTo(OrderStatus.PAID);
        this.paymentReference = paymentReference;
    }

    public void ship() {
        transitionTo(OrderStatus.SHIPPED);
    }

    public void cancel() {
        transitionTo(OrderStatus.CANCELLED);
    }

    public boolean isCancellable() {
        return status.canTransitionTo(OrderStatus.CANCELLED);
    }

    private void transitionTo(OrderStatus target) {
        if (!status.canTransitionTo(target)) {
            throw new InvalidOrderStateException(id, status, target);
        }
        status = target;
    }

    private void requireDraft(String action) {
        if (status != OrderStatus.DRAFT) {
            throw new InvalidOrderStateException(
                    "Cannot " + action + " order " + id + " in status " + status);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Order other && id.equals(other.id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "Order[id=" + id + ", customer=" + customerId + ", status=" + status
                + ", lines=" + lines.size() + "]";
    }
}

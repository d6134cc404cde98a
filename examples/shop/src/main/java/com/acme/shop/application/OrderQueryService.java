package com.acme.shop.application;

import com.acme.shop.domain.*;
import com.acme.shop.domain.port.OrderRepository;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Read-only queries over orders.
 */
public class OrderQueryService {

    private final OrderRepository orders;

    public OrderQueryService(OrderRepository orders) {
        this.orders = Objects.requireNonNull(orders, "orders must not be null");
    }

    public Optional<OrderSummary> findSummary(OrderId orderId) {
        return orders.findById(orderId).map(OrderSummary::from);
    }

    public List<OrderSummary> summariesFor(CustomerId customerId) {
        return orders.findByCustomer(customerId).stream()
                .map(OrderSummary::from)
                .toList();
    }

    public Map<OrderStatus, Long> countByStatus() {
        return orders.findAll().stream()
                .collect(Collectors.groupingBy(Order::status,
                        () -> new EnumMap<>(OrderStatus.class),
                        Collectors.counting()));
    }

    /**
     * Largest total among the customer's orders in the given currency.
     */
    public Optional<Money> largestOrderTotal(CustomerId customerId, Currency currency) {
        List<Money> totals = orders.findByCustomer(customerId).stream()
                .filter(order -> order.currency() == currency)
                .map(Order::total)
                .toList();
        return max(totals);
    }

    public double averageItemsPerOrder() {
        List<Order> all = orders.findAll();
        if (all.isEmpty()) {
            return 0.0;
        }
        int items = all.stream().mapToInt(Order::itemCount).sum();
        return (double) items / all.size();
    }

    static <T extends Comparable<T>> Optional<T> max(Collection<? extends T> values) {
        T best = null;
        for (T value : values) {
            if (best == null || value.compareTo(best) > 0) {
                best = value;
            }
        }
        return Optional.ofNullable(best);
    }
}

package com.acme.shop.infrastructure;

import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.Order;
import com.acme.shop.domain.OrderId;
import com.acme.shop.domain.port.OrderRepository;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

public class InMemoryOrderRepository implements OrderRepository {

    private final Map<OrderId, Order> orders = new ConcurrentHashMap<>();

    @Override
    public Optional<Order> findById(OrderId id) {
        Objects.requireNonNull(id, "id must not be null");
        return Optional.ofNullable(orders.get(id));
    }

    @Override
    public List<Order> findAll() {
        return List.copyOf(orders.values());
    }

    @Override
    public Order save(Order order) {
        Objects.requireNonNull(order, Order.class.getSimpleName() + " must not be null");
        orders.put(order.id(), order);
        return order;
    }

    @Override
    public List<Order> findByCustomer(CustomerId customerId) {
        return orders.values().stream()
                .filter(order -> order.customerId().equals(customerId))
                .toList();
    }

    public int size() {
        return orders.size();
    }
}

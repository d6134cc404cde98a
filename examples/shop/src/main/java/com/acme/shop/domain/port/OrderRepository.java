package com.acme.shop.domain.port;

import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.Order;
import com.acme.shop.domain.OrderId;
import com.acme.shop.domain.OrderStatus;

import java.util.List;

public interface OrderRepository extends Repository<Order, OrderId> {

    List<Order> findByCustomer(CustomerId customerId);

    default List<Order> findByStatus(OrderStatus status) {
        return findAll().stream()
                .filter(order -> order.status() == status)
                .toList();
    }
}

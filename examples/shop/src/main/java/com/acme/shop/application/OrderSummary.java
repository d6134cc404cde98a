package com.acme.shop.application;

import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.Money;
import com.acme.shop.domain.Order;
import com.acme.shop.domain.OrderId;
import com.acme.shop.domain.OrderStatus;

/**
 * Read model of an order for display.
 */
public record OrderSummary(OrderId orderId, CustomerId customerId, OrderStatus status, int itemCount, Money total) {

    public static OrderSummary from(Order order) {
        return new OrderSummary(order.id(), order.customerId(), order.status(), order.itemCount(), order.total());
    }
}

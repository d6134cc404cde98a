package com.acme.shop.application;

import com.acme.shop.domain.InvalidOrderStateException;
import com.acme.shop.domain.Order;
import com.acme.shop.domain.OrderCancelled;
import com.acme.shop.domain.OrderId;
import com.acme.shop.domain.OrderLine;
import com.acme.shop.domain.OrderStatus;
import com.acme.shop.domain.Product;
import com.acme.shop.domain.Result;
import com.acme.shop.domain.port.EventPublisher;
import com.acme.shop.domain.port.OrderRepository;
import com.acme.shop.domain.port.PaymentGateway;
import com.acme.shop.domain.port.ProductRepository;
import com.acme.shop.domain.port.TimeSource;

import java.util.Objects;
import java.util.Optional;

/**
 * Cancels an order on the customer's request, refunding and restocking as needed.
 * Expected failures (unknown order, order already shipped) come back as {@link Result.Err}.
 */
public class CancelOrderUseCase {

    private final OrderRepository orders;
    private final ProductRepository products;
    private final PaymentGateway payments;
    private final EventPublisher events;
    private final TimeSource time;

    public CancelOrderUseCase(OrderRepository orders,
                              ProductRepository products,
                              PaymentGateway payments,
                              EventPublisher events,
                              TimeSource time) {
        this.orders = Objects.requireNonNull(orders, "orders must not be null");
        this.products = Objects.requireNonNull(products, "products must not be null");
        this.payments = Objects.requireNonNull(payments, "payments must not be null");
        this.events = Objects.requireNonNull(events, "events must not be null");
        this.time = Objects.requireNonNull(time, "time must not be null");
    }

    public Result<OrderId> cancel(OrderId orderId, String reason) {
        Objects.requireNonNull(orderId, "orderId must not be null");
        Optional<Order> found = orders.findById(orderId);
        if (found.isEmpty()) {
            return Result.err("Order not found: " + orderId);
        }

        Order order = found.get();
        OrderStatus previousStatus = order.status();
        try {
            order.cancel();
        } catch (InvalidOrderStateException e) {
            return Result.err(e.getMessage());
        }

        if (previousStatus == OrderStatus.PAID) {
            order.paymentReference().ifPresent(payments::refund);
        }
        if (previousStatus.holdsStock()) {
            order.lines().forEach(this::restock);
        }
        orders.save(order);
        events.publish(new OrderCancelled(orderId, reason, time.now()));
        return Result.ok(orderId);
    }

    private void restock(OrderLine line) {
        Optional<Product> product = products.findById(line.productId());
        product.ifPresent(p -> {
            p.release(line.quantity());
            products.save(p);
        });
    }
}

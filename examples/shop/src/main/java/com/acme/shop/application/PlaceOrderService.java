package com.acme.shop.application;

import com.acme.shop.domain.Customer;
import com.acme.shop.domain.Money;
import com.acme.shop.domain.Order;
import com.acme.shop.domain.OrderCancelled;
import com.acme.shop.domain.OrderId;
import com.acme.shop.domain.OrderLine;
import com.acme.shop.domain.OrderPlaced;
import com.acme.shop.domain.OutOfStockException;
import com.acme.shop.domain.PaymentDeclinedException;
import com.acme.shop.domain.PricingService;
import com.acme.shop.domain.Product;
import com.acme.shop.domain.ProductId;
import com.acme.shop.domain.port.CustomerRepository;
import com.acme.shop.domain.port.EventPublisher;
import com.acme.shop.domain.port.OrderRepository;
import com.acme.shop.domain.port.PaymentGateway;
import com.acme.shop.domain.port.PaymentReceipt;
import com.acme.shop.domain.port.ProductRepository;
import com.acme.shop.domain.port.TimeSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Places an order: reserves stock, charges the customer and publishes {@link OrderPlaced}.
 * If the payment is declined the order is cancelled, the stock released and the exception rethrown.
 */
public class PlaceOrderService {

    private final OrderRepository orders;
    private final ProductRepository products;
    private final CustomerRepository customers;
    private final PricingService pricing;
    private final PaymentGateway payments;
    private final EventPublisher events;
    private final TimeSource time;

    public PlaceOrderService(OrderRepository orders,
                             ProductRepository products,
                             CustomerRepository customers,
                             PricingService pricing,
                             PaymentGateway payments,
                             EventPublisher events,
                             TimeSource time) {
        this.orders = Objects.requireNonNull(orders, "orders must not be null");
        this.products = Objects.requireNonNull(products, "products must not be null");
        this.customers = Objects.requireNonNull(customers, "customers must not be null");
        this.pricing = Objects.requireNonNull(pricing, "pricing must not be null");
        this.payments = Objects.requireNonNull(payments, "payments must not be null");
        this.events = Objects.requireNonNull(events, "events must not be null");
        this.time = Objects.requireNonNull(time, "time must not be null");
    }

    /**
     * @throws IllegalArgumentException  if the customer or one of the products is unknown
     * @throws OutOfStockException       if a product has too few units; no stock is reserved then
     * @throws PaymentDeclinedException  if the charge is refused; the order is then cancelled
     */
    public OrderId placeOrder(PlaceOrderCommand command) {
        Objects.requireNonNull(command, "command must not be null");
        Customer customer = customers.findById(command.customerId())
                .orElseThrow(() -> new IllegalArgumentException("Unknown customer: " + command.customerId()));

        Order order = Order.draft(customer.id(), command.currency());
        for (PlaceOrderCommand.Item item : command.items()) {
            Product product = loadProduct(item.productId());
            order.addLine(new OrderLine(product.id(), item.quantity(), product.price()));
        }

        reserveStock(order);
        order.place();
        orders.save(order);

        Money amountDue = pricing.priceFor(customer, order);
        try {
            PaymentReceipt receipt = payments.charge(customer.id(), amountDue);
            order.markPaid(receipt.reference());
        } catch (PaymentDeclinedException e) {
            order.cancel();
            order.lines().forEach(this::releaseStock);
            orders.save(order);
            events.publish(new OrderCancelled(order.id(), e.getMessage(), time.now()));
            throw e;
        }

        orders.save(order);
        customer.earnPointsFor(amountDue);
        customers.save(customer);
        events.publish(new OrderPlaced(order.id(), customer.id(), amountDue, time.now()));
        return order.id();
    }

    private Product loadProduct(ProductId productId) {
        return products.findById(productId)
                .orElseThrow(() -> new IllegalArgumentException("Unknown product: " + productId));
    }

    /**
     * Reserves every line or nothing: if one line fails, the lines reserved so far are released.
     */
    private void reserveStock(Order order) {
        List<OrderLine> reserved = new ArrayList<>();
        try {
            for (OrderLine line : order.lines()) {
                Product product = loadProduct(line.productId());
                product.reserve(line.quantity());
                products.save(product);
                reserved.add(line);
            }
        } catch (OutOfStockException e) {
            reserved.forEach(this::releaseStock);
            throw e;
        }
    }

    private void releaseStock(OrderLine line) {
        Product product = loadProduct(line.productId());
        product.release(line.quantity());
        products.save(product);
    }
}

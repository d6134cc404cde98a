package com.acme.shop.application;

import com.acme.shop.domain.Currency;
import com.acme.shop.domain.Customer;
import com.acme.shop.domain.CustomerId;
import com.acme.shop.domain.DomainEvent;
import com.acme.shop.domain.Money;
import com.acme.shop.domain.Order;
import com.acme.shop.domain.OrderCancelled;
import com.acme.shop.domain.OrderId;
import com.acme.shop.domain.OrderPlaced;
import com.acme.shop.domain.OrderStatus;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.MockitoAnnotations;

import java.time.Instant;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

class PlaceOrderServiceTest {

    private static final Instant NOW = Instant.parse("2024-03-01T10:15:30Z");

    @Mock
    private OrderRepository orders;
    @Mock
    private ProductRepository products;
    @Mock
    private CustomerRepository customers;
    @Mock
    private PaymentGateway payments;
    @Mock
    private EventPublisher events;
    @Mock
    private TimeSource time;

    private PlaceOrderService service;
    private Customer customer;
    private Product keyboard;

    @BeforeEach
    void setUp() {
        MockitoAnnotations.initMocks(this);
        service = new PlaceOrderService(orders, products, customers, new PricingService(), payments, events, time);

        customer = new Customer(CustomerId.of("c-1"), "Ada Lovelace", "ada@example.com");
        keyboard = new Product(ProductId.of("p-1"), "KEY-0001", "Mechanical keyboard",
                Money.of("30.00", Currency.EUR), 10);

        when(customers.findById(customer.id())).thenReturn(Optional.of(customer));
        when(products.findById(keyboard.id())).thenReturn(Optional.of(keyboard));
        when(time.now()).thenReturn(NOW);
    }

    private PlaceOrderCommand orderKeyboards(int quantity) {
        return PlaceOrderCommand.of(customer.id(), Currency.EUR, new PlaceOrderCommand.Item(keyboard.id(), quantity));
    }

    @Test
    void placesOrderChargesCustomerAndPublishesEvent() {
        when(payments.charge(eq(customer.id()), any(Money.class)))
                .thenAnswer(invocation -> new PaymentReceipt("PAY-1", customer.id(), invocation.getArgument(1), NOW));

        OrderId orderId = service.placeOrder(orderKeyboards(2));

        Money expectedCharge = Money.of("60.00", Currency.EUR);
        verify(payments).charge(customer.id(), expectedCharge);
        assertEquals(8, keyboard.stock());
        assertEquals(60, customer.loyaltyPoints());

        ArgumentCaptor<Order> savedOrder = ArgumentCaptor.forClass(Order.class);
        verify(orders, atLeastOnce()).save(savedOrder.capture());
        assertEquals(orderId, savedOrder.getValue().id());
        assertEquals(OrderStatus.PAID, savedOrder.getValue().status());

        ArgumentCaptor<DomainEvent> event = ArgumentCaptor.forClass(DomainEvent.class);
        verify(events).publish(event.capture());
        OrderPlaced placed = assertInstanceOf(OrderPlaced.class, event.getValue());
        assertEquals(orderId, placed.orderId());
        assertEquals(expectedCharge, placed.amountPaid());
        assertEquals(NOW, placed.occurredAt());
    }

    @Test
    void cancelsOrderAndReleasesStockWhenPaymentIsDeclined() {
        PaymentDeclinedException declined =
                new PaymentDeclinedException(customer.id(), Money.of("60.00", Currency.EUR), "card expired");
        when(payments.charge(any(CustomerId.class), any(Money.class))).thenThrow(declined);

        PaymentDeclinedException thrown =
                assertThrows(PaymentDeclinedException.class, () -> service.placeOrder(orderKeyboards(2)));

        assertSame(declined, thrown);
        assertEquals(10, keyboard.stock());
        ArgumentCaptor<Order> savedOrder = ArgumentCaptor.forClass(Order.class);
        verify(orders, atLeastOnce()).save(savedOrder.capture());
        assertEquals(OrderStatus.CANCELLED, savedOrder.getValue().status());
        verify(events).publish(any(OrderCancelled.class));
        verify(events, never()).publish(any(OrderPlaced.class));
        verify(customers, never()).save(any(Customer.class));
    }

    @Test
    void reservesNothingWhenAProductIsOutOfStock() {
        Product mouse = new Product(ProductId.of("p-2"), "MOU-0001", "Mouse", Money.of("15.00", Currency.EUR), 1);
        when(products.findById(mouse.id())).thenReturn(Optional.of(mouse));
        PlaceOrderCommand command = PlaceOrderCommand.of(customer.id(), Currency.EUR,
                new PlaceOrderCommand.Item(keyboard.id(), 2),
                new PlaceOrderCommand.Item(mouse.id(), 3));

        OutOfStockException e = assertThrows(OutOfStockException.class, () -> service.placeOrder(command));

        assertEquals(mouse.id(), e.productId());
        assertEquals(10, keyboard.stock());
        assertEquals(1, mouse.stock());
        verifyNoMoreInteractions(payments, events);
    }

    @Test
    void rejectsUnknownCustomer() {
        PlaceOrderCommand command = PlaceOrderCommand.of(CustomerId.of("nobody"), Currency.EUR,
                new PlaceOrderCommand.Item(keyboard.id(), 1));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> service.placeOrder(command));

        assertEquals("Unknown customer: nobody", e.getMessage());
        verifyNoMoreInteractions(orders, payments, events);
    }

    @Test
    void rejectsNullCommand() {
        assertThrows(NullPointerException.class, () -> service.placeOrder(null));
    }
}

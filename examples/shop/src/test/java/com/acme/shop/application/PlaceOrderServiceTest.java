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
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Captor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
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

    @Captor
    private ArgumentCaptor<Order> savedOrder;
    @Captor
    private ArgumentCaptor<DomainEvent> publishedEvent;

    private PlaceOrderService service;
    private Customer customer;
    private Product keyboard;

    @BeforeEach
    void setUp() {
        service = new PlaceOrderService(orders, products, customers, new PricingService(), payments, events, time);

        customer = new Customer(CustomerId.of("c-1"), "Ada Lovelace", "ada@example.com");
        keyboard = new Product(ProductId.of("p-1"), "KEY-0001", "Mechanical keyboard",
                Money.of("30.00", Currency.EUR), 10);
    }

    private void givenCustomerAndKeyboardExist() {
        when(customers.findById(customer.id())).thenReturn(Optional.of(customer));
        when(products.findById(keyboard.id())).thenReturn(Optional.of(keyboard));
    }

    private PlaceOrderCommand orderKeyboards(int quantity) {
        return PlaceOrderCommand.of(customer.id(), Currency.EUR, new PlaceOrderCommand.Item(keyboard.id(), quantity));
    }

    @Test
    void placesOrderChargesCustomerAndPublishesEvent() {
        givenCustomerAndKeyboardExist();
        when(time.now()).thenReturn(NOW);
        when(payments.charge(eq(customer.id()), any(Money.class)))
                .thenAnswer(invocation -> new PaymentReceipt("PAY-1", customer.id(), invocation.getArgument(1), NOW));

        OrderId orderId = service.placeOrder(orderKeyboards(2));

        Money expectedCharge = Money.of("60.00", Currency.EUR);
        verify(payments).charge(customer.id(), expectedCharge);
        assertThat(keyboard.stock()).isEqualTo(8);
        assertThat(customer.loyaltyPoints()).isEqualTo(60);

        verify(orders, atLeastOnce()).save(savedOrder.capture());
        assertThat(savedOrder.getValue().id()).isEqualTo(orderId);
        assertThat(savedOrder.getValue().status()).isEqualTo(OrderStatus.PAID);

        verify(events).publish(publishedEvent.capture());
        assertThat(publishedEvent.getValue()).isInstanceOfSatisfying(OrderPlaced.class, placed -> {
            assertThat(placed.orderId()).isEqualTo(orderId);
            assertThat(placed.amountPaid()).isEqualTo(expectedCharge);
            assertThat(placed.occurredAt()).isEqualTo(NOW);
        });
    }

    @Test
    void cancelsOrderAndReleasesStockWhenPaymentIsDeclined() {
        givenCustomerAndKeyboardExist();
        when(time.now()).thenReturn(NOW);
        PaymentDeclinedException declined =
                new PaymentDeclinedException(customer.id(), Money.of("60.00", Currency.EUR), "card expired");
        when(payments.charge(any(CustomerId.class), any(Money.class))).thenThrow(declined);

        assertThatThrownBy(() -> service.placeOrder(orderKeyboards(2))).isSameAs(declined);

        assertThat(keyboard.stock()).isEqualTo(10);
        verify(orders, atLeastOnce()).save(savedOrder.capture());
        assertThat(savedOrder.getValue().status()).isEqualTo(OrderStatus.CANCELLED);
        verify(events).publish(any(OrderCancelled.class));
        verify(events, never()).publish(any(OrderPlaced.class));
        verify(customers, never()).save(any(Customer.class));
    }

    @Test
    void reservesNothingWhenAProductIsOutOfStock() {
        givenCustomerAndKeyboardExist();
        Product mouse = new Product(ProductId.of("p-2"), "MOU-0001", "Mouse", Money.of("15.00", Currency.EUR), 1);
        when(products.findById(mouse.id())).thenReturn(Optional.of(mouse));
        PlaceOrderCommand command = PlaceOrderCommand.of(customer.id(), Currency.EUR,
                new PlaceOrderCommand.Item(keyboard.id(), 2),
                new PlaceOrderCommand.Item(mouse.id(), 3));

        assertThatThrownBy(() -> service.placeOrder(command))
                .isInstanceOfSatisfying(OutOfStockException.class, e -> assertThat(e.productId()).isEqualTo(mouse.id()));
        assertThat(keyboard.stock()).isEqualTo(10);
        assertThat(mouse.stock()).isEqualTo(1);
        verifyNoInteractions(payments, events);
    }

    @Test
    void rejectsUnknownCustomer() {
        CustomerId nobody = CustomerId.of("nobody");
        when(customers.findById(nobody)).thenReturn(Optional.empty());
        PlaceOrderCommand command = PlaceOrderCommand.of(nobody, Currency.EUR,
                new PlaceOrderCommand.Item(keyboard.id(), 1));

        assertThatIllegalArgumentException()
                .isThrownBy(() -> service.placeOrder(command))
                .withMessage("Unknown customer: nobody");
        verifyNoInteractions(orders, payments, events);
    }

    @Test
    void rejectsNullCommand() {
        assertThatNullPointerException().isThrownBy(() -> service.placeOrder(null));
    }
}

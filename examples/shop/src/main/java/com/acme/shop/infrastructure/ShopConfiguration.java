package com.acme.shop.infrastructure;

import com.acme.shop.application.CancelOrderUseCase;
import com.acme.shop.application.CustomerRegistrationService;
import com.acme.shop.application.InventoryService;
import com.acme.shop.application.OrderQueryService;
import com.acme.shop.application.PlaceOrderService;
import com.acme.shop.domain.DiscountPolicy;
import com.acme.shop.domain.PricingService;
import com.acme.shop.domain.port.TimeSource;

import java.util.Objects;

/**
 * Hand-wired composition root: builds the in-memory adapters and the application services on top of them.
 */
public final class ShopConfiguration {

    private final TimeSource timeSource;
    private final InMemoryOrderRepository orderRepository = new InMemoryOrderRepository();
    private final InMemoryCustomerRepository customerRepository = new InMemoryCustomerRepository();
    private final InMemoryProductRepository productRepository = new InMemoryProductRepository();
    private final LoggingEventPublisher eventPublisher = new LoggingEventPublisher();
    private final FakePaymentGateway paymentGateway;

    private final PlaceOrderService placeOrderService;
    private final CancelOrderUseCase cancelOrderUseCase;
    private final CustomerRegistrationService customerRegistrationService;
    private final InventoryService inventoryService;
    private final OrderQueryService orderQueryService;

    private ShopConfiguration(TimeSource timeSource, DiscountPolicy promotion) {
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource must not be null");
        this.paymentGateway = new FakePaymentGateway(timeSource);
        PricingService pricingService = new PricingService(promotion);

        this.placeOrderService = new PlaceOrderService(orderRepository, productRepository, customerRepository,
                pricingService, paymentGateway, eventPublisher, timeSource);
        this.cancelOrderUseCase = new CancelOrderUseCase(orderRepository, productRepository, paymentGateway,
                eventPublisher, timeSource);
        this.customerRegistrationService = new CustomerRegistrationService(customerRepository);
        this.inventoryService = new InventoryService(productRepository);
        this.orderQueryService = new OrderQueryService(orderRepository);
    }

    /**
     * In-memory shop on the system clock without promotions.
     */
    public static ShopConfiguration inMemory() {
        return new ShopConfiguration(new SystemTimeSource(), DiscountPolicy.none());
    }

    /**
     * In-memory shop with the given clock and promotions (applied in order).
     */
    public static ShopConfiguration inMemory(TimeSource timeSource, DiscountPolicy... promotions) {
        return new ShopConfiguration(timeSource, DiscountPolicy.allOf(promotions));
    }

    public TimeSource timeSource() {
        return timeSource;
    }

    public InMemoryOrderRepository orderRepository() {
        return orderRepository;
    }

    public InMemoryCustomerRepository customerRepository() {
        return customerRepository;
    }

    public InMemoryProductRepository productRepository() {
        return productRepository;
    }

    public LoggingEventPublisher eventPublisher() {
        return eventPublisher;
    }

    public FakePaymentGateway paymentGateway() {
        return paymentGateway;
    }

    public PlaceOrderService placeOrderService() {
        return placeOrderService;
    }

    public CancelOrderUseCase cancelOrderUseCase() {
        return cancelOrderUseCase;
    }

    public CustomerRegistrationService customerRegistrationService() {
        return customerRegistrationService;
    }

    public InventoryService inventoryService() {
        return inventoryService;
    }

    public OrderQueryService orderQueryService() {
        return orderQueryService;
    }
}

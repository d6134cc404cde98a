package com.acme.shop.domain;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderTest {

    private static final ProductId BOOK = ProductId.of("book");
    private static final ProductId PEN = ProductId.of("pen");

    private Order order;

    @BeforeEach
    void setUp() {
        order = new Order(OrderId.of("o-1"), CustomerId.of("c-1"), Currency.EUR);
    }

    private static OrderLine line(ProductId product, int quantity, String unitPrice) {
        return new OrderLine(product, quantity, Money.of(unitPrice, Currency.EUR));
    }

    @Test
    void newOrderIsAnEmptyDraft() {
        assertEquals(OrderStatus.DRAFT, order.status());
        assertTrue(order.lines().isEmpty());
        assertEquals(Money.zero(Currency.EUR), order.total());
    }

    @Test
    void totalSumsAllLines() {
        order.addLines(line(BOOK, 2, "12.50"), line(PEN, 3, "1.20"));

        assertEquals(Money.of("28.60", Currency.EUR), order.total());
        assertEquals(5, order.itemCount());
    }

    @Test
    void addingTheSameProductTwiceMergesTheLines() {
        order.addLine(line(BOOK, 1, "12.50"));
        order.addLine(line(BOOK, 2, "12.50"));

        assertEquals(1, order.lines().size());
        assertEquals(3, order.lines().get(0).quantity());
    }

    @Test
    void removesLinesWhileDraft() {
        order.addLines(line(BOOK, 1, "12.50"), line(PEN, 1, "1.20"));

        assertTrue(order.removeLine(PEN));
        assertFalse(order.removeLine(PEN));
        assertEquals(1, order.lines().size());
    }

    @Test
    void rejectsLinesInAnotherCurrency() {
        OrderLine dollars = new OrderLine(BOOK, 1, Money.of("10.00", Currency.USD));

        assertThrows(IllegalArgumentException.class, () -> order.addLine(dollars));
    }

    @Test
    void emptyOrderCannotBePlaced() {
        assertThrows(InvalidOrderStateException.class, order::place);
    }

    @Test
    void followsTheHappyPath() {
        order.addLine(line(BOOK, 1, "12.50"));

        order.place();
        order.markPaid("PAY-1");
        order.ship();

        assertEquals(OrderStatus.SHIPPED, order.status());
        assertEquals("PAY-1", order.paymentReference().orElseThrow());
        assertFalse(order.isCancellable());
    }

    @Test
    void linesAreFrozenOncePlaced() {
        order.addLine(line(BOOK, 1, "12.50"));
        order.place();

        assertThrows(InvalidOrderStateException.class, () -> order.addLine(line(PEN, 1, "1.20")));
        assertThrows(InvalidOrderStateException.class, () -> order.removeLine(BOOK));
    }

    @Test
    void cannotPayForADraftOrCancelTwice() {
        order.addLine(line(BOOK, 1, "12.50"));

        assertThrows(InvalidOrderStateException.class, () -> order.markPaid("PAY-1"));

        order.cancel();
        InvalidOrderStateException e = assertThrows(InvalidOrderStateException.class, order::cancel);
        assertEquals("INVALID_ORDER_STATE", e.errorCode());
    }
}

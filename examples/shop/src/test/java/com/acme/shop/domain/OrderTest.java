package com.acme.shop.domain;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
        assertThat(order.status()).isEqualTo(OrderStatus.DRAFT);
        assertThat(order.lines()).isEmpty();
        assertThat(order.total()).isEqualTo(Money.zero(Currency.EUR));
    }

    @Test
    void totalSumsAllLines() {
        order.addLines(line(BOOK, 2, "12.50"), line(PEN, 3, "1.20"));

        assertThat(order.total()).isEqualTo(Money.of("28.60", Currency.EUR));
        assertThat(order.itemCount()).isEqualTo(5);
    }

    @Test
    void addingTheSameProductTwiceMergesTheLines() {
        order.addLine(line(BOOK, 1, "12.50"));
        order.addLine(line(BOOK, 2, "12.50"));

        assertThat(order.lines()).singleElement()
                .extracting(OrderLine::quantity)
                .isEqualTo(3);
    }

    @Test
    void removesLinesWhileDraft() {
        order.addLines(line(BOOK, 1, "12.50"), line(PEN, 1, "1.20"));

        assertThat(order.removeLine(PEN)).isTrue();
        assertThat(order.removeLine(PEN)).isFalse();
        assertThat(order.lines()).extracting(OrderLine::productId).containsExactly(BOOK);
    }

    @Test
    void rejectsLinesInAnotherCurrency() {
        OrderLine dollars = new OrderLine(BOOK, 1, Money.of("10.00", Currency.USD));

        assertThatIllegalArgumentException().isThrownBy(() -> order.addLine(dollars));
    }

    @Test
    void emptyOrderCannotBePlaced() {
        assertThatExceptionOfType(InvalidOrderStateException.class).isThrownBy(order::place);
    }

    @Test
    void followsTheHappyPath() {
        order.addLine(line(BOOK, 1, "12.50"));

        order.place();
        order.markPaid("PAY-1");
        order.ship();

        assertThat(order.status()).isEqualTo(OrderStatus.SHIPPED);
        assertThat(order.paymentReference()).contains("PAY-1");
        assertThat(order.isCancellable()).isFalse();
    }

    @Test
    void linesAreFrozenOncePlaced() {
        order.addLine(line(BOOK, 1, "12.50"));
        order.place();

        assertThatExceptionOfType(InvalidOrderStateException.class)
                .isThrownBy(() -> order.addLine(line(PEN, 1, "1.20")));
        assertThatExceptionOfType(InvalidOrderStateException.class)
                .isThrownBy(() -> order.removeLine(BOOK));
    }

    @Test
    void cannotPayForADraftOrCancelTwice() {
        order.addLine(line(BOOK, 1, "12.50"));

        assertThatExceptionOfType(InvalidOrderStateException.class).isThrownBy(() -> order.markPaid("PAY-1"));

        order.cancel();
        assertThatExceptionOfType(InvalidOrderStateException.class)
                .isThrownBy(order::cancel)
                .extracting(InvalidOrderStateException::errorCode)
                .isEqualTo("INVALID_ORDER_STATE");
    }
}

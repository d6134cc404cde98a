package com.acme.shop.domain;

/**
 * Thrown when a product does not have enough units left to reserve.
 */
public class OutOfStockException extends DomainException {

    private static final long serialVersionUID = 1L;

    private final ProductId productId;
    private final int requested;
    private final int available;

    public OutOfStockException(ProductId productId, int requested, int available) {
        super("Product " + productId + ": requested " + requested + " but only " + available + " in stock");
        this.productId = productId;
        this.requested = requested;
        this.available = available;
    }

    public ProductId productId() {
        return productId;
    }

    public int requested() {
        return requested;
    }

    public int available() {
        return available;
    }

    @Override
    public String errorCode() {
        return "OUT_OF_STOCK";
    }
}

package com.acme.shop.domain;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A sellable product with its current stock level.
 */
public class Product {

    /** SKUs look like {@code ABC-1234}. */
    private static final Pattern SKU_PATTERN = Pattern.compile("[A-Z]{3}-\\d{4}");

    private final ProductId id;
    private final String sku;
    private final String name;
    private Money price;
    private int stock;

    public Product(ProductId id, String sku, String name, Money price, int stock) {
        this.id = Objects.requireNonNull(id, "id must not be null");
        if (sku == null || !SKU_PATTERN.matcher(sku).matches()) {
            throw new IllegalArgumentException("SKU must match " + SKU_PATTERN.pattern() + ": " + sku);
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        if (stock < 0) {
            throw new IllegalArgumentException("stock must not be negative: " + stock);
        }
        this.sku = sku;
        this.name = name;
        this.price = Objects.requireNonNull(price, "price must not be null");
        this.stock = stock;
    }

    public ProductId id() {
        return id;
    }

    public String sku() {
        return sku;
    }

    public String name() {
        return name;
    }

    public Money price() {
        return price;
    }

    public int stock() {
        return stock;
    }

    public boolean isInStock() {
        return stock > 0;
    }

    public boolean canReserve(int quantity) {
        return quantity > 0 && quantity <= stock;
    }

    /**
     * Takes {@code quantity} units out of stock for an order.
     *
     * @throws OutOfStockException if fewer than {@code quantity} units are available
     */
    public void reserve(int quantity) {
        requirePositive(quantity);
        if (stock == 0 || quantity > stock) {
            throw new OutOfStockException(id, quantity, stock);
        }
        stock -= quantity;
    }

    /**
     * Puts previously reserved units back, e.g. when an order is cancelled.
     */
    public void release(int quantity) {
        requirePositive(quantity);
        stock = Math.addExact(stock, quantity);
    }

    public void restock(int quantity) {
        requirePositive(quantity);
        stock = Math.addExact(stock, quantity);
    }

    public void changePrice(Money newPrice) {
        Objects.requireNonNull(newPrice, "newPrice must not be null");
        if (newPrice.currency() != price.currency()) {
            throw new IllegalArgumentException("Price currency cannot change from " + price.currency());
        }
        this.price = newPrice;
    }

    private static void requirePositive(int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Product other && id.equals(other.id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "Product[" + sku + " " + name + ", price=" + price + ", stock=" + stock + "]";
    }
}

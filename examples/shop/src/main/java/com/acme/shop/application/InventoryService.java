package com.acme.shop.application;

import com.acme.shop.domain.Money;
import com.acme.shop.domain.Product;
import com.acme.shop.domain.ProductId;
import com.acme.shop.domain.port.ProductRepository;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Catalogue and stock administration.
 */
public class InventoryService {

    private final ProductRepository products;

    public InventoryService(ProductRepository products) {
        this.products = Objects.requireNonNull(products, "products must not be null");
    }

    public Product addProduct(String sku, String name, Money price, int initialStock) {
        if (products.findBySku(sku).isPresent()) {
            throw new IllegalStateException("SKU already in use: " + sku);
        }
        Product product = new Product(ProductId.newId(), sku, name, price, initialStock);
        return products.save(product);
    }

    /**
     * @return the new stock level
     */
    public int restock(ProductId productId, int quantity) {
        Product product = products.getById(productId);
        product.restock(quantity);
        products.save(product);
        return product.stock();
    }

    /**
     * Stock level per SKU, sorted by SKU.
     */
    public Map<String, Integer> stockReport() {
        return products.findAll().stream()
                .collect(Collectors.toMap(Product::sku, Product::stock, Integer::sum, TreeMap::new));
    }

    public List<String> skusToReorder(int threshold) {
        return products.findLowStock(threshold).stream()
                .map(Product::sku)
                .toList();
    }
}

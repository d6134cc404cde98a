package com.acme.shop.domain.port;

import com.acme.shop.domain.Product;
import com.acme.shop.domain.ProductId;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

public interface ProductRepository extends Repository<Product, ProductId> {

    Optional<Product> findBySku(String sku);

    /**
     * Products with fewer than {@code threshold} units in stock, emptiest first.
     */
    default List<Product> findLowStock(int threshold) {
        return findAll().stream()
                .filter(product -> product.stock() < threshold)
                .sorted(Comparator.comparingInt(Product::stock))
                .toList();
    }
}

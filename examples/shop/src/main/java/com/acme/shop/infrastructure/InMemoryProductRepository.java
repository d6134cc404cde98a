package com.acme.shop.infrastructure;

import com.acme.shop.domain.Product;
import com.acme.shop.domain.ProductId;
import com.acme.shop.domain.port.ProductRepository;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

public class InMemoryProductRepository implements ProductRepository {

    private final Map<ProductId, Product> products = new ConcurrentHashMap<>();

    public InMemoryProductRepository(Product... initialProducts) {
        for (Product product : initialProducts) {
            save(product);
        }
    }

    @Override
    public Optional<Product> findById(ProductId id) {
        Objects.requireNonNull(id, "id must not be null");
        return Optional.ofNullable(products.get(id));
    }

    /**
     * All products, ordered by SKU.
     */
    @Override
    public List<Product> findAll() {
        return products.values().stream()
                .sorted(Comparator.comparing(Product::sku))
                .toList();
    }

    @Override
    public Product save(Product product) {
        Objects.requireNonNull(product, "product must not be null");
        products.put(product.id(), product);
        return product;
    }

    @Override
    public Optional<Product> findBySku(String sku) {
        return products.values().stream()
                .filter(product -> product.sku().equals(sku))
                .findFirst();
    }
}

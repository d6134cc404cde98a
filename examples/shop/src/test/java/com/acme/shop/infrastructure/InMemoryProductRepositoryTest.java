package com.acme.shop.infrastructure;

import com.acme.shop.domain.Currency;
import com.acme.shop.domain.Money;
import com.acme.shop.domain.Product;
import com.acme.shop.domain.ProductId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InMemoryProductRepositoryTest {

    private Product lamp;
    private Product chair;
    private InMemoryProductRepository repository;

    @BeforeEach
    void setUp() {
        lamp = new Product(ProductId.of("lamp"), "LMP-0001", "Desk lamp", Money.of("24.90", Currency.EUR), 3);
        chair = new Product(ProductId.of("chair"), "CHR-0001", "Office chair", Money.of("149.00", Currency.EUR), 12);
        repository = new InMemoryProductRepository(lamp, chair);
    }

    @Test
    void findsProductsByIdAndSku() {
        assertSame(lamp, repository.findById(lamp.id()).orElseThrow());
        assertSame(chair, repository.findBySku("CHR-0001").orElseThrow());
        assertTrue(repository.findBySku("XXX-9999").isEmpty());
    }

    @Test
    void findAllIsSortedBySku() {
        assertEquals(List.of(chair, lamp), repository.findAll());
    }

    @Test
    void saveReplacesProductWithSameId() {
        Product cheaperLamp = new Product(lamp.id(), "LMP-0001", "Desk lamp", Money.of("19.90", Currency.EUR), 3);

        repository.save(cheaperLamp);

        assertEquals(2, repository.findAll().size());
        assertSame(cheaperLamp, repository.getById(lamp.id()));
    }

    @Test
    void getByIdThrowsForUnknownProduct() {
        ProductId unknown = ProductId.of("unknown");

        assertFalse(repository.existsById(unknown));
        assertThrows(NoSuchElementException.class, () -> repository.getById(unknown));
    }

    @Test
    void findsLowStockEmptiestFirst() {
        Product rug = new Product(ProductId.of("rug"), "RUG-0001", "Rug", Money.of("80.00", Currency.EUR), 0);
        repository.save(rug);

        assertEquals(List.of(rug, lamp), repository.findLowStock(5));
    }
}

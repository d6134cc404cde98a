package com.acme.shop.infrastructure;

import com.acme.shop.domain.Currency;
import com.acme.shop.domain.Money;
import com.acme.shop.domain.Product;
import com.acme.shop.domain.ProductId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.NoSuchElementException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

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
        assertThat(repository.findById(lamp.id())).containsSame(lamp);
        assertThat(repository.findBySku("CHR-0001")).containsSame(chair);
        assertThat(repository.findBySku("XXX-9999")).isEmpty();
    }

    @Test
    void findAllIsSortedBySku() {
        assertThat(repository.findAll()).containsExactly(chair, lamp);
    }

    @Test
    void saveReplacesProductWithSameId() {
        Product cheaperLamp = new Product(lamp.id(), "LMP-0001", "Desk lamp", Money.of("19.90", Currency.EUR), 3);

        repository.save(cheaperLamp);

        assertThat(repository.findAll()).hasSize(2);
        assertThat(repository.getById(lamp.id())).isSameAs(cheaperLamp);
    }

    @Test
    void getByIdThrowsForUnknownProduct() {
        ProductId unknown = ProductId.of("unknown");

        assertThat(repository.existsById(unknown)).isFalse();
        assertThatExceptionOfType(NoSuchElementException.class).isThrownBy(() -> repository.getById(unknown));
    }

    @Test
    void findsLowStockEmptiestFirst() {
        Product rug = new Product(ProductId.of("rug"), "RUG-0001", "Rug", Money.of("80.00", Currency.EUR), 0);
        repository.save(rug);

        assertThat(repository.findLowStock(5)).containsExactly(rug, lamp);
    }
}

/*
 * Copyright 2026 Acme Corp.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package com.acme.warehouse.core;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class StockServiceTest {

    private static final Instant NOW = Instant.parse("2026-01-15T08:30:00Z");
    private static final Sku HAMMER = Sku.of("TOOL-000123");

    @Mock
    private InventoryRepository inventory;

    private StockService service;
    private StockItem hammers;

    @BeforeEach
    void setUp() {
        service = new StockService(inventory, Clock.fixed(NOW, ZoneOffset.UTC));
        hammers = new StockItem(HAMMER, Location.parse("B-07-2"));
        hammers.receive(10);
    }

    @Test
    void reserveSetsUnitsAsideAndSavesTheItem() {
        when(inventory.findBySku(HAMMER)).thenReturn(Optional.of(hammers));

        Reservation reservation = service.reserve("SO-1001", HAMMER, 4);

        assertThat(reservation.getQuantity()).isEqualTo(4);
        assertThat(reservation.getPickFrom()).hasToString("B-07-2");
        assertThat(reservation.getReservedAt()).isEqualTo(NOW);
        assertThat(hammers.getAvailable()).isEqualTo(6);
        verify(inventory).save(hammers);
    }

    @Test
    void reserveRefusesMoreThanIsAvailable() {
        when(inventory.findBySku(HAMMER)).thenReturn(Optional.of(hammers));

        assertThatThrownBy(() -> service.reserve("SO-1002", HAMMER, 11))
                .isInstanceOfSatisfying(InsufficientStockException.class,
                        e -> assertThat(e.getAvailable()).isEqualTo(10));
        assertThat(hammers.getReserved()).isZero();
        verify(inventory, never()).save(any());
    }
}

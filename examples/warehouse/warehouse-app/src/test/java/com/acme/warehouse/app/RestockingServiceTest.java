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
package com.acme.warehouse.app;

import com.acme.warehouse.app.PurchaseOrder.Priority;
import com.acme.warehouse.core.Location;
import com.acme.warehouse.core.Sku;
import com.acme.warehouse.core.StockItem;
import com.acme.warehouse.core.StockService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class RestockingServiceTest {

    private static final Sku SCREWS = Sku.of("FIX-000042");

    @Mock
    private StockService stock;
    @Mock
    private SupplierPort supplier;

    private RestockingService service;

    @BeforeEach
    void setUp() {
        service = new RestockingService(stock, supplier, new RestockPolicy(20, 100, 25));
    }

    private static StockItem screwsWithAvailable(int units) {
        StockItem item = new StockItem(SCREWS, Location.parse("A-03-1"));
        item.receive(units);
        return item;
    }

    @Test
    void ordersWholeCasesUpToTheTargetLevel() {
        when(stock.belowReorderPoint(20)).thenReturn(List.of(screwsWithAvailable(12)));
        when(supplier.openOrders()).thenReturn(List.of());

        RestockReport report = service.restock();

        PurchaseOrder expected = new PurchaseOrder(SCREWS, 100, Priority.STANDARD);
        verify(supplier).submit(expected);
        assertThat(report.submitted()).containsExactly(expected);
        assertThat(report.alreadyOnOrder()).isEmpty();
    }

    @Test
    void leavesSkusAloneThatAreAlreadyOnOrder() {
        when(stock.belowReorderPoint(20)).thenReturn(List.of(screwsWithAvailable(12)));
        when(supplier.openOrders()).thenReturn(List.of(new PurchaseOrder(SCREWS, 100, Priority.STANDARD)));

        RestockReport report = service.restock();

        assertThat(report.submitted()).isEmpty();
        assertThat(report.alreadyOnOrder()).containsExactly(SCREWS);
        verify(supplier, never()).submit(any());
    }
}

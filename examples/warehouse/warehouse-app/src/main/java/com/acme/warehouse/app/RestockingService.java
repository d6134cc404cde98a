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
import com.acme.warehouse.core.Sku;
import com.acme.warehouse.core.StockItem;
import com.acme.warehouse.core.StockService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Orders stock from suppliers for every SKU below the reorder point, counting what is already on order.
 * Empty shelves and chilled goods are ordered express.
 */
public class RestockingService {

    private final StockService stock;
    private final SupplierPort supplier;
    private final RestockPolicy policy;

    public RestockingService(StockService stock, SupplierPort supplier, RestockPolicy policy) {
        this.stock = Objects.requireNonNull(stock, "stock must not be null");
        this.supplier = Objects.requireNonNull(supplier, "supplier must not be null");
        this.policy = Objects.requireNonNull(policy, "policy must not be null");
    }

    public RestockReport restock() {
        List<StockItem> low = stock.belowReorderPoint(policy.reorderPoint());
        if (low.isEmpty()) {
            return RestockReport.nothingToDo();
        }
        Map<Sku, Integer> onOrder = supplier.openOrders().stream()
                .collect(Collectors.groupingBy(PurchaseOrder::sku, Collectors.summingInt(PurchaseOrder::quantity)));

        List<PurchaseOrder> submitted = new ArrayList<>();
        List<Sku> alreadyOnOrder = new ArrayList<>();
        for (StockItem item : low) {
            int shortfall = policy.targetLevel() - item.getAvailable() - onOrder.getOrDefault(item.getSku(), 0);
            if (shortfall <= 0) {
                alreadyOnOrder.add(item.getSku());
                continue;
            }
            PurchaseOrder order = new PurchaseOrder(item.getSku(), policy.orderQuantity(shortfall), priorityOf(item));
            supplier.submit(order);
            submitted.add(order);
        }
        return new RestockReport(submitted, alreadyOnOrder);
    }

    private static Priority priorityOf(StockItem item) {
        boolean empty = item.getAvailable() == 0;
        return empty || item.getLocation().isChilled() ? Priority.EXPRESS : Priority.STANDARD;
    }
}

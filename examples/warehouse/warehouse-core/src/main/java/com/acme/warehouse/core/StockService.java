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

import lombok.NonNull;
import lombok.RequiredArgsConstructor;

import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reserves, releases and receives stock, and says which SKUs run low.
 */
@RequiredArgsConstructor
public class StockService {

    @NonNull
    private final InventoryRepository inventory;
    @NonNull
    private final Clock clock;

    /**
     * Sets units aside for an order.
     *
     * @throws IllegalArgumentException   if the SKU is not stocked
     * @throws InsufficientStockException if too few units are available; nothing is reserved then
     */
    public Reservation reserve(String orderId, Sku sku, int quantity) {
        StockItem item = load(sku);
        item.reserve(quantity);
        inventory.save(item);
        return Reservation.builder()
                .orderId(orderId)
                .sku(sku)
                .quantity(quantity)
                .pickFrom(item.getLocation())
                .reservedAt(clock.instant())
                .build();
    }

    /**
     * Gives the units of a reservation back, e.g. when its order is cancelled.
     */
    public void cancel(Reservation reservation) {
        StockItem item = load(reservation.getSku());
        item.release(reservation.getQuantity());
        inventory.save(item);
    }

    /**
     * Books a delivery onto the shelf.
     */
    public void receive(Sku sku, int quantity) {
        StockItem item = load(sku);
        item.receive(quantity);
        inventory.save(item);
    }

    /**
     * Units available for new orders; 0 for a SKU that is not stocked.
     */
    public int availableQuantity(Sku sku) {
        return inventory.findBySku(sku).map(StockItem::getAvailable).orElse(0);
    }

    /**
     * The stock items with fewer than {@code threshold} available units, emptiest first.
     */
    public List<StockItem> belowReorderPoint(int threshold) {
        if (threshold < 0) {
            throw new IllegalArgumentException("threshold must not be negative: " + threshold);
        }
        return inventory.findAll().stream()
                .filter(item -> item.getAvailable() < threshold)
                .sorted(Comparator.comparingInt(StockItem::getAvailable)
                        .thenComparing(item -> item.getSku().getCode()))
                .collect(Collectors.toList());
    }

    private StockItem load(Sku sku) {
        return inventory.findBySku(sku)
                .orElseThrow(() -> new IllegalArgumentException("SKU is not stocked: " + sku));
    }
}

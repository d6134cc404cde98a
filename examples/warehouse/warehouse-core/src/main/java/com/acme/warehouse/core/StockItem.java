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

import lombok.Getter;
import lombok.NonNull;
import lombok.RequiredArgsConstructor;
import lombok.ToString;

/**
 * The stock of one SKU at its pick location: the units on the shelf, some of which may be reserved for orders.
 */
@Getter
@ToString
@RequiredArgsConstructor
public class StockItem {

    @NonNull
    private final Sku sku;
    @NonNull
    private final Location location;
    private int onHand;
    private int reserved;

    /**
     * Units that new orders may still reserve.
     */
    public int getAvailable() {
        return onHand - reserved;
    }

    public void receive(int quantity) {
        requirePositive(quantity);
        onHand += quantity;
    }

    /**
     * Sets units aside for an order.
     *
     * @throws InsufficientStockException if fewer than {@code quantity} units are available
     */
    public void reserve(int quantity) {
        requirePositive(quantity);
        if (quantity > getAvailable()) {
            throw new InsufficientStockException(sku, quantity, getAvailable());
        }
        reserved += quantity;
    }

    /**
     * Gives reserved units back, e.g. when an order is cancelled.
     *
     * @throws IllegalStateException if fewer than {@code quantity} units are reserved
     */
    public void release(int quantity) {
        requirePositive(quantity);
        if (quantity > reserved) {
            throw new IllegalStateException(
                    "Cannot release " + quantity + " units of " + sku + ": only " + reserved + " are reserved");
        }
        reserved -= quantity;
    }

    /**
     * Picks reserved units for shipping: they leave the reservation and the shelf.
     */
    public void ship(int quantity) {
        release(quantity);
        onHand -= quantity;
    }

    private static void requirePositive(int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
    }
}

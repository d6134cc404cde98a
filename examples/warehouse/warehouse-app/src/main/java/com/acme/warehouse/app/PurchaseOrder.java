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

import com.acme.warehouse.core.Sku;

import java.util.Objects;

/**
 * An order to a supplier for more units of one SKU.
 */
public record PurchaseOrder(Sku sku, int quantity, Priority priority) {

    public enum Priority {
        STANDARD,
        /** Delivered next day, at a surcharge. */
        EXPRESS
    }

    public PurchaseOrder {
        Objects.requireNonNull(sku, "sku must not be null");
        Objects.requireNonNull(priority, "priority must not be null");
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
    }
}

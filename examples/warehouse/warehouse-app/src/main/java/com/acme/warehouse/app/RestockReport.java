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

import java.util.List;

/**
 * What one restocking round did: the orders it submitted and the low SKUs it left alone because enough is on order.
 */
public record RestockReport(List<PurchaseOrder> submitted, List<Sku> alreadyOnOrder) {

    public RestockReport {
        submitted = List.copyOf(submitted);
        alreadyOnOrder = List.copyOf(alreadyOnOrder);
    }

    public static RestockReport nothingToDo() {
        return new RestockReport(List.of(), List.of());
    }

    public int unitsOrdered() {
        return submitted.stream().mapToInt(PurchaseOrder::quantity).sum();
    }
}

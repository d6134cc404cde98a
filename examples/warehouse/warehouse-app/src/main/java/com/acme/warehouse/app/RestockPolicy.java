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

/**
 * When to restock and how much: SKUs with fewer than {@code reorderPoint} available units are topped up to
 * {@code targetLevel}, in whole cases of {@code caseSize} units.
 */
public record RestockPolicy(int reorderPoint, int targetLevel, int caseSize) {

    public RestockPolicy {
        if (reorderPoint < 0) {
            throw new IllegalArgumentException("reorderPoint must not be negative: " + reorderPoint);
        }
        if (targetLevel <= reorderPoint) {
            throw new IllegalArgumentException(
                    "targetLevel must be above the reorder point " + reorderPoint + ": " + targetLevel);
        }
        if (caseSize < 1) {
            throw new IllegalArgumentException("caseSize must be positive: " + caseSize);
        }
    }

    /**
     * The units to order for a shortfall, rounded up to whole cases.
     */
    public int orderQuantity(int shortfall) {
        if (shortfall <= 0) {
            return 0;
        }
        int cases = (shortfall + caseSize - 1) / caseSize;
        return cases * caseSize;
    }
}

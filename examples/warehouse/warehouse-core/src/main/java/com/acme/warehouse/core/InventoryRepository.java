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

import java.util.List;
import java.util.Optional;

/**
 * Where the stock items live (a database in production).
 */
public interface InventoryRepository {

    Optional<StockItem> findBySku(Sku sku);

    List<StockItem> findAll();

    void save(StockItem item);
}

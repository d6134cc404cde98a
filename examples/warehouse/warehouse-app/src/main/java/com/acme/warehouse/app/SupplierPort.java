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

import java.util.List;

/**
 * The suppliers' ordering system, as the warehouse sees it.
 */
public interface SupplierPort {

    /**
     * Orders sent earlier whose goods have not arrived yet.
     */
    List<PurchaseOrder> openOrders();

    void submit(PurchaseOrder order);
}

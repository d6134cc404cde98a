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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SkuTest {

    @Test
    void normalizesCaseAndSurroundingBlanks() {
        Sku sku = Sku.of("  tool-000123 ");

        assertThat(sku.getCode()).isEqualTo("TOOL-000123");
        assertThat(sku).isEqualTo(Sku.of("TOOL-000123"));
    }

    @Test
    void rejectsCodesOfTheWrongShape() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Sku.of("TOOL-123"))
                .withMessage("SKU must look like ABC-000123: TOOL-123");
        assertThatIllegalArgumentException().isThrownBy(() -> Sku.of("TOOLBOX-000123"));
    }
}

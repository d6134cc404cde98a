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

import lombok.Value;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A stock keeping unit such as {@code TOOL-000123}: a category of two to five letters, a dash and six digits.
 */
@Value
public class Sku {

    private static final Pattern FORMAT = Pattern.compile("[A-Z]{2,5}-\\d{6}");

    String code;

    private Sku(String code) {
        this.code = code;
    }

    /**
     * Parses a SKU, ignoring case and surrounding blanks.
     *
     * @throws IllegalArgumentException if the code is blank or not of the form {@code ABC-000123}
     */
    public static Sku of(String code) {
        if (code == null || code.trim().isEmpty()) {
            throw new IllegalArgumentException("SKU must not be blank");
        }
        String normalized = code.trim().toUpperCase(Locale.ROOT);
        if (!FORMAT.matcher(normalized).matches()) {
            throw new IllegalArgumentException("SKU must look like ABC-000123: " + code);
        }
        return new Sku(normalized);
    }

    public String category() {
        return code.substring(0, code.indexOf('-'));
    }

    @Override
    public String toString() {
        return code;
    }
}

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

import lombok.Builder;
import lombok.Value;

/**
 * A storage bin, written {@code B-07-2}: zone letter, aisle and shelf level.
 * Zone {@code F} is chilled; level 0 is the floor.
 */
@Value
public class Location {

    public static final int MAX_AISLE = 40;
    public static final int MAX_LEVEL = 5;

    private static final char CHILLED_ZONE = 'F';
    private static final int HIGHEST_LEVEL_WITHOUT_FORKLIFT = 2;

    char zone;
    int aisle;
    int level;

    @Builder
    private Location(char zone, int aisle, int level) {
        if (zone < 'A' || zone > 'F') {
            throw new IllegalArgumentException("zone must be between A and F: " + zone);
        }
        if (aisle < 1 || aisle > MAX_AISLE) {
            throw new IllegalArgumentException("aisle must be between 1 and " + MAX_AISLE + ": " + aisle);
        }
        if (level < 0 || level > MAX_LEVEL) {
            throw new IllegalArgumentException("level must be between 0 and " + MAX_LEVEL + ": " + level);
        }
        this.zone = zone;
        this.aisle = aisle;
        this.level = level;
    }

    /**
     * Parses a code such as {@code B-07-2} or {@code b-7-2}.
     *
     * @throws IllegalArgumentException if the code is malformed or names no bin of this warehouse
     */
    public static Location parse(String code) {
        if (code == null) {
            throw new IllegalArgumentException("location code must not be null");
        }
        String[] parts = code.trim().split("-");
        if (parts.length != 3 || parts[0].length() != 1) {
            throw new IllegalArgumentException("location code must look like B-07-2: " + code);
        }
        try {
            return new Location(Character.toUpperCase(parts[0].charAt(0)),
                    Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("location code must look like B-07-2: " + code, e);
        }
    }

    public boolean isChilled() {
        return zone == CHILLED_ZONE;
    }

    public boolean needsForklift() {
        return level > HIGHEST_LEVEL_WITHOUT_FORKLIFT;
    }

    public String code() {
        return String.format("%c-%02d-%d", zone, aisle, level);
    }

    @Override
    public String toString() {
        return code();
    }
}

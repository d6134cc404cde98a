package com.acme.shop.infrastructure;

import com.acme.shop.domain.port.TimeSource;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * {@link TimeSource} backed by a {@link java.time.Clock}, the UTC system clock by default.
 */
public class SystemTimeSource implements TimeSource {

    private final Clock clock;

    public SystemTimeSource() {
        this(Clock.systemUTC());
    }

    public SystemTimeSource(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
    }

    @Override
    public Instant now() {
        return clock.instant();
    }
}

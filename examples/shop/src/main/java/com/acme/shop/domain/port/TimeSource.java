package com.acme.shop.domain.port;

import java.time.Instant;

/**
 * Source of the current time, so that time-dependent code stays testable.
 */
@FunctionalInterface
public interface TimeSource {

    Instant now();
}

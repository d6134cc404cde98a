package com.acme.shop.domain;

/**
 * Loyalty tiers; a customer's tier follows from their loyalty points.
 */
public enum CustomerTier {
    STANDARD(0, 0),
    SILVER(500, 5),
    GOLD(2_000, 10),
    PLATINUM(5_000, 15);

    private final int minimumPoints;
    private final int discountPercent;

    CustomerTier(int minimumPoints, int discountPercent) {
        this.minimumPoints = minimumPoints;
        this.discountPercent = discountPercent;
    }

    public int minimumPoints() {
        return minimumPoints;
    }

    public int discountPercent() {
        return discountPercent;
    }

    public boolean isAtLeast(CustomerTier other) {
        return compareTo(other) >= 0;
    }

    public static CustomerTier forPoints(int points) {
        if (points < 0) {
            throw new IllegalArgumentException("points must not be negative: " + points);
        }
        CustomerTier[] tiers = values();
        for (int i = tiers.length - 1; i > 0; i--) {
            if (points >= tiers[i].minimumPoints) {
                return tiers[i];
            }
        }
        return STANDARD;
    }
}

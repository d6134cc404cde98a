package com.acme.loyalty;

/**
 * Loyalty tiers; a member's tier follows from the points they have collected in total.
 */
public enum Tier {
    BRONZE(0, 0),
    SILVER(500, 5),
    GOLD(2_000, 10);

    private final int minimumPoints;
    private final int discountPercent;

    Tier(int minimumPoints, int discountPercent) {
        this.minimumPoints = minimumPoints;
        this.discountPercent = discountPercent;
    }

    public int minimumPoints() {
        return minimumPoints;
    }

    public int discountPercent() {
        return discountPercent;
    }

    public static Tier forPoints(int points) {
        if (points < 0) {
            throw new IllegalArgumentException("points must not be negative: " + points);
        }
        Tier[] tiers = values();
        for (int i = tiers.length - 1; i > 0; i--) {
            if (points >= tiers[i].minimumPoints) {
                return tiers[i];
            }
        }
        return BRONZE;
    }
}

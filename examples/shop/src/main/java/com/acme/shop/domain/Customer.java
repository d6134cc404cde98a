package com.acme.shop.domain;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A registered customer who collects loyalty points with every paid order.
 */
public class Customer {

    private static final Pattern EMAIL_PATTERN =
            Pattern.compile("^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)*\\.[A-Za-z]{2,}$");

    private final CustomerId id;
    private final String name;
    private String email;
    private int loyaltyPoints;

    public Customer(CustomerId id, String name, String email) {
        this.id = Objects.requireNonNull(id, "id must not be null");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        this.name = name.trim();
        this.email = validatedEmail(email);
    }

    public static boolean isValidEmail(String email) {
        return email != null && EMAIL_PATTERN.matcher(email.trim()).matches();
    }

    /**
     * Canonical form used for storage and look-ups: trimmed and lower case.
     */
    public static String normalizeEmail(String email) {
        return email == null ? null : email.trim().toLowerCase(Locale.ROOT);
    }

    private static String validatedEmail(String email) {
        if (!isValidEmail(email)) {
            throw new InvalidEmailException(email);
        }
        return normalizeEmail(email);
    }

    public CustomerId id() {
        return id;
    }

    public String name() {
        return name;
    }

    public String email() {
        return email;
    }

    public int loyaltyPoints() {
        return loyaltyPoints;
    }

    public CustomerTier tier() {
        return CustomerTier.forPoints(loyaltyPoints);
    }

    public void changeEmail(String newEmail) {
        this.email = validatedEmail(newEmail);
    }

    public void addLoyaltyPoints(int points) {
        if (points < 0) {
            throw new IllegalArgumentException("points must not be negative: " + points);
        }
        loyaltyPoints += points;
    }

    /**
     * One point per whole currency unit spent.
     */
    public void earnPointsFor(Money amountPaid) {
        Objects.requireNonNull(amountPaid, "amountPaid must not be null");
        addLoyaltyPoints(amountPaid.amount().intValue());
    }

    /**
     * @return {@code false} (and changes nothing) if the customer has too few points
     */
    public boolean redeemPoints(int points) {
        if (points <= 0) {
            throw new IllegalArgumentException("points must be positive: " + points);
        }
        if (points > loyaltyPoints) {
            return false;
        }
        loyaltyPoints -= points;
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Customer other && id.equals(other.id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "Customer[id=" + id + ", email=" + email + ", tier=" + tier() + "]";
    }
}

package com.acme.loyalty;

import java.util.Objects;

/**
 * A member of the loyalty programme. The tier follows from the points collected in total, so redeeming
 * points never lowers it.
 */
public class Member {

    private final String id;
    private final String name;
    private EmailAddress email;
    private int balance;
    private int lifetimePoints;

    public Member(String id, String name, EmailAddress email) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("id must not be blank");
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        this.id = id;
        this.name = name.trim();
        this.email = Objects.requireNonNull(email, "email must not be null");
    }

    public String id() {
        return id;
    }

    public String name() {
        return name;
    }

    public EmailAddress email() {
        return email;
    }

    public int balance() {
        return balance;
    }

    public int lifetimePoints() {
        return lifetimePoints;
    }

    public Tier tier() {
        return Tier.forPoints(lifetimePoints);
    }

    public void changeEmail(EmailAddress newEmail) {
        this.email = Objects.requireNonNull(newEmail, "newEmail must not be null");
    }

    public void earn(int points) {
        if (points < 0) {
            throw new IllegalArgumentException("points must not be negative: " + points);
        }
        balance += points;
        lifetimePoints += points;
    }

    /**
     * @return {@code false} (and changes nothing) if the balance is too low
     */
    public boolean redeem(int points) {
        if (points <= 0) {
            throw new IllegalArgumentException("points must be positive: " + points);
        }
        if (points > balance) {
            return false;
        }
        balance -= points;
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Member other && id.equals(other.id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "Member[id=" + id + ", email=" + email + ", tier=" + tier() + "]";
    }
}

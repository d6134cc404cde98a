package com.acme.loyalty;

/**
 * Tells members about their new tier (by e-mail in production).
 */
public interface TierNotifier {

    void tierReached(Member member, Tier tier);
}

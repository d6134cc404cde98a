package com.acme.loyalty;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.UUID;

/**
 * Enrols members, awards points for purchases (one per whole euro, doubled for gold members) and redeems them.
 */
public class LoyaltyService {

    public static final int WELCOME_POINTS = 50;

    private final MemberRepository members;
    private final TierNotifier notifier;

    public LoyaltyService(MemberRepository members, TierNotifier notifier) {
        this.members = Objects.requireNonNull(members, "members must not be null");
        this.notifier = Objects.requireNonNull(notifier, "notifier must not be null");
    }

    /**
     * @throws IllegalArgumentException if the e-mail address is malformed
     * @throws IllegalStateException    if the e-mail address is already enrolled
     */
    public Member enrol(String name, String email) {
        EmailAddress address = EmailAddress.of(email);
        members.findByEmail(address).ifPresent(existing -> {
            throw new IllegalStateException("already enrolled: " + address);
        });
        Member member = new Member(UUID.randomUUID().toString(), name, address);
        member.earn(WELCOME_POINTS);
        members.save(member);
        return member;
    }

    /**
     * Awards points for a purchase and tells the member when it lifts them into a higher tier.
     *
     * @return the points awarded
     */
    public int awardPurchase(String memberId, BigDecimal amount) {
        Objects.requireNonNull(amount, "amount must not be null");
        if (amount.signum() < 0) {
            throw new IllegalArgumentException("amount must not be negative: " + amount);
        }
        Member member = load(memberId);
        Tier before = member.tier();
        int points = amount.setScale(0, RoundingMode.DOWN).intValueExact();
        if (before == Tier.GOLD) {
            points *= 2;
        }
        member.earn(points);
        members.save(member);
        if (member.tier() != before) {
            notifier.tierReached(member, member.tier());
        }
        return points;
    }

    /**
     * @return {@code false} if the member has too few points; nothing is saved then
     */
    public boolean redeem(String memberId, int points) {
        Member member = load(memberId);
        if (!member.redeem(points)) {
            return false;
        }
        members.save(member);
        return true;
    }

    private Member load(String memberId) {
        return members.findById(memberId)
                .orElseThrow(() -> new NoSuchElementException("no member " + memberId));
    }
}

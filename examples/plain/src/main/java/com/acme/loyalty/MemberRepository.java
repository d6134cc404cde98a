package com.acme.loyalty;

import java.util.Optional;

/**
 * Where members are stored.
 */
public interface MemberRepository {

    Optional<Member> findById(String id);

    Optional<Member> findByEmail(EmailAddress email);

    void save(Member member);
}

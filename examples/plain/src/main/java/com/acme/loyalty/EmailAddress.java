package com.acme.loyalty;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A syntactically valid e-mail address in canonical form: trimmed and lower case.
 */
public final class EmailAddress {

    private static final Pattern FORMAT = Pattern.compile("^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)*\\.[a-z]{2,}$");
    private static final int MAX_LENGTH = 254;

    private final String value;

    private EmailAddress(String value) {
        this.value = value;
    }

    /**
     * @throws IllegalArgumentException if {@code raw} is blank, too long or not an e-mail address
     */
    public static EmailAddress of(String raw) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException("e-mail address must not be blank");
        }
        String normalized = raw.trim().toLowerCase(Locale.ROOT);
        if (normalized.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("e-mail address is longer than " + MAX_LENGTH + " characters");
        }
        if (!FORMAT.matcher(normalized).matches()) {
            throw new IllegalArgumentException("not an e-mail address: " + raw);
        }
        return new EmailAddress(normalized);
    }

    public static boolean isValid(String raw) {
        try {
            of(raw);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    public String value() {
        return value;
    }

    public String domain() {
        return value.substring(value.indexOf('@') + 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EmailAddress other && value.equals(other.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}

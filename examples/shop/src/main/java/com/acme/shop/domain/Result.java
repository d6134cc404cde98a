package com.acme.shop.domain;

import java.util.Objects;
import java.util.function.Function;

/**
 * Outcome of an operation that can fail in an expected way: either a value or an error message.
 *
 * @param <T> type of the success value
 */
public sealed interface Result<T> permits Result.Ok, Result.Err {

    record Ok<T>(T value) implements Result<T> {
        public Ok {
            Objects.requireNonNull(value, "value must not be null");
        }
    }

    record Err<T>(String error) implements Result<T> {
        public Err {
            Objects.requireNonNull(error, "error must not be null");
        }
    }

    static <T> Result<T> ok(T value) {
        return new Ok<>(value);
    }

    static <T> Result<T> err(String error) {
        return new Err<>(error);
    }

    default boolean isOk() {
        return this instanceof Ok<T>;
    }

    default <R> Result<R> map(Function<? super T, ? extends R> mapper) {
        Objects.requireNonNull(mapper, "mapper must not be null");
        if (this instanceof Ok<T> ok) {
            return ok(mapper.apply(ok.value()));
        }
        return err(((Err<T>) this).error());
    }

    default T orElse(T fallback) {
        return this instanceof Ok<T> ok ? ok.value() : fallback;
    }

    default T orElseThrow() {
        if (this instanceof Err<T> err) {
            throw new IllegalStateException(err.error());
        }
        return ((Ok<T>) this).value();
    }
}

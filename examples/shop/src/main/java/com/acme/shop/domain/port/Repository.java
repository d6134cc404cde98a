package com.acme.shop.domain.port;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Generic persistence port for aggregates.
 *
 * @param <T>  aggregate type
 * @param <ID> identity type
 */
public interface Repository<T, ID> {

    Optional<T> findById(ID id);

    List<T> findAll();

    /**
     * Inserts or replaces the aggregate and returns it.
     */
    T save(T entity);

    default boolean existsById(ID id) {
        return findById(id).isPresent();
    }

    /**
     * @throws NoSuchElementException if there is no aggregate with that id
     */
    default T getById(ID id) {
        return findById(id).orElseThrow(() -> new NoSuchElementException("Nothing found with id " + id));
    }
}

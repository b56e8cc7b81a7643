package dev.bookstore.ordering.domain.order;

import java.util.Objects;
import java.util.UUID;

/** The customer who places an order; owned by another service, so ordering only keeps the id. */
public record CustomerId(UUID value) {

    public CustomerId {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
        return value.toString();
    }
}

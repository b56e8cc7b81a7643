package dev.bookstore.ordering.domain.order;

import dev.bookstore.ordering.domain.shared.UuidV7;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** Identity of an {@link Order}; a version 7 UUID made when the order is placed. */
public record OrderId(UUID value) {

    public OrderId {
        Objects.requireNonNull(value, "value");
    }

    public static OrderId newId(Instant now) {
        return new OrderId(UuidV7.at(now));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}

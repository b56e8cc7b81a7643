package dev.bookstore.ordering.adapters.persistence;

import java.util.Optional;
import java.util.UUID;

/**
 * MariaDB: the order's {@code INSERT}, then its lines as one JDBC batch (Connector/J sends it as one bulk command);
 * ids bound as text into the {@code uuid} columns. A text of several statements would need
 * {@code allowMultiQueries} on the connection, which the service does not ask its users to set.
 */
final class MariaDbOrderDialect implements OrderDialect {

    @Override
    public Optional<String> insertWithLines(int lines) {
        return Optional.empty();
    }

    @Override
    public Object id(UUID id) {
        return id.toString();
    }
}

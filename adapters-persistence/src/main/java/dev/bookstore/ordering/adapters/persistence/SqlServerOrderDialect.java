package dev.bookstore.ordering.adapters.persistence;

import java.util.Optional;
import java.util.UUID;

/** SQL Server: the order's {@code INSERT}, then its lines as one JDBC batch; ids bound as text. */
final class SqlServerOrderDialect implements OrderDialect {

    @Override
    public Optional<String> insertWithLines(int lines) {
        return Optional.empty();
    }

    @Override
    public Object id(UUID id) {
        return id.toString();
    }
}

package dev.bookstore.ordering.adapters.persistence;

import java.util.Optional;

/** The order statements that differ by engine; {@link OrderSql} holds the rest, in SQL every engine accepts. */
sealed interface OrderDialect permits PostgresOrderDialect, SqlServerOrderDialect, MariaDbOrderDialect {

    static OrderDialect of(Database database) {
        return database.pick(PostgresOrderDialect::new, SqlServerOrderDialect::new, MariaDbOrderDialect::new);
    }

    /**
     * Where the engine can: the order and its {@code lines} lines as one statement. Parameters: those of
     * {@link OrderSql#INSERT_ORDER}, then those of {@link OrderSql#INSERT_LINE} for each line in order. Empty where
     * the order's {@code INSERT} is followed by a batch of line {@code INSERT}s.
     */
    default Optional<String> insertWithLines(int lines) {
        return Optional.empty();
    }
}

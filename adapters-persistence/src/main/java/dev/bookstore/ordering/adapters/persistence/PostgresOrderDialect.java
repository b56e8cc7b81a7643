package dev.bookstore.ordering.adapters.persistence;

import dev.bookstore.ordering.domain.order.Order;
import java.util.Optional;

/**
 * PostgreSQL: the order's {@code INSERT} as a data-modifying {@code WITH}, then one line {@code INSERT} with a row of
 * values per line, so placing an order is one statement (the lines' foreign key is checked at the statement's end).
 */
final class PostgresOrderDialect implements OrderDialect {

    /** By number of lines, built when first used (index 0 unused); a race only builds the same string twice. */
    private static final String[] INSERT_WITH_LINES = new String[Order.MAX_LINES + 1];

    @Override
    public Optional<String> insertWithLines(int lines) {
        if (lines < 1 || lines > Order.MAX_LINES) {
            throw new IllegalArgumentException("an order has 1 to %d lines, not %d".formatted(Order.MAX_LINES, lines));
        }
        String sql = INSERT_WITH_LINES[lines];
        if (sql == null) {
            String line = OrderSql.INSERT_LINE;
            String values = line.substring(line.indexOf("VALUES ") + "VALUES ".length());
            sql = "WITH placed AS (" + OrderSql.INSERT_ORDER + ")\n" + line + (", " + values).repeat(lines - 1);
            INSERT_WITH_LINES[lines] = sql;
        }
        return Optional.of(sql);
    }
}

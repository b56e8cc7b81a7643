package dev.bookstore.ordering.adapters.persistence;

import dev.bookstore.ordering.domain.order.BookId;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.Order;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.order.OrderLine;
import dev.bookstore.ordering.domain.order.OrderStatus;
import dev.bookstore.ordering.domain.shared.Money;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The order's statements. Placing an order inserts the order and its lines and nothing else, never reading first
 * (one statement where the dialect has it, written behind with the transaction's other inserts). One order, or the
 * newest ones, is read with its lines in one query. A status change is accepted only while the row still has the
 * version read (optimistic locking).
 */
final class OrderSql {

    static final String INSERT_ORDER = """
            INSERT INTO orders (id, customer_id, currency, total, status, placed_at, version)
            VALUES (?, ?, ?, ?, ?, ?, 0)""";

    static final String INSERT_LINE = """
            INSERT INTO order_line (order_id, line_no, book_id, quantity, unit_price) VALUES (?, ?, ?, ?, ?)""";

    /** Parameter: the order id. The columns of {@link #NEWEST_FIRST}, then the version. */
    static final String FIND_BY_ID = """
            SELECT o.id, o.customer_id, o.currency, o.status, o.placed_at, l.book_id, l.quantity, l.unit_price,
                   o.version
              FROM orders o
              JOIN order_line l ON l.order_id = o.id
             WHERE o.id = ?
             ORDER BY l.line_no""";

    /** Parameters: the new status, the order id, the version read. No row changed: another transaction did. */
    static final String UPDATE_STATUS = """
            UPDATE orders SET status = ?, version = version + 1 WHERE id = ? AND version = ?""";

    static final String NEWEST_FIRST = newestFirst("");

    /** Parameters: the customer id, the limit. */
    static final String NEWEST_FIRST_OF_CUSTOMER = newestFirst("WHERE customer_id = ? ");

    private static String newestFirst(String where) {
        return """
                SELECT o.id, o.customer_id, o.currency, o.status, o.placed_at, l.book_id, l.quantity, l.unit_price
                  FROM (SELECT id, customer_id, currency, status, placed_at FROM orders %s
                         ORDER BY placed_at DESC, id DESC
                         OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY) o
                  JOIN order_line l ON l.order_id = o.id
                 ORDER BY o.placed_at DESC, o.id DESC, l.line_no""".formatted(where);
    }

    private final JdbcTemplate jdbc;
    private final WriteBehind writes;
    private final Database database;
    private final OrderDialect dialect;

    OrderSql(DataSource dataSource) {
        this.database = Database.of(dataSource);
        this.jdbc = new JdbcTemplate(dataSource);
        this.writes = new WriteBehind(dataSource, database);
        this.dialect = OrderDialect.of(database);
    }

    /** The order and its lines: one statement written behind where the dialect has it, else two round trips. */
    void insert(Order order) {
        Object orderId = id(order.id().value());
        List<OrderLine> lines = order.lines();
        Optional<String> oneStatement = dialect.insertWithLines(lines.size());
        if (oneStatement.isPresent()) {
            writes.write(oneStatement.get(), (statement, first) -> {
                int next = bindOrder(statement, first, order, orderId);
                for (int lineNo = 0; lineNo < lines.size(); lineNo++) {
                    next = bindLine(statement, next, orderId, lineNo, lines.get(lineNo));
                }
                return next;
            });
            return;
        }
        jdbc.update(INSERT_ORDER, statement -> bindOrder(statement, 1, order, orderId));
        List<Integer> lineNumbers = IntStream.range(0, lines.size()).boxed().toList();
        jdbc.batchUpdate(INSERT_LINE, lineNumbers, lines.size(),
                (statement, lineNo) -> bindLine(statement, 1, orderId, lineNo, lines.get(lineNo)));
    }

    /** The six parameters of {@link #INSERT_ORDER} from {@code first} on; the position after them. */
    private int bindOrder(PreparedStatement statement, int first, Order order, Object orderId) throws SQLException {
        statement.setObject(first, orderId);
        statement.setObject(first + 1, id(order.customerId().value()));
        statement.setString(first + 2, order.currency().getCurrencyCode());
        statement.setBigDecimal(first + 3, order.total().amount());
        statement.setString(first + 4, order.status().name());
        statement.setObject(first + 5, database.timestamp(order.placedAt()));
        return first + 6;
    }

    /** The five parameters of {@link #INSERT_LINE} from {@code first} on; the position after them. */
    private static int bindLine(PreparedStatement statement, int first, Object orderId, int lineNo, OrderLine line)
            throws SQLException {
        statement.setObject(first, orderId);
        statement.setInt(first + 1, lineNo);
        statement.setString(first + 2, line.bookId().value());
        statement.setInt(first + 3, line.quantity());
        statement.setBigDecimal(first + 4, line.unitPrice().amount());
        return first + 5;
    }

    /** The order with the version it has now; empty if there is none. */
    Optional<Versioned> find(OrderId id) {
        writes.flush();
        return jdbc.query(FIND_BY_ID, rs -> {
            if (!rs.next()) {
                return Optional.<Versioned>empty();
            }
            long version = rs.getLong(9);
            Row order = Row.of(rs, database);
            do {
                order.addLine(rs);
            } while (rs.next());
            return Optional.of(new Versioned(order.toOrder(), version));
        }, id(id.value()));
    }

    /** Sets the order's status if its row still has {@code version}; whether it had. */
    boolean updateStatus(Order order, long version) {
        writes.flush();
        return jdbc.update(UPDATE_STATUS, order.status().name(), id(order.id().value()), version) == 1;
    }

    List<Order> newestFirst(int limit) {
        writes.flush();
        return jdbc.query(NEWEST_FIRST, this::toOrders, limit);
    }

    List<Order> newestFirstOf(CustomerId customer, int limit) {
        writes.flush();
        return jdbc.query(NEWEST_FIRST_OF_CUSTOMER, this::toOrders, id(customer.value()), limit);
    }

    private Object id(UUID id) {
        return database.id(id);
    }

    private List<Order> toOrders(ResultSet rs) throws SQLException {
        List<Order> orders = new ArrayList<>();
        Row current = null;
        while (rs.next()) {
            if (current == null || !current.id.equals(UUID.fromString(rs.getString(1)))) {
                if (current != null) {
                    orders.add(current.toOrder());
                }
                current = Row.of(rs, database);
            }
            current.addLine(rs);
        }
        if (current != null) {
            orders.add(current.toOrder());
        }
        return orders;
    }

    /** An order and the version its row had when it was read. */
    record Versioned(Order order, long version) {
    }

    private static final class Row {

        private final UUID id;
        private final UUID customerId;
        private final Currency currency;
        private final OrderStatus status;
        private final Instant placedAt;
        private final List<OrderLine> lines = new ArrayList<>();

        Row(UUID id, UUID customerId, Currency currency, OrderStatus status, Instant placedAt) {
            this.id = id;
            this.customerId = customerId;
            this.currency = currency;
            this.status = status;
            this.placedAt = placedAt;
        }

        /** The order of the current row (columns 1 to 5), without lines. */
        static Row of(ResultSet rs, Database database) throws SQLException {
            return new Row(UUID.fromString(rs.getString(1)), UUID.fromString(rs.getString(2)),
                    Currency.getInstance(rs.getString(3)), OrderStatus.valueOf(rs.getString(4)),
                    database.instant(rs, 5));
        }

        /** The line of the current row (columns 6 to 8). */
        void addLine(ResultSet rs) throws SQLException {
            lines.add(new OrderLine(new BookId(rs.getString(6)), rs.getInt(7),
                    new Money(rs.getBigDecimal(8), currency)));
        }

        Order toOrder() {
            return Order.reconstitute(new OrderId(id), new CustomerId(customerId), currency, lines, status,
                    placedAt);
        }
    }
}

package dev.bookstore.ordering.bootstrap.benchmark;

import dev.bookstore.ordering.domain.shared.UuidV7;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * Fills {@code outbox_message} with pending {@code bookstore.order-placed.v1} rows the way the service writes
 * them (UUIDv7 event ids, a JSON body of about 400 bytes, a {@code traceparent} header), a thousand rows per
 * statement. Every fill starts from an empty, freshly vacuumed table, so each relay finds the same state.
 */
final class OutboxSeeder {

    private static final int ROWS_PER_STATEMENT = 1_000;

    private static final String INSERT = """
            INSERT INTO outbox_message
                (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
            SELECT r.id, 'order', r.aggregate_id, 'bookstore.order-placed.v1', ?, 'order.placed',
                   CAST(r.payload AS jsonb), CAST(r.headers AS jsonb), CAST(r.occurred_at AS timestamptz)
              FROM unnest(?::uuid[], ?::varchar[], ?::text[], ?::text[], ?::text[])
                   AS r(id, aggregate_id, payload, headers, occurred_at)""";

    private static final String[] BOOKS = {"978-0134494166", "978-0321125217", "978-1617294945",
        "978-0596007126", "978-1492056300", "978-0137081073"};

    private final DataSource dataSource;
    private final String exchange;
    private final int perAggregate;

    /**
     * {@code perAggregate} rows share one aggregate id (an order placed, then changed), spread over the whole fill
     * as a live service writes them: row {@code r} belongs to aggregate {@code r mod (count / perAggregate)}, so an
     * aggregate's next row comes only after a row of every other aggregate. It matters only to ordered mode, which
     * may claim just the oldest unpublished row of each aggregate.
     */
    OutboxSeeder(DataSource dataSource, String exchange, int perAggregate) {
        if (perAggregate < 1) {
            throw new IllegalArgumentException("perAggregate must be at least 1, was " + perAggregate);
        }
        this.dataSource = dataSource;
        this.exchange = exchange;
        this.perAggregate = perAggregate;
    }

    /** Empties the outbox and fills it with {@code count} pending rows; returns their ids (= message ids). */
    Set<UUID> seed(int count) throws SQLException {
        Set<UUID> ids = new LinkedHashSet<>(count * 2);
        Instant first = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusMillis(count);
        int aggregates = Math.max(1, count / perAggregate);
        String[] aggregateIds = new String[aggregates];
        for (int a = 0; a < aggregates; a++) {
            aggregateIds[a] = UuidV7.at(first.plusMillis(a)).toString();
        }
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("TRUNCATE outbox_message");
            }
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                for (int from = 0; from < count; from += ROWS_PER_STATEMENT) {
                    int rows = Math.min(ROWS_PER_STATEMENT, count - from);
                    UUID[] id = new UUID[rows];
                    String[] aggregateId = new String[rows];
                    String[] payload = new String[rows];
                    String[] headers = new String[rows];
                    String[] occurredAt = new String[rows];
                    for (int i = 0; i < rows; i++) {
                        Instant occurred = first.plusMillis(from + i);
                        id[i] = UuidV7.at(occurred);
                        aggregateId[i] = aggregateIds[(from + i) % aggregates];
                        payload[i] = orderPlaced(aggregateId[i], occurred);
                        headers[i] = "{\"traceparent\":\"" + traceparent() + "\"}";
                        occurredAt[i] = occurred.toString();
                        ids.add(id[i]);
                    }
                    insert.setString(1, exchange);
                    insert.setArray(2, connection.createArrayOf("uuid", id));
                    insert.setArray(3, connection.createArrayOf("varchar", aggregateId));
                    insert.setArray(4, connection.createArrayOf("text", payload));
                    insert.setArray(5, connection.createArrayOf("text", headers));
                    insert.setArray(6, connection.createArrayOf("text", occurredAt));
                    insert.executeUpdate();
                }
            }
            try (Statement statement = connection.createStatement()) {
                // no autovacuum or stale statistics in the middle of a timed drain
                statement.execute("VACUUM ANALYZE outbox_message");
            }
        }
        if (ids.size() != count) {
            throw new IllegalStateException("duplicate ids while seeding");
        }
        return ids;
    }

    /** Throws unless every row of the last fill is published and none is pending, parked or leased. */
    void expectAllPublished(int count) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("""
                     SELECT count(*) FILTER (WHERE status = 'PUBLISHED' AND published_at IS NOT NULL),
                            count(*) FILTER (WHERE published_at IS NULL),
                            count(*)
                       FROM outbox_message""")) {
            row.next();
            long published = row.getLong(1);
            long unpublished = row.getLong(2);
            long all = row.getLong(3);
            if (published != count || unpublished != 0 || all != count) {
                throw new IllegalStateException("outbox after the drain: %d rows, %d published, %d not published; "
                        .formatted(all, published, unpublished) + "expected all " + count + " published");
            }
        }
    }

    /** A body like the one {@code OrderEventContract} writes for an order of four lines, about 400 bytes. */
    private static String orderPlaced(String orderId, Instant placedAt) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder body = new StringBuilder(420)
                .append("{\"orderId\":\"").append(orderId)
                .append("\",\"customerId\":\"").append(new UUID(random.nextLong(), random.nextLong()))
                .append("\",\"total\":\"");
        StringBuilder items = new StringBuilder(260);
        long totalCents = 0;
        for (int line = 0; line < 4; line++) {
            int quantity = 1 + random.nextInt(3);
            long unitCents = 495 + random.nextInt(6_000);
            totalCents += quantity * unitCents;
            items.append(line == 0 ? "" : ",")
                    .append("{\"bookId\":\"").append(BOOKS[random.nextInt(BOOKS.length)])
                    .append("\",\"quantity\":").append(quantity)
                    .append(",\"unitPrice\":\"").append(cents(unitCents)).append("\"}");
        }
        return body.append(cents(totalCents)).append("\",\"currency\":\"EUR\",\"placedAt\":\"").append(placedAt)
                .append("\",\"items\":[").append(items).append("]}").toString();
    }

    private static String cents(long cents) {
        return cents / 100 + "." + (cents % 100 < 10 ? "0" : "") + cents % 100;
    }

    private static String traceparent() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "00-%016x%016x-%016x-01".formatted(random.nextLong(), random.nextLong(), random.nextLong());
    }
}

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The plain-JDBC half of the database baseline: the writes the service makes per order, nothing else, on the engine
 * the URL names. C threads, each with its own connection (autoCommit off, READ COMMITTED as the service's pool
 * sets it, prepared statements made once), write orders back to back for the given seconds; one order is one
 * transaction. The client makes the ids, as the service does.
 *
 * <p>PostgreSQL ({@code jdbc:postgresql:}), the statements of order.pgb: three statements sent together in one round
 * trip, as the service writes them behind, and a COMMIT:
 *
 * <pre>
 *   WITH placed AS (INSERT INTO orders ... VALUES (?, ...))     -- the order id made here, as the service does
 *   INSERT INTO order_line ... VALUES (?, ...), (?, ...);       -- with its two lines in one statement
 *   INSERT INTO event_publication ...;                          -- Spring Modulith's registry, one listener
 *   INSERT INTO outbox_message ... CAST(? AS jsonb), CAST(? AS jsonb) ...
 *   COMMIT
 * </pre>
 *
 * <p>MariaDB ({@code jdbc:mariadb:}), as the service writes there (MariaDbOrderDialect, MariaDbOutboxDialect,
 * Spring Modulith's JDBC registry): nothing written behind, one round trip per statement, ids bound as text into
 * the {@code uuid} columns, times {@code datetime(6)} in UTC:
 *
 * <pre>
 *   INSERT INTO orders ... VALUES (?, ..., UTC_TIMESTAMP(6), 0)
 *   INSERT INTO order_line ... VALUES (?, ?, ?, ?, ?)            -- its two lines as one JDBC batch
 *   INSERT INTO EVENT_PUBLICATION ...                            -- Spring Modulith's registry, one listener
 *   INSERT INTO outbox_message ... VALUES (?, ..., UTC_TIMESTAMP(6))
 *   COMMIT
 * </pre>
 *
 * The values are those of order.pgb, bound as parameters. The rows stay behind; run.sh truncates the tables after
 * every baseline run. Prints errors (the first five) to stderr and one line to stdout:
 * {@code RESULT clients=8 orders=12345 seconds=15.00 tps=823.0 avg_ms=9.71 p50_ms=8.20 p99_ms=25.10 errors=0}.
 *
 * <p>Run (JDK 17 single-file launcher): {@code java -cp postgresql.jar PlainJdbcOrders.java --url jdbc:postgresql://
 * 127.0.0.1:5432/ordering_bench --user postgres --clients 8 --seconds 15 [--warmup-seconds 2]}, or with
 * {@code -cp mariadb-java-client.jar} and {@code --url jdbc:mariadb://127.0.0.1:3306/ordering_bench --user root}.
 */
public class PlainJdbcOrders {

    static final String INSERT_ORDER_WITH_LINES = "WITH placed AS (INSERT INTO orders (id, customer_id, currency,"
            + " total, status, placed_at, version) VALUES (?, ?, ?, ?, ?, now(), 0))"
            + " INSERT INTO order_line (order_id, line_no, book_id, quantity, unit_price)"
            + " VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)";
    static final String INSERT_OUTBOX = "INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange,"
            + " routing_key, payload, headers, occurred_at) VALUES (gen_random_uuid(), ?, ?, ?, ?, ?,"
            + " CAST(? AS jsonb), CAST(? AS jsonb), now())";

    static final String INSERT_PUBLICATION = "INSERT INTO event_publication (id, listener_id, event_type,"
            + " serialized_event, publication_date, status, completion_attempts, last_resubmission_date)"
            + " VALUES (gen_random_uuid(), ?, ?, ?, now(), 'PUBLISHED', 1, now())";

    /**
     * The three as one statement text, in the order the service writes them: the driver sends them in one round
     * trip, as the service's write-behind does (WriteBehind), then the COMMIT.
     */
    static final String WRITES = INSERT_ORDER_WITH_LINES + ";\n" + INSERT_PUBLICATION + ";\n" + INSERT_OUTBOX;

    /** MariaDB: the service's statements there, one round trip each (OrderSql, MariaDbOutboxDialect, Modulith). */
    static final String MARIADB_INSERT_ORDER = "INSERT INTO orders (id, customer_id, currency, total, status,"
            + " placed_at, version) VALUES (?, ?, ?, ?, ?, UTC_TIMESTAMP(6), 0)";
    static final String MARIADB_INSERT_LINE = "INSERT INTO order_line (order_id, line_no, book_id, quantity,"
            + " unit_price) VALUES (?, ?, ?, ?, ?)";
    /** Spring Modulith's insert, its columns in its order; the registry's times are {@code timestamp(6)}. */
    static final String MARIADB_INSERT_PUBLICATION = "INSERT INTO EVENT_PUBLICATION (ID, EVENT_TYPE, LISTENER_ID,"
            + " PUBLICATION_DATE, SERIALIZED_EVENT, STATUS, COMPLETION_ATTEMPTS, LAST_RESUBMISSION_DATE)"
            + " VALUES (?, ?, ?, NOW(6), ?, 'PUBLISHED', 1, NOW(6))";
    static final String MARIADB_INSERT_OUTBOX = "INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type,"
            + " exchange, routing_key, payload, headers, occurred_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6))";

    static final UUID CUSTOMER = UUID.fromString("0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60");
    static final BigDecimal TOTAL = new BigDecimal("134.79");
    static final String PAYLOAD = "{\"orderId\":\"x\",\"customerId\":\"0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60\","
            + "\"total\":\"134.79\",\"currency\":\"EUR\",\"items\":[{\"bookId\":\"978-0134494166\",\"quantity\":2,"
            + "\"unitPrice\":\"39.90\"},{\"bookId\":\"978-0321125217\",\"quantity\":1,\"unitPrice\":\"54.99\"}]}";
    /** The {@code OrderPlaced} event as the registry serializes it for the service's one in-process listener. */
    static final String EVENT = "{\"eventId\":\"01a24289-ffff-789e-ae48-9f8fb3749b7d\","
            + "\"occurredAt\":\"2026-12-04T19:31:09.951622Z\","
            + "\"orderId\":{\"value\":\"01a24289-ffff-747e-9746-f63b2303ad0d\"},"
            + "\"customerId\":{\"value\":\"0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60\"},"
            + "\"total\":{\"amount\":134.79,\"currency\":\"EUR\",\"positive\":true},"
            + "\"lines\":[{\"bookId\":{\"value\":\"978-0134494166\"},\"quantity\":2,"
            + "\"unitPrice\":{\"amount\":39.90,\"currency\":\"EUR\",\"positive\":true}},"
            + "{\"bookId\":{\"value\":\"978-0321125217\"},\"quantity\":1,"
            + "\"unitPrice\":{\"amount\":54.99,\"currency\":\"EUR\",\"positive\":true}}]}";
    static final String HEADERS = "{\"traceparent\":\"00-31e920cff5767786d4644e60b915f9ef-2eae8bafbc9c7c32-01\"}";

    public static void main(String[] args) throws Exception {
        String url = null;
        String user = "postgres";
        String password = System.getenv().getOrDefault("PGPASSWORD", "");
        int clients = 1;
        double seconds = 15;
        double warmupSeconds = 2;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> url = args[++i];
                case "--user" -> user = args[++i];
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--warmup-seconds" -> warmupSeconds = Double.parseDouble(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (url == null) {
            throw new IllegalArgumentException("--url is required");
        }
        boolean mariadb = url.startsWith("jdbc:mariadb:");
        if (!mariadb && !url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--url: jdbc:postgresql: or jdbc:mariadb:, not " + url);
        }
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);

        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Connection connection = DriverManager.getConnection(url, props);
            connection.setAutoCommit(false);
            // as the service's pool sets it (spring.datasource.hikari.transaction-isolation); PostgreSQL's default
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connections.add(connection);
        }

        // Untimed warm-up (JIT, server-side prepared statements), then the timed run with fresh recorders.
        if (warmupSeconds > 0) {
            run(connections, mariadb, warmupSeconds, 1024);
        }
        Result result = run(connections, mariadb, seconds, 65536);
        for (Connection connection : connections) {
            connection.close();
        }

        long[] all = result.latenciesNs;
        Arrays.sort(all);
        double avgMs = all.length == 0 ? 0 : Arrays.stream(all).average().orElse(0) / 1e6;
        double tps = all.length / result.elapsedSeconds;
        System.out.printf(java.util.Locale.ROOT,
                "RESULT clients=%d orders=%d seconds=%.2f tps=%.1f avg_ms=%.3f p50_ms=%.3f p99_ms=%.3f errors=%d%n",
                clients, all.length, result.elapsedSeconds, tps, avgMs, percentile(all, 0.50) / 1e6,
                percentile(all, 0.99) / 1e6, result.errors);
    }

    record Result(long[] latenciesNs, double elapsedSeconds, long errors) {
    }

    static Result run(List<Connection> connections, boolean mariadb, double seconds, int initialCapacity)
            throws InterruptedException {
        int clients = connections.size();
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong errors = new AtomicLong();
        long[][] perThread = new long[clients][];
        int[] counts = new int[clients];
        long durationNs = (long) (seconds * 1e9);
        long[] startHolder = new long[1];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            final int index = t;
            Connection connection = connections.get(t);
            Thread thread = new Thread(() -> {
                long[] latencies = new long[initialCapacity];
                int n = 0;
                try (OrderWriter writer = mariadb ? new MariaDbWriter(connection) : new PostgresWriter(connection)) {
                    ready.countDown();
                    go.await();
                    long end = startHolder[0] + durationNs;
                    while (true) {
                        long begin = System.nanoTime();
                        if (begin - end >= 0) {
                            break;
                        }
                        try {
                            writer.placeOrder();
                            connection.commit();
                        } catch (SQLException e) {
                            if (errors.incrementAndGet() <= 5) {
                                System.err.println("jdbc: " + e.getMessage());
                            }
                            try {
                                connection.rollback();
                            } catch (SQLException ignored) {
                                // the next order reports the connection if it is gone
                            }
                            continue;
                        }
                        if (n == latencies.length) {
                            latencies = Arrays.copyOf(latencies, n * 2);
                        }
                        latencies[n++] = System.nanoTime() - begin;
                    }
                } catch (SQLException | InterruptedException e) {
                    errors.incrementAndGet();
                    System.err.println("jdbc: " + e);
                    ready.countDown();
                }
                perThread[index] = latencies;
                counts[index] = n;
            }, "jdbc-client-" + t);
            threads.add(thread);
            thread.start();
        }
        ready.await();
        startHolder[0] = System.nanoTime();
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        double elapsed = (System.nanoTime() - startHolder[0]) / 1e9;
        int total = 0;
        for (int count : counts) {
            total += count;
        }
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < clients; t++) {
            if (perThread[t] != null) {
                System.arraycopy(perThread[t], 0, all, at, counts[t]);
                at += counts[t];
            }
        }
        return new Result(Arrays.copyOf(all, at), elapsed, errors.get());
    }

    /** One order's writes on one connection, its statements prepared once; the caller commits. */
    interface OrderWriter extends AutoCloseable {
        void placeOrder() throws SQLException;

        @Override
        void close() throws SQLException;
    }

    /** PostgreSQL: the three inserts in one statement text, one round trip (order.pgb). */
    static final class PostgresWriter implements OrderWriter {

        private final PreparedStatement writes;

        PostgresWriter(Connection connection) throws SQLException {
            this.writes = connection.prepareStatement(WRITES);
        }

        @Override
        public void placeOrder() throws SQLException {
            UUID orderId = UUID.randomUUID();
            int i = 1;
            writes.setObject(i++, orderId);
            writes.setObject(i++, CUSTOMER);
            writes.setString(i++, "EUR");
            writes.setBigDecimal(i++, TOTAL);
            writes.setString(i++, "PLACED");
            writes.setObject(i++, orderId);
            writes.setInt(i++, 1);
            writes.setString(i++, "978-0134494166");
            writes.setInt(i++, 2);
            writes.setBigDecimal(i++, new BigDecimal("39.90"));
            writes.setObject(i++, orderId);
            writes.setInt(i++, 2);
            writes.setString(i++, "978-0321125217");
            writes.setInt(i++, 1);
            writes.setBigDecimal(i++, new BigDecimal("54.99"));
            writes.setString(i++, "customer-order-summary.order-placed");
            writes.setString(i++, "dev.bookstore.ordering.domain.order.OrderPlaced");
            writes.setString(i++, EVENT);
            writes.setString(i++, "order");
            writes.setString(i++, orderId.toString());
            writes.setString(i++, "bookstore.order-placed.v1");
            writes.setString(i++, "bookstore.ordering");
            writes.setString(i++, "order.placed");
            writes.setString(i++, PAYLOAD);
            writes.setString(i, HEADERS);
            writes.execute();
        }

        @Override
        public void close() throws SQLException {
            writes.close();
        }
    }

    /**
     * MariaDB: the order, its lines as one JDBC batch, the publication, the outbox row, one round trip each, in the
     * service's order; every id made here and bound as text.
     */
    static final class MariaDbWriter implements OrderWriter {

        private final PreparedStatement order;
        private final PreparedStatement line;
        private final PreparedStatement publication;
        private final PreparedStatement outbox;

        MariaDbWriter(Connection connection) throws SQLException {
            this.order = connection.prepareStatement(MARIADB_INSERT_ORDER);
            this.line = connection.prepareStatement(MARIADB_INSERT_LINE);
            this.publication = connection.prepareStatement(MARIADB_INSERT_PUBLICATION);
            this.outbox = connection.prepareStatement(MARIADB_INSERT_OUTBOX);
        }

        @Override
        public void placeOrder() throws SQLException {
            String orderId = UUID.randomUUID().toString();
            order.setString(1, orderId);
            order.setString(2, CUSTOMER.toString());
            order.setString(3, "EUR");
            order.setBigDecimal(4, TOTAL);
            order.setString(5, "PLACED");
            order.executeUpdate();

            addLine(orderId, 1, "978-0134494166", 2, new BigDecimal("39.90"));
            addLine(orderId, 2, "978-0321125217", 1, new BigDecimal("54.99"));
            line.executeBatch();

            publication.setString(1, UUID.randomUUID().toString());
            publication.setString(2, "dev.bookstore.ordering.domain.order.OrderPlaced");
            publication.setString(3, "customer-order-summary.order-placed");
            publication.setString(4, EVENT);
            publication.executeUpdate();

            outbox.setString(1, UUID.randomUUID().toString());
            outbox.setString(2, "order");
            outbox.setString(3, orderId);
            outbox.setString(4, "bookstore.order-placed.v1");
            outbox.setString(5, "bookstore.ordering");
            outbox.setString(6, "order.placed");
            outbox.setString(7, PAYLOAD);
            outbox.setString(8, HEADERS);
            outbox.executeUpdate();
        }

        private void addLine(String orderId, int lineNo, String bookId, int quantity, BigDecimal unitPrice)
                throws SQLException {
            line.setString(1, orderId);
            line.setInt(2, lineNo);
            line.setString(3, bookId);
            line.setInt(4, quantity);
            line.setBigDecimal(5, unitPrice);
            line.addBatch();
        }

        @Override
        public void close() throws SQLException {
            order.close();
            line.close();
            publication.close();
            outbox.close();
        }
    }

    /** Nearest rank: the smallest value with at least fraction p of all values at or below it. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}

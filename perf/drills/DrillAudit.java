import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The drills' audit: every committed order (table {@code orders}) against every message that reached the audit
 * queue (the lines {@link DrillRabbit} {@code consume} wrote: {@code receivedMillis messageId correlationId type
 * redelivered}), through an inbox-style dedupe (a set of processed {@code message_id}s, as the service's inbox
 * listener keeps in {@code inbox_message}).
 *
 * <ul>
 *   <li><b>lost</b>: a committed order with no {@code order-placed} message, or a cancelled one with no
 *       {@code order-cancelled} message. Must be 0.</li>
 *   <li><b>duplicates delivered</b>: deliveries of a {@code message_id} already seen (the inbox drops them).</li>
 *   <li><b>duplicate effects</b>: the same event of the same order (correlation id, type) arriving under two
 *       different {@code message_id}s, which an inbox cannot recognise: the effect would happen twice. Must be 0.</li>
 *   <li><b>failed valid requests</b> ({@code --requests}, the generator's lines): requests not answered
 *       201 (cancel: 200) after the generator's retries; <b>orders without an answer</b>: committed orders that no
 *       answer named (a retry that made a second order). Both must be 0.</li>
 *   <li><b>inversions</b>: orders whose {@code order-cancelled} arrived before their {@code order-placed}; must
 *       be 0 with {@code --ordered} and with {@code --cdc}.</li>
 *   <li>{@code --cdc}: the CDC relay sent the messages; it marks no row published, so rows still pending are
 *       reported only, and it sends in commit order, so inversions must be 0.</li>
 *   <li><b>drain</b> ({@code --fault-end}, epoch millis): time from the end of the fault until the last message
 *       committed (outbox {@code created_at}) before it was delivered; target ≤ 3 s. Beside it, reported only:
 *       when the relay had them all published ({@code published_at}), and how many rows were charged an
 *       attempt.</li>
 *   <li>{@code --poison ID}: that outbox row must end PARKED, and no other row may have been charged an attempt.</li>
 * </ul>
 *
 * <p>Prints the figures, then a line {@code RESULT key=value ...}; exits 1 when a must-be-0 figure is not 0.
 *
 * <p>PostgreSQL or MariaDB, by the JDBC URL ({@link Engine}: the queries that differ, side by side); the password,
 * if any, from {@code PGPASSWORD} or {@code MYSQL_PWD}, as each engine's own client reads it.
 *
 * <p>Run: {@code java -cp postgresql.jar DrillAudit.java --jdbc jdbc:postgresql://127.0.0.1:5432/ordering_drill
 * --user postgres --messages audit.txt [--requests orders.txt] [--fault-end MILLIS] [--ordered | --cdc] [--poison ID]}, or
 * {@code java -cp mariadb-java-client.jar DrillAudit.java --jdbc jdbc:mariadb://127.0.0.1:3306/ordering_drill
 * --user root ...}
 */
public class DrillAudit {

    static final String PLACED = "bookstore.order-placed.v1";
    static final String CANCELLED = "bookstore.order-cancelled.v1";

    /**
     * The audit's queries that differ between the engines. MariaDB: ids are its native {@code uuid} type, read as
     * text; times are {@code datetime(6)} holding UTC, so an epoch millisecond is an interval from the UTC epoch
     * (not {@code FROM_UNIXTIME}, which reads the session's time zone); {@code SUM(cond)} counts.
     */
    enum Engine {
        POSTGRES, MARIADB;

        static Engine of(String jdbc) {
            if (jdbc.startsWith("jdbc:postgresql:")) {
                return POSTGRES;
            }
            if (jdbc.startsWith("jdbc:mariadb:")) {
                return MARIADB;
            }
            throw new IllegalArgumentException("neither PostgreSQL nor MariaDB: " + jdbc);
        }

        String passwordVariable() {
            return this == POSTGRES ? "PGPASSWORD" : "MYSQL_PWD";
        }

        /** id as text, status */
        String orders() {
            return switch (this) {
                case POSTGRES -> "SELECT id::text, status FROM orders";
                case MARIADB -> "SELECT CAST(id AS CHAR), status FROM orders";
            };
        }

        /** pending rows, parked rows */
        String pendingAndParked() {
            return switch (this) {
                case POSTGRES -> "SELECT count(*) FILTER (WHERE status = 'PENDING'), "
                        + "count(*) FILTER (WHERE status = 'PARKED') FROM outbox_message";
                case MARIADB -> "SELECT COALESCE(SUM(status = 'PENDING'), 0), "
                        + "COALESCE(SUM(status = 'PARKED'), 0) FROM outbox_message";
            };
        }

        /** the condition: the row was committed (created_at, the database's clock) at or before epoch millis */
        String createdAtOrBefore(long epochMillis) {
            return switch (this) {
                case POSTGRES -> "created_at <= to_timestamp(" + epochMillis + " / 1000.0)";
                case MARIADB -> "created_at <= TIMESTAMP '1970-01-01 00:00:00' + INTERVAL " + epochMillis * 1000
                        + " MICROSECOND";
            };
        }

        String idAsText() {
            return this == POSTGRES ? "id::text" : "CAST(id AS CHAR)";
        }

        /** the latest published_at among the rows the condition picks, epoch millis */
        String lastPublishedMillis(String condition) {
            return switch (this) {
                case POSTGRES -> "SELECT (extract(epoch FROM max(published_at)) * 1000)::bigint FROM outbox_message"
                        + " WHERE " + condition;
                case MARIADB -> "SELECT TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', MAX(published_at))"
                        + " DIV 1000 FROM outbox_message WHERE " + condition;
            };
        }
    }

    public static void main(String[] args) throws Exception {
        String jdbc = null;
        String user = "postgres";
        Path messages = null;
        Path requests = null;
        long faultEnd = -1;
        boolean ordered = false;
        boolean cdc = false;
        String poison = null;
        String drill = "drill";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jdbc" -> jdbc = args[++i];
                case "--user" -> user = args[++i];
                case "--messages" -> messages = Path.of(args[++i]);
                case "--requests" -> requests = Path.of(args[++i]);
                case "--fault-end" -> faultEnd = Long.parseLong(args[++i]);
                case "--ordered" -> ordered = true;
                case "--cdc" -> cdc = true;
                case "--poison" -> poison = args[++i];
                case "--drill" -> drill = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }

        // deliveries, in arrival order
        long lines = 0;
        Set<String> inbox = new HashSet<>();
        Map<String, Set<String>> messageIdsByEffect = new HashMap<>();
        Map<String, Long> firstReceipt = new HashMap<>();
        Map<String, Long> placedAt = new HashMap<>();
        Map<String, Long> cancelledAt = new HashMap<>();
        long seq = 0;
        for (String line : Files.readAllLines(messages)) {
            String[] f = line.trim().split(" ");
            if (f.length < 4) {
                continue;
            }
            lines++;
            seq++;
            long received = Long.parseLong(f[0]);
            String messageId = f[1];
            String orderId = f[2];
            String type = f[3];
            if (!inbox.add(messageId)) {
                continue; // the inbox drops a redelivery
            }
            firstReceipt.put(messageId, received);
            messageIdsByEffect.computeIfAbsent(orderId + " " + type, k -> new HashSet<>()).add(messageId);
            if (type.equals(PLACED)) {
                placedAt.putIfAbsent(orderId, seq);
            } else if (type.equals(CANCELLED)) {
                cancelledAt.putIfAbsent(orderId, seq);
            }
        }
        long duplicatesDelivered = lines - inbox.size();
        long duplicateEffects = messageIdsByEffect.values().stream().mapToLong(s -> s.size() - 1).sum();

        Map<String, String> figures = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        Engine engine = Engine.of(jdbc);
        try (Connection db = DriverManager.getConnection(jdbc, user,
                System.getenv().getOrDefault(engine.passwordVariable(), ""));
             Statement st = db.createStatement()) {
            Map<String, String> orders = new HashMap<>();
            try (ResultSet rs = st.executeQuery(engine.orders())) {
                while (rs.next()) {
                    orders.put(rs.getString(1), rs.getString(2));
                }
            }
            long lost = 0;
            long cancelledOrders = 0;
            long inversions = 0;
            for (Map.Entry<String, String> order : orders.entrySet()) {
                Long placed = placedAt.get(order.getKey());
                if (placed == null) {
                    lost++;
                }
                if (order.getValue().equals("CANCELLED")) {
                    cancelledOrders++;
                    Long cancelled = cancelledAt.get(order.getKey());
                    if (cancelled == null) {
                        lost++;
                    } else if (placed != null && cancelled < placed) {
                        inversions++;
                    }
                }
            }
            long stray = placedAt.keySet().stream().filter(id -> !orders.containsKey(id)).count();
            figures.put("orders committed", Integer.toString(orders.size()));
            if (cancelledOrders > 0) {
                figures.put("of them cancelled", Long.toString(cancelledOrders));
            }
            figures.put("distinct orders delivered", Long.toString(
                    placedAt.keySet().stream().filter(orders::containsKey).count()));
            figures.put("messages delivered (distinct message ids)", lines + " (" + inbox.size() + ")");
            figures.put("lost", Long.toString(lost));
            figures.put("duplicates delivered", Long.toString(duplicatesDelivered));
            figures.put("duplicate effects through the inbox", Long.toString(duplicateEffects));
            if (stray > 0) {
                figures.put("messages for orders not in the table", Long.toString(stray));
            }
            check(violations, "lost", lost);
            check(violations, "duplicate effects through the inbox", duplicateEffects);

            if (requests != null) {
                long failed = 0;
                Set<String> answered = new HashSet<>();
                for (String line : Files.readAllLines(requests)) {
                    String[] f = line.trim().split(" ");
                    if (f.length < 5) {
                        continue;
                    }
                    boolean ok = f[2].equals("201") && (f[3].equals("-") || f[3].equals("200"));
                    if (!ok) {
                        failed++;
                    }
                    if (!f[1].equals("-")) {
                        answered.add(f[1]);
                    }
                }
                long unanswered = orders.keySet().stream().filter(id -> !answered.contains(id)).count();
                long missing = answered.stream().filter(id -> !orders.containsKey(id)).count();
                figures.put("failed valid requests after retry", Long.toString(failed));
                figures.put("orders without an answer (extra orders)", Long.toString(unanswered));
                figures.put("answered orders not committed", Long.toString(missing));
                check(violations, "failed valid requests after retry", failed);
                check(violations, "orders without an answer", unanswered);
                check(violations, "answered orders not committed", missing);
            } else {
                figures.put("failed valid requests after retry", "n/a (rows seeded by SQL)");
            }
            figures.put("ordering inversions", inversions + (ordered || cdc ? "" : " (unordered mode: reported only)"));
            if (ordered || cdc) {
                check(violations, "ordering inversions", inversions);
            }

            long pending;
            long parked;
            try (ResultSet rs = st.executeQuery(engine.pendingAndParked())) {
                rs.next();
                pending = rs.getLong(1);
                parked = rs.getLong(2);
            }
            if (poison != null) {
                String poisonStatus;
                long poisonAttempts;
                try (ResultSet rs = st.executeQuery("SELECT status, attempts FROM outbox_message WHERE id = '"
                        + poison + "'")) {
                    rs.next();
                    poisonStatus = rs.getString(1);
                    poisonAttempts = rs.getLong(2);
                }
                long charged;
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM outbox_message WHERE attempts > 0 AND id <> '"
                        + poison + "'")) {
                    rs.next();
                    charged = rs.getLong(1);
                }
                figures.put("poison row", poisonStatus + " after " + poisonAttempts + " attempts");
                figures.put("good rows charged an attempt", Long.toString(charged));
                check(violations, "good rows charged an attempt", charged);
                if (!poisonStatus.equals("PARKED")) {
                    violations.add("the poison row is " + poisonStatus + ", not PARKED");
                }
                parked--;
            }
            figures.put("outbox rows still pending / parked", pending + " / " + parked
                    + (cdc ? " (cdc: rows stay pending)" : ""));
            if (!cdc) {
                check(violations, "outbox rows still pending", pending);
            }
            check(violations, "outbox rows parked", parked);

            if (faultEnd > 0) {
                long last = faultEnd;
                long before = 0;
                String committedBefore = "routing_key LIKE 'order.%' AND " + engine.createdAtOrBefore(faultEnd);
                try (ResultSet rs = st.executeQuery("SELECT " + engine.idAsText() + " FROM outbox_message WHERE "
                        + committedBefore)) {
                    while (rs.next()) {
                        before++;
                        Long received = firstReceipt.get(rs.getString(1));
                        if (received != null && received > last) {
                            last = received;
                        }
                    }
                }
                figures.put("messages committed before the fault ended", Long.toString(before));
                figures.put("seconds to full drain after the fault ends",
                        String.format(Locale.ROOT, "%.2f", (last - faultEnd) / 1000.0));
                // the relay's side of the same drain: when the broker confirmed the last of those messages
                // (published_at, the database's clock), whatever the audit consumer's own reconnect took
                try (ResultSet rs = st.executeQuery(engine.lastPublishedMillis(committedBefore))) {
                    long published = rs.next() ? rs.getLong(1) : 0;
                    figures.put("seconds to all of them recorded published (relay side)", published <= 0 ? "n/a"
                            : String.format(Locale.ROOT, "%.2f", Math.max(0, published - faultEnd) / 1000.0));
                }
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM outbox_message WHERE attempts > 0")) {
                    figures.put("rows charged an attempt", rs.next() ? Long.toString(rs.getLong(1)) : "n/a");
                }
                // why they were charged: the relay's last error of each, grouped (reported only; the same SQL on both)
                try (ResultSet rs = st.executeQuery("SELECT left(coalesce(last_error, '(none)'), 160), count(*)"
                        + " FROM outbox_message WHERE attempts > 0 GROUP BY 1 ORDER BY 2 DESC LIMIT 5")) {
                    while (rs.next()) {
                        System.out.printf(Locale.ROOT, "  charged: %d x %s%n", rs.getLong(2), rs.getString(1));
                    }
                }
            } else {
                figures.put("seconds to full drain after the fault ends", "n/a");
            }
        }

        System.out.println("Audit of drill " + drill + ":");
        figures.forEach((k, v) -> System.out.printf("  %-45s %s%n", k, v));
        StringBuilder result = new StringBuilder("RESULT drill=" + drill);
        figures.forEach((k, v) -> result.append(" | ").append(k).append('=').append(v));
        if (violations.isEmpty()) {
            System.out.println("  all must-be-0 figures are 0");
            result.append(" | verdict=pass");
        } else {
            System.out.println("  VIOLATED: " + String.join("; ", violations));
            result.append(" | verdict=FAIL: ").append(String.join("; ", violations));
        }
        System.out.println(result);
        System.exit(violations.isEmpty() ? 0 : 1);
    }

    static void check(List<String> violations, String what, long value) {
        if (value != 0) {
            violations.add(what + " = " + value);
        }
    }
}

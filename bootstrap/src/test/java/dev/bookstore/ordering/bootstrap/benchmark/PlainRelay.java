package dev.bookstore.ordering.bootstrap.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A relay written with nothing but JDBC and the RabbitMQ Java client, as a yardstick for the project's relay.
 * One transaction per batch:
 *
 * <ol>
 *   <li>{@code SELECT ... FOR UPDATE SKIP LOCKED} the oldest pending, due rows;</li>
 *   <li>publish each row as it is read (persistent, mandatory, the same properties as the project's publisher)
 *       on one channel in confirm mode;</li>
 *   <li>{@link ConfirmMode#BATCH}: wait for all confirms of the batch ({@code waitForConfirmsOrDie});
 *       {@link ConfirmMode#EACH}: wait for each confirm right after its publish, as a first, naive relay
 *       does;</li>
 *   <li>mark the rows published and commit.</li>
 * </ol>
 *
 * <p>It keeps the row locks of the transaction while it talks to the broker, handles no nack, return or outage,
 * and knows nothing of leases, retries or parking: it is the fastest correct-when-nothing-fails relay, not a
 * design to copy.
 */
final class PlainRelay implements BenchmarkRelay {

    /** How long to wait for confirms before the relay gives up (the benchmark then fails). */
    private static final long CONFIRM_TIMEOUT_MILLIS = 30_000;

    private static final TypeReference<Map<String, Object>> HEADERS = new TypeReference<>() {
    };

    static final String CLAIM = """
            SELECT id, aggregate_id, type, exchange, routing_key, payload::text, headers::text, occurred_at
              FROM outbox_message
             WHERE published_at IS NULL AND status = 'PENDING' AND next_attempt_at <= now()
             ORDER BY position
             LIMIT ?
               FOR UPDATE SKIP LOCKED""";

    static final String MARK = """
            UPDATE outbox_message SET status = 'PUBLISHED', published_at = now()
             WHERE id = ANY(?)""";

    /** When the relay waits for the broker's confirms. */
    enum ConfirmMode {
        /** publish the whole batch, then wait once for all of its confirms */
        BATCH,
        /** wait for the confirm of every message before publishing the next one */
        EACH
    }

    private final String name;
    private final DataSource dataSource;
    private final Connection broker;
    private final int batchSize;
    private final ConfirmMode mode;
    private final JsonMapper json = JsonMapper.builder().build();

    PlainRelay(String name, DataSource dataSource, Connection broker, int batchSize, ConfirmMode mode) {
        this.name = name;
        this.dataSource = dataSource;
        this.broker = broker;
        this.batchSize = batchSize;
        this.mode = mode;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Phases drainAll() throws Exception {
        Phases phases = new Phases();
        try (java.sql.Connection db = dataSource.getConnection(); Channel channel = broker.createChannel()) {
            channel.confirmSelect();
            db.setAutoCommit(false);
            try (PreparedStatement claim = db.prepareStatement(CLAIM);
                 PreparedStatement mark = db.prepareStatement(MARK)) {
                while (true) {
                    long started = System.nanoTime();
                    claim.setInt(1, batchSize);
                    List<Object> ids = new ArrayList<>(batchSize);
                    try (ResultSet rows = claim.executeQuery()) {
                        long claimed = System.nanoTime();
                        phases.claimNanos += claimed - started;
                        while (rows.next()) {
                            ids.add(rows.getObject(1));
                            publish(channel, rows);
                            if (mode == ConfirmMode.EACH) {
                                channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MILLIS);
                            }
                        }
                        phases.publishNanos += System.nanoTime() - claimed;
                    }
                    if (ids.isEmpty()) {
                        db.commit();
                        return phases;
                    }
                    phases.batches++;
                    if (mode == ConfirmMode.BATCH) {
                        long waiting = System.nanoTime();
                        channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MILLIS);
                        phases.addConfirm(System.nanoTime() - waiting);
                    }
                    long marking = System.nanoTime();
                    mark.setArray(1, db.createArrayOf("uuid", ids.toArray()));
                    int marked = mark.executeUpdate();
                    db.commit();
                    phases.markNanos += System.nanoTime() - marking;
                    if (marked != ids.size()) {
                        throw new IllegalStateException("marked " + marked + " of " + ids.size() + " rows");
                    }
                }
            } finally {
                db.rollback();
                db.setAutoCommit(true);
            }
        }
    }

    /** The properties the project's publisher sets, so that both put the same bytes on the wire. */
    private void publish(Channel channel, ResultSet row) throws Exception {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .messageId(row.getString(1))
                .correlationId(row.getString(2))
                .type(row.getString(3))
                .contentType("application/json")
                .contentEncoding("utf-8")
                .deliveryMode(2)
                .timestamp(Date.from(row.getObject(8, OffsetDateTime.class).toInstant()))
                .appId("ordering-service")
                .headers(json.readValue(row.getString(7), HEADERS))
                .build();
        channel.basicPublish(row.getString(4), row.getString(5), true, properties,
                row.getString(6).getBytes(StandardCharsets.UTF_8));
    }
}

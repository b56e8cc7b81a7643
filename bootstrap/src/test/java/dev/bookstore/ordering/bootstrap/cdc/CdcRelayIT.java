package dev.bookstore.ordering.bootstrap.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.cdc.CdcRelay;
import dev.bookstore.ordering.adapters.messaging.testing.TestRabbit;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.CaptureSettings;
import dev.bookstore.ordering.application.outbox.capture.CapturedRound;
import dev.bookstore.ordering.application.outbox.capture.RelayCapturedMessagesUseCase;
import dev.bookstore.ordering.application.outbox.relay.Backoff;
import dev.bookstore.ordering.application.outbox.relay.RelaySettings.Unroutable;
import dev.bookstore.ordering.testing.TcpProxy;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The CDC relay on an embedded PostgreSQL with {@code wal_level=logical} and the real RabbitMQ, built as the wiring
 * builds it: a crash between the broker's confirm and the offset commit, a restart, the standby's takeover of a dead
 * leader's slot, a message that can never be delivered, a broker outage made with a TCP proxy.
 */
class CdcRelayIT {

    private static final Duration LEADER_POLL = Duration.ofMillis(500);
    /** What a takeover may take beyond the leader poll: the engine's start (connector, slot, stream) on this box. */
    private static final Duration ENGINE_START_ALLOWANCE = Duration.ofSeconds(15);
    /** The lock connection's socket timeout (AdvisoryLockLeadership). */
    private static final Duration LOCK_SOCKET_TIMEOUT = Duration.ofSeconds(10);

    private final List<CdcRelay> relays = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<String> receivedIds = Collections.synchronizedList(new ArrayList<>());
    private CdcTestBed bed;
    private JdbcTemplate jdbc;
    private TestRabbit.Broker broker;
    private String exchange;
    private String slot;

    @BeforeEach
    void databaseExchangeAndQueue() {
        bed = CdcTestBed.create();
        jdbc = bed.jdbc();
        broker = bed.broker();
        exchange = bed.exchange();
        slot = bed.slot();
    }

    @AfterEach
    void stopEverything() throws Exception {
        relays.forEach(CdcRelay::close);
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        bed.close();
    }

    @Test
    void aCrashBetweenTheConfirmAndTheOffsetCommitRedeliversTheMessageAndLosesNothing() {
        AtomicBoolean crashOnce = new AtomicBoolean(true);
        // Fails once the relay returns with messages confirmed: before the consumer commits the offsets past them.
        UnaryOperator<RelayCapturedMessagesUseCase> crash = relay -> (messages, stopSending) -> {
            CapturedRound round = relay.relay(messages, stopSending);
            if (round.settled() > 0 && crashOnce.compareAndSet(true, false)) {
                throw new IllegalStateException("the engine dies after the confirm, before the offset commit");
            }
            return round;
        };
        start("a", broker.connectionFactory(), settings(10, Unroutable.RETRY), crash);
        bed.awaitReading();

        String first = insert("order-1", "order.placed");

        // sent twice: the engine started again from the committed offset, before the confirmed message
        await().atMost(Duration.ofSeconds(60)).until(() -> count(first) == 2);
        assertThat(crashOnce).as("the crash happened").isFalse();

        String second = insert("order-1", "order.cancelled");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(second) == 1);
        assertThat(drainedIds()).containsExactly(first, first, second);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_cdc_offset WHERE slot_name = ?", Integer.class,
                slot)).as("offsets kept in the service's database").isPositive();
    }

    @Test
    void aRestartResumesWhereTheLastConfirmLeftOffWithoutLossOrRepeat() {
        CdcRelay first = start("a", broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());
        bed.awaitReading();
        String before = insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(before) == 1);

        first.close();
        String whileStopped = insert("order-1", "order.cancelled");
        String another = insert("order-2", "order.placed");
        start("b", broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());

        await().atMost(Duration.ofSeconds(60)).until(() -> count(another) == 1);
        assertThat(drainedIds()).containsExactly(before, whileStopped, another);
    }

    @Test
    void whenTheLeaderDiesTheStandbyTakesOverTheSlotWithinTheLeaderPollPlusTheEngineStart() throws Exception {
        CdcRelay a = start("a", broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());
        CdcRelay b = start("b", broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());
        bed.awaitReading();
        await().atMost(Duration.ofSeconds(30)).until(() -> streaming() != null);
        String leaderName = streaming();
        CdcRelay leader = leaderName.equals("a") ? a : b;
        String standbyName = leaderName.equals("a") ? "b" : "a";
        String before = insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(before) == 1);
        assertThat(lockHolders()).as("one reader at a time").containsExactly(leaderName);

        // The leader dies: it never tries again, and the server ends its sessions (lock and replication stream).
        CompletableFuture<Void> gone = CompletableFuture.runAsync(leader::close);
        long killedAt = System.nanoTime();
        jdbc.queryForList("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE application_name = ? OR pid = (SELECT active_pid FROM pg_replication_slots WHERE slot_name = ?)""",
                "ordering-cdc-lock " + leaderName, slot);

        Duration bound = LEADER_POLL.plus(ENGINE_START_ALLOWANCE);
        await().atMost(bound).until(() -> standbyName.equals(streaming()));
        String after = insert("order-1", "order.cancelled");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(after) == 1);
        Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
        System.out.printf("CDC takeover: standby streaming and the next message delivered %d ms after the leader's "
                + "sessions ended (leader poll %d ms)%n", takeover.toMillis(), LEADER_POLL.toMillis());
        gone.get();

        assertThat(lockHolders()).containsExactly(standbyName);
        assertThat(drainedIds()).startsWith(before).endsWith(after).doesNotHaveDuplicates();
    }

    /**
     * The standby's lock connection stops answering (a half-open connection: a firewall dropped its state; here a
     * proxy that freezes it) while the leader goes away: the standby's next try fails at the lock connection's
     * socket timeout, a new connection takes the lock, and its engine streams, instead of the try waiting until
     * the operating system gives up on the connection.
     */
    @Test
    void aStandbyWhoseLockConnectionStopsAnsweringTakesOverWithinItsSocketTimeout() {
        String url = bed.database().url();
        Matcher hostPort = Pattern.compile("//([^:/]+):(\\d+)/").matcher(url);
        assertThat(hostPort.find()).isTrue();
        TcpProxy proxy = new TcpProxy(hostPort.group(1), Integer.parseInt(hostPort.group(2))).start();
        closeables.add(proxy);
        CdcRelay leader = start("a", broker.connectionFactory(), settings(10, Unroutable.RETRY),
                UnaryOperator.identity());
        bed.awaitReading();
        await().atMost(Duration.ofSeconds(30)).until(() -> "a".equals(streaming()));
        CdcRelay standby = bed.relay("b", hostPort.replaceFirst("//127.0.0.1:" + proxy.port() + "/"), LEADER_POLL,
                broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());
        relays.add(standby);
        standby.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'ordering-cdc-lock b'",
                Integer.class) == 1);

        proxy.freeze();
        leader.close();
        long leaderGone = System.nanoTime();

        Duration bound = LOCK_SOCKET_TIMEOUT.plus(LEADER_POLL).plus(ENGINE_START_ALLOWANCE);
        await().atMost(bound).until(() -> "b".equals(streaming()));
        System.out.printf("CDC takeover over a frozen lock connection: standby streaming %d ms after the leader "
                + "left%n", Duration.ofNanos(System.nanoTime() - leaderGone).toMillis());
        String after = insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(after) == 1);
    }

    @Test
    void aMessageThatCanNeverBeDeliveredIsParkedAndTheStreamGoesOn() {
        start("a", broker.connectionFactory(), settings(2, Unroutable.RETRY), UnaryOperator.identity());
        bed.awaitReading();

        String poison = insert("order-1", "nobody.listens");
        String next = insert("order-2", "order.placed");

        await().atMost(Duration.ofSeconds(30)).until(() -> "PARKED".equals(jdbc.queryForObject(
                "SELECT status FROM outbox_message WHERE id = ?::uuid", String.class, poison)));
        assertThat(jdbc.queryForMap("SELECT attempts, last_error, parked_at IS NOT NULL AS parked "
                + "FROM outbox_message WHERE id = ?::uuid", poison))
                .containsEntry("attempts", 2).containsEntry("parked", true)
                .extractingByKey("last_error").asString().startsWith("RETURNED");
        String after = insert("order-1", "order.cancelled");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(after) == 1);
        // next shared the poison's wave: confirmed, and sent again when the wave was offered again
        assertThat(drainedIds()).doesNotContain(poison).contains(next).endsWith(after);
    }

    @Test
    void failedAttemptsAreCountedOnTheRowSoTheNextReaderGoesOnCounting() {
        CdcRelay first = start("a", broker.connectionFactory(), settings(100, Unroutable.RETRY),
                UnaryOperator.identity());
        bed.awaitReading();
        String failing = insert("order-1", "nobody.listens");
        await().atMost(Duration.ofSeconds(30)).until(() -> attempts(failing) >= 2);
        first.close();
        int countedByFirst = attempts(failing);

        start("b", broker.connectionFactory(), settings(countedByFirst + 1, Unroutable.RETRY),
                UnaryOperator.identity());

        await().atMost(Duration.ofSeconds(60)).until(() -> "PARKED".equals(jdbc.queryForObject(
                "SELECT status FROM outbox_message WHERE id = ?::uuid", String.class, failing)));
        assertThat(attempts(failing)).as("one more, counted on from the first reader's").isEqualTo(countedByFirst + 1);
        assertThat(jdbc.queryForObject("SELECT last_error FROM outbox_message WHERE id = ?::uuid", String.class,
                failing)).startsWith("RETURNED");
    }

    private int attempts(String id) {
        return jdbc.queryForObject("SELECT attempts FROM outbox_message WHERE id = ?::uuid", Integer.class, id);
    }

    @Test
    void whileTheBrokerIsDownTheStreamWaitsAndDeliversEverythingInOrderOnceItIsBack() throws Exception {
        TcpProxy proxy = new TcpProxy(broker.host(), broker.port()).start();
        closeables.add(proxy);
        CachingConnectionFactory throughProxy = broker.connectionFactory("127.0.0.1", proxy.port());
        closeables.add(throughProxy::destroy);
        start("a", throughProxy, settings(10, Unroutable.RETRY), UnaryOperator.identity());
        bed.awaitReading();
        String before = insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(before) == 1);

        proxy.cut();
        List<String> duringOutage = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            duringOutage.add(insert("order-" + (i % 2), i % 2 == 0 ? "order.placed" : "order.cancelled"));
        }
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> duringOutage.stream().allMatch(id -> count(id) == 0));

        proxy.restore();
        await().atMost(Duration.ofSeconds(60)).until(() -> duringOutage.stream().allMatch(id -> count(id) >= 1));
        List<String> received = drainedIds();
        List<String> firstDeliveries = received.stream().distinct().toList();
        List<String> expected = new ArrayList<>(List.of(before));
        expected.addAll(duringOutage);
        assertThat(firstDeliveries).as("commit order").containsExactlyElementsOf(expected);
    }

    @Test
    void anOffsetStoreConnectionTheServerEndedIsReplacedWithoutStoppingTheStream() {
        start("a", broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());
        bed.awaitReading();
        String first = insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(first) == 1);
        Integer stream = streamPid();
        String store = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                + "AND application_name = 'ordering-cdc-offsets a'";
        await().atMost(Duration.ofSeconds(30)).until(() -> !jdbc.queryForList(store, Integer.class).isEmpty());

        jdbc.queryForList("SELECT pg_terminate_backend(pid) FROM (" + store + ") AS offsets", Boolean.class);
        Timestamp ended = jdbc.queryForObject("SELECT now()", Timestamp.class);
        String second = insert("order-2", "order.placed");

        await().atMost(Duration.ofSeconds(30)).until(() -> count(second) == 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT max(committed_at) > ? FROM outbox_cdc_offset", Boolean.class, ended));
        assertThat(streamPid()).as("the commit went on over a new connection, the stream never restarted")
                .isEqualTo(stream);
    }

    /** The instances whose session holds a CDC advisory lock. */
    private List<String> lockHolders() {
        return jdbc.queryForList("""
                SELECT substr(a.application_name, length('ordering-cdc-lock ') + 1)
                  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'ordering-cdc-lock %'""",
                String.class);
    }

    /** The instance that holds the lock while the slot streams to it; null where none does. */
    private String streaming() {
        List<String> holders = lockHolders();
        return holders.size() == 1 && streamPid() != null ? holders.get(0) : null;
    }

    /** The server process that streams the slot's changes to its reader; null while no reader is attached. */
    private Integer streamPid() {
        return jdbc.queryForObject("SELECT active_pid FROM pg_replication_slots WHERE slot_name = ?", Integer.class,
                slot);
    }

    @Test
    void aFailingMessageWhoseRowTheRetentionDeletedIsStoredAgainAsParkedFromWhatWasCaptured() {
        AtomicBoolean deleted = new AtomicBoolean();
        // The retention deletes the row while its message is still being tried (a lag longer than the retention).
        UnaryOperator<RelayCapturedMessagesUseCase> retention = relay -> (messages, stopSending) -> {
            if (messages.stream().anyMatch(message -> message.routingKey().equals("nobody.listens"))
                    && deleted.compareAndSet(false, true)) {
                jdbc.update("DELETE FROM outbox_message WHERE routing_key = 'nobody.listens'");
            }
            return relay.relay(messages, stopSending);
        };
        start("a", broker.connectionFactory(), settings(2, Unroutable.RETRY), retention);
        bed.awaitReading();

        String poison = insert("order-1", "nobody.listens");

        await().atMost(Duration.ofSeconds(30)).until(() -> "PARKED".equals(status(poison)));
        assertThat(deleted).isTrue();
        assertThat(jdbc.queryForMap("""
                SELECT aggregate_id, routing_key, payload::text AS payload, headers ->> 'traceparent' AS traceparent,
                       attempts, last_error, parked_at IS NOT NULL AS parked
                  FROM outbox_message WHERE id = ?::uuid""", poison))
                .containsEntry("aggregate_id", "order-1").containsEntry("routing_key", "nobody.listens")
                .containsEntry("payload", "{\"orderId\": \"order-1\"}")
                .containsEntry("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                .containsEntry("attempts", 2).containsEntry("parked", true)
                .extractingByKey("last_error").asString().startsWith("RETURNED");
        String after = insert("order-2", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(after) == 1);
        assertThat(drainedIds()).doesNotContain(poison);
        assertThat(status(poison)).as("the row stored parked is not sent").isEqualTo("PARKED");
    }

    @Test
    void aMessageSentAgainWhileItFailedIsLeftToItsNewRowAndNeverShownAsParked() {
        AtomicLong capturedAt = new AtomicLong();
        // The operator sends the message again (its row inserted anew) while its first capture cannot be delivered:
        // that capture goes to a route nobody listens on, the new row's capture to the queue.
        UnaryOperator<RelayCapturedMessagesUseCase> resentMeanwhile = relay -> (messages, stopSending) -> {
            for (OutboxMessage message : messages) {
                if (message.aggregateId().equals("order-1") && capturedAt.compareAndSet(0, message.position())) {
                    jdbc.update("""
                            WITH gone AS (DELETE FROM outbox_message WHERE id = ?
                                          RETURNING id, aggregate_type, aggregate_id, type, exchange, routing_key,
                                                    payload, headers, occurred_at)
                            INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key,
                                                        payload, headers, occurred_at)
                            SELECT * FROM gone""", message.id());
                }
            }
            return relay.relay(messages.stream().map(message -> message.position() == capturedAt.get()
                    ? unroutable(message) : message).toList(), stopSending);
        };
        start("a", broker.connectionFactory(), settings(2, Unroutable.RETRY), resentMeanwhile);
        bed.awaitReading();

        String resent = insert("order-1", "order.placed");

        await().atMost(Duration.ofSeconds(30)).until(() -> count(resent) == 1);
        String after = insert("order-2", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(after) == 1);
        assertThat(jdbc.queryForMap("SELECT status, attempts, position FROM outbox_message WHERE id = ?::uuid",
                resent)).as("the new row, delivered: neither parked nor charged for the old capture's failures")
                .containsEntry("status", "PENDING").containsEntry("attempts", 0);
        assertThat(drainedIds()).containsExactly(resent, after);
    }

    @Test
    void whileOffsetWritesFailNothingMoreIsPublishedAndTheStreamGoesOnOnceTheyWorkWithoutRepeats() {
        CdcRelay first = start("a", broker.connectionFactory(), settings(10, Unroutable.RETRY),
                UnaryOperator.identity());
        bed.awaitReading();
        String before = insert("order-1", "order.placed");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(before) == 1);
        Integer stream = streamPid();
        Timestamp delivered = jdbc.queryForObject("SELECT now()", Timestamp.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT coalesce(max(committed_at) > ?, false) FROM outbox_cdc_offset", Boolean.class, delivered));

        // Every offset write fails from now on; a sequence (not rolled back) counts the failures.
        jdbc.execute("CREATE SEQUENCE offset_write_failures");
        jdbc.execute("""
                CREATE FUNCTION fail_offset_writes() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM nextval('offset_write_failures');
                    RAISE EXCEPTION 'offset writes fail (test)';
                END $$""");
        jdbc.execute("CREATE TRIGGER fail_offset_writes BEFORE INSERT OR UPDATE ON outbox_cdc_offset "
                + "FOR EACH ROW EXECUTE FUNCTION fail_offset_writes()");
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT last_value > 0 AND is_called FROM offset_write_failures", Boolean.class));
        String held = insert("order-2", "order.placed");
        String alsoHeld = insert("order-3", "order.placed");
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> count(held) == 0 && count(alsoHeld) == 0);

        jdbc.execute("DROP TRIGGER fail_offset_writes ON outbox_cdc_offset");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(held) == 1 && count(alsoHeld) == 1);
        assertThat(streamPid()).as("the engine waited, it did not stop").isEqualTo(stream);
        Timestamp resumed = jdbc.queryForObject("SELECT now()", Timestamp.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT max(committed_at) > ? FROM outbox_cdc_offset", Boolean.class, resumed));
        first.close();
        start("b", broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());
        String after = insert("order-4", "order.placed");
        await().atMost(Duration.ofSeconds(60)).until(() -> count(after) == 1);
        assertThat(drainedIds()).as("nothing sent twice: nothing was sent while the offsets could not be written")
                .containsExactly(before, held, alsoHeld, after);
    }

    @Test
    void aChangeThatDoesNotParseIsParkedAsReadAndTheStreamGoesOn() {
        start("a", broker.connectionFactory(), settings(10, Unroutable.RETRY), UnaryOperator.identity());
        bed.awaitReading();
        await().atMost(Duration.ofSeconds(30)).until(() -> streamPid() != null);
        Integer stream = streamPid();

        // Headers must be a JSON object of strings (the AMQP headers); this one nests an object.
        String unreadable = UUID.randomUUID().toString();
        jdbc.update("""
                INSERT INTO outbox_message (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload,
                                            headers, occurred_at)
                VALUES (?::uuid, 'order', 'order-1', 'bookstore.order-placed.v1', ?, 'order.placed',
                        '{"orderId":"order-1"}', '{"traceparent":{"not":"a string"}}', now())""",
                unreadable, exchange);
        String next = insert("order-2", "order.placed");

        await().atMost(Duration.ofSeconds(30)).until(() -> count(next) == 1);
        assertThat(jdbc.queryForMap("SELECT status, last_error FROM outbox_message WHERE id = ?::uuid", unreadable))
                .containsEntry("status", "PARKED").extractingByKey("last_error").asString()
                .startsWith("unreadable change").contains("not").contains("a string");
        assertThat(drainedIds()).containsExactly(next);
        assertThat(streamPid()).as("no crash loop: the same stream").isEqualTo(stream);
    }

    private String status(String id) {
        List<String> status = jdbc.queryForList("SELECT status FROM outbox_message WHERE id = ?::uuid", String.class,
                id);
        return status.isEmpty() ? null : status.get(0);
    }

    private static OutboxMessage unroutable(OutboxMessage message) {
        return new OutboxMessage(message.id(), message.aggregateType(), message.aggregateId(), message.type(),
                message.exchange(), "nobody.listens", message.payload(), message.headers(), message.occurredAt(),
                message.attempts(), message.position());
    }

    private CaptureSettings settings(int maxAttempts, Unroutable unroutable) {
        return new CaptureSettings(Duration.ofSeconds(5), maxAttempts,
                new Backoff(Duration.ofMillis(100), Duration.ofMillis(400), () -> 1.0), Duration.ofMillis(200),
                unroutable);
    }

    private CdcRelay start(String instance, CachingConnectionFactory publisherConnection, CaptureSettings capture,
                           UnaryOperator<RelayCapturedMessagesUseCase> around) {
        CdcRelay relay = bed.relay(instance, LEADER_POLL, publisherConnection, capture, around);
        relays.add(relay);
        relay.start();
        return relay;
    }

    private String insert(String aggregateId, String routingKey) {
        return bed.insert(aggregateId, routingKey);
    }

    private long count(String id) {
        drain();
        return receivedIds.stream().filter(id::equals).count();
    }

    private List<String> drainedIds() {
        drain();
        return List.copyOf(receivedIds);
    }

    private void drain() {
        Message message;
        while ((message = bed.receive()) != null) {
            receivedIds.add(message.getMessageProperties().getMessageId());
        }
    }
}

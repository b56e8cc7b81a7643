package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.bootstrap.cdc.CdcTestBed;
import dev.bookstore.ordering.testing.TcpProxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The procedure of docs/cdc.md, "Switching a running deployment", step by step, both ways, with service instances
 * on an embedded PostgreSQL with {@code wal_level=logical} and the real RabbitMQ, while a writer inserts an outbox
 * row every {@link #WRITE_EVERY}: no row is lost, and the rows sent twice are within the bound the document states,
 * counted here from what the database held at the switch.
 */
class CdcModeSwitchIT {

    private static final Duration WRITE_EVERY = Duration.ofMillis(20);
    private static final Duration SWITCH_TIMEOUT = Duration.ofSeconds(90);

    private final CdcTestBed bed = CdcTestBed.create();
    private final JdbcTemplate jdbc = bed.jdbc();
    private final List<AutoCloseable> running = new ArrayList<>();
    private final Map<String, Integer> deliveries = new ConcurrentHashMap<>();
    private final AtomicInteger written = new AtomicInteger();
    private final AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    private ScheduledExecutorService writer;

    @AfterEach
    void stopEverything() throws Exception {
        stopWriting();
        for (int i = running.size() - 1; i >= 0; i--) {
            running.get(i).close();
        }
        bed.close();
    }

    @Test
    void fromPollingToCdcThePollingRelayFinishesTheRowsTheSlotDoesNotReadAndOnlyTheOverlapIsSentTwice()
            throws Exception {
        TcpProxy proxy = new TcpProxy(bed.broker().host(), bed.broker().port()).start();
        running.add(proxy);
        ServiceInstance polling = start(proxy.port(), Map.of("ordering.outbox.relay", "polling",
                "ordering.outbox.poll-interval", "200ms"));
        // The polling relay's broker is away until step 3, so that rows are pending in polling mode while the slot
        // is made (cut before anything is written: no message is in flight, none is sent twice for the outage).
        proxy.cut();
        startWriting();

        // A transaction open while the slot is made: the server finishes making it only once the transaction has
        // ended, and reads none of what commits before that. The slot is listed all the while.
        SingleConnectionDataSource openTransaction = connection();
        openTransaction.setAutoCommit(false);
        String beganBeforeTheSlot = bed.insert(new JdbcTemplate(openTransaction), "open", "order.placed");

        // Step 2: an instance with relay=cdc beside the polling one; T once the slot is ready.
        start(bed.broker().port(), Map.of("ordering.outbox.relay", "cdc", "ordering.outbox.cdc.slot-name",
                bed.slot()));
        await().atMost(SWITCH_TIMEOUT).until(this::slotListed);
        String whileTheSlotIsMade = bed.insert("made", "order.placed");
        assertThat(slotReady()).as("the slot is not ready while a transaction older than it is open").isFalse();
        // The slot's consistent point, from which it reads, lies after the older transaction's end: rows it reads
        // were stored after this moment. (Its readiness, as pg_replication_slots shows it, can come later than the
        // consistent point, so the last moment it was seen not ready is no bound.)
        String beforeTheSlotCanRead = databaseNow();
        openTransaction.getConnection().commit();
        await().atMost(SWITCH_TIMEOUT).until(this::slotReady);
        String t = databaseNow();
        long pendingBeforeT = pendingStoredBefore(t);
        assertThat(pendingBeforeT).as("rows pending in polling mode when the slot was ready").isPositive();

        // Step 3: the polling relay finishes every row stored before T.
        proxy.restore();
        await().atMost(SWITCH_TIMEOUT).until(() -> pendingStoredBefore(t) == 0);

        // Step 4: the polling instance goes; from here on only the slot is read.
        polling.close();
        long overlap = storedSince(beforeTheSlotCanRead);
        int writtenAtStop = written.get();
        await().atMost(SWITCH_TIMEOUT).until(() -> written.get() >= writtenAtStop + 100);
        stopWriting();

        Set<String> all = allRows();
        await().atMost(SWITCH_TIMEOUT).until(() -> drain() > 0 && deliveries.keySet().containsAll(all));
        List<String> duplicates = duplicates();
        System.out.printf("polling -> cdc: %d rows, %d pending when the slot was ready, %d lost, %d sent twice, "
                        + "bound (stored from the moment the slot could start reading to the polling relay's stop) %d%n", all.size(),
                pendingBeforeT, all.size() - deliveries.size(), duplicates.size(), overlap);
        assertThat(deliveries.keySet()).as("every row delivered").containsAll(all);
        assertThat(duplicates.size()).as("sent twice").isLessThanOrEqualTo((int) overlap);
        assertThat(deliveries).as("committed before the slot was ready: the polling relay's alone")
                .containsEntry(beganBeforeTheSlot, 1).containsEntry(whileTheSlotIsMade, 1);
    }

    @Test
    void fromCdcToPollingTheRowsTheSlotConfirmedAreMarkedAndOnlyRowsAfterTheMarkAreSentTwice() throws Exception {
        ServiceInstance cdc = start(bed.broker().port(), Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.cdc.slot-name", bed.slot()));
        await().atMost(SWITCH_TIMEOUT).until(this::slotReady);
        startWriting();
        await().atMost(SWITCH_TIMEOUT).until(() -> drain() >= 100);

        // Steps 1 to 3, in one repeatable-read transaction: its snapshot, taken at its first statement, holds only
        // rows whose commit lies before L; once the slot has confirmed past L, those rows are marked published.
        List<String> marked;
        try (Connection session = jdbc.getDataSource().getConnection()) {
            session.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            session.setAutoCommit(false);
            JdbcTemplate inSession = new JdbcTemplate(new SingleConnectionDataSource(session, true));
            String l = inSession.queryForObject("SELECT pg_current_wal_insert_lsn()::text", String.class);
            await().atMost(SWITCH_TIMEOUT).until(() -> Boolean.TRUE.equals(inSession.queryForObject(
                    "SELECT confirmed_flush_lsn >= ?::pg_lsn FROM pg_replication_slots WHERE slot_name = ?",
                    Boolean.class, l, bed.slot())));
            marked = inSession.queryForList("""
                    UPDATE outbox_message SET status = 'PUBLISHED', published_at = now()
                     WHERE status = 'PENDING' RETURNING id::text""", String.class);
            session.commit();
        }
        assertThat(marked).isNotEmpty();

        // Step 4: the cdc instance goes, a polling one comes, the slot and its offsets are dropped.
        cdc.close();
        long leftPendingAtCdcStop = jdbc.queryForObject(
                "SELECT count(*) FROM outbox_message WHERE status = 'PENDING'", Long.class);
        start(bed.broker().port(), Map.of("ordering.outbox.relay", "polling", "ordering.outbox.poll-interval",
                "200ms"));
        await().atMost(SWITCH_TIMEOUT).until(() -> !slotActive());
        jdbc.queryForList("SELECT pg_drop_replication_slot(?)", bed.slot());
        jdbc.update("DELETE FROM outbox_cdc_offset WHERE slot_name = ?", bed.slot());
        int writtenAtSwitch = written.get();
        await().atMost(SWITCH_TIMEOUT).until(() -> written.get() >= writtenAtSwitch + 100);
        stopWriting();

        Set<String> all = allRows();
        await().atMost(SWITCH_TIMEOUT).until(() -> drain() > 0 && deliveries.keySet().containsAll(all));
        await().atMost(SWITCH_TIMEOUT).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM outbox_message WHERE status = 'PENDING'", Long.class) == 0);
        drain();
        List<String> duplicates = duplicates();
        System.out.printf("cdc -> polling: %d rows, %d marked, %d lost, %d sent twice, bound (left pending by the "
                        + "mark when the cdc reader stopped) %d%n", all.size(), marked.size(),
                all.size() - deliveries.size(), duplicates.size(), leftPendingAtCdcStop);
        assertThat(deliveries.keySet()).as("every row delivered").containsAll(all);
        assertThat(duplicates).as("no row the slot confirmed is sent again").doesNotContainAnyElementsOf(marked);
        assertThat(duplicates.size()).as("sent twice").isLessThanOrEqualTo((int) leftPendingAtCdcStop);
    }

    private ServiceInstance start(int rabbitPort, Map<String, String> overrides) {
        ServiceInstance instance = ServiceInstance.start(bed, rabbitPort, overrides);
        running.add(instance);
        return instance;
    }

    /** A connection of the test's own to the bed's database, closed after the test. */
    private SingleConnectionDataSource connection() {
        SingleConnectionDataSource connection = new SingleConnectionDataSource(bed.database().url(),
                bed.database().username(), bed.database().password(), true);
        running.add(connection::destroy);
        return connection;
    }

    /** One outbox row every {@link #WRITE_EVERY}, each its own transaction, over 20 aggregates. */
    private void startWriting() {
        JdbcTemplate writes = new JdbcTemplate(connection());
        writer = Executors.newSingleThreadScheduledExecutor();
        writer.scheduleAtFixedRate(() -> {
            try {
                bed.insert(writes, "order-" + written.get() % 20, "order.placed");
                written.incrementAndGet();
            } catch (RuntimeException e) {
                writerFailure.compareAndSet(null, e);
                throw e;
            }
        }, 0, WRITE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void stopWriting() throws InterruptedException {
        if (writer != null) {
            writer.shutdown();
            assertThat(writer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            writer = null;
            assertThat(writerFailure.get()).as("the writer's failure").isNull();
        }
    }

    /** Counts the deliveries waiting in the test queue; returns how many distinct rows arrived so far. */
    private int drain() {
        Message message;
        while ((message = bed.receive()) != null) {
            deliveries.merge(message.getMessageProperties().getMessageId(), 1, Integer::sum);
        }
        return deliveries.size();
    }

    private List<String> duplicates() {
        return deliveries.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
    }

    private Set<String> allRows() {
        return Set.copyOf(jdbc.queryForList("SELECT id::text FROM outbox_message", String.class));
    }

    private String databaseNow() {
        return jdbc.queryForObject("SELECT now()::text", String.class);
    }

    private long pendingStoredBefore(String t) {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_message WHERE status = 'PENDING' "
                + "AND created_at < ?::timestamptz", Long.class, t);
    }

    private long storedSince(String t) {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_message WHERE created_at >= ?::timestamptz",
                Long.class, t);
    }

    private boolean slotListed() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ?", Integer.class,
                bed.slot()) == 1;
    }

    /** The slot is ready once it has a confirmed position: everything committed from then on is read from it. */
    private boolean slotReady() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? "
                + "AND confirmed_flush_lsn IS NOT NULL", Integer.class, bed.slot()) == 1;
    }

    private boolean slotActive() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active",
                Integer.class, bed.slot()) == 1;
    }
}

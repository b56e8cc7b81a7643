package dev.bookstore.ordering.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@link JdbcInboxStore} on a database migrated by the module's own scripts ({@code db/ordering-inbox/{vendor}}), one
 * subclass per engine; every test starts from an empty table. Adds what only a database shows: its clock, its
 * locks, its column widths.
 */
abstract class JdbcInboxStoreContract extends InboxStoreContract {

    private final Supplier<DataSource> database;
    private final String receivedTwoHoursEarlier;
    private final String lockRow;
    private DataSource dataSource;
    private JdbcTemplate jdbc;
    private JdbcInboxStore store;
    private PlatformTransactionManager transactions;

    /**
     * @param database                the migrated database, once the class's setup made it
     * @param receivedTwoHoursEarlier moves every {@code received_at} two hours back
     * @param lockRow                 locks a row in the caller's transaction, as another instance's delete does;
     *                                parameter: the message id, as text
     */
    JdbcInboxStoreContract(Supplier<DataSource> database, String receivedTwoHoursEarlier, String lockRow) {
        this.database = database;
        this.receivedTwoHoursEarlier = receivedTwoHoursEarlier;
        this.lockRow = lockRow;
    }

    @BeforeEach
    void emptyInbox() {
        dataSource = database.get();
        jdbc = new JdbcTemplate(dataSource);
        jdbc.update("DELETE FROM inbox_message");
        store = new JdbcInboxStore(dataSource);
        transactions = new DataSourceTransactionManager(dataSource);
    }

    @Override
    protected InboxStore store() {
        return store;
    }

    @Override
    protected PlatformTransactionManager transactions() {
        return transactions;
    }

    @Test
    void theInboxForgetsDeliveriesOlderThanTheAgeByTheDatabasesClockAtMostLimitPerCall() {
        UUID recent = receiveThreeOldAndOneRecent();

        assertThat(store.deleteReceivedOlderThan(Duration.ofHours(1), 2)).isEqualTo(2);
        assertThat(store.deleteReceivedOlderThan(Duration.ofHours(1), 2)).isEqualTo(1);
        assertThat(store.deleteReceivedOlderThan(Duration.ofHours(1), 2)).isZero();
        assertOnly(recent);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a delete that waited for the held lock would hang, not fail
    void theRetentionDeletesChunkAfterChunkSkippingARowAnotherInstanceHoldsAndRecentOnesStay() throws Exception {
        UUID recent = receiveThreeOldAndOneRecent();
        UUID held = jdbc.queryForList("SELECT message_id FROM inbox_message", String.class).stream()
                .map(UUID::fromString).filter(id -> !id.equals(recent)).findFirst().orElseThrow();
        InboxRetention retention = new InboxRetention(store, Duration.ofHours(1), Duration.ofMinutes(1), 1);

        int deleted;
        // another instance is deleting the held row right now: its transaction holds the row's lock
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (PreparedStatement lock = other.prepareStatement(lockRow)) {
                lock.setString(1, held.toString());
                lock.executeQuery().close();
            }
            deleted = retention.purge();
            other.rollback();
        }

        assertThat(deleted).as("2 old rows, one per chunk, the held one skipped, not waited for").isEqualTo(2);
        assertThat(retention.purge()).as("the next run takes what was held").isEqualTo(1);
        assertOnly(recent);
    }

    @Test
    void aConsumerNameLongerThanItsColumnIsRefusedNotStoredCutShort() {
        // cut to the column's 128 characters it could be another consumer's name, whose deliveries it would take
        String tooLong = "c".repeat(129);

        assertThatThrownBy(() -> store.recordFirstDelivery(tooLong, UUID.randomUUID()))
                .isInstanceOf(DataAccessException.class);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM inbox_message", Integer.class)).isZero();
    }

    private UUID receiveThreeOldAndOneRecent() {
        for (int i = 0; i < 3; i++) {
            store.recordFirstDelivery("invoicing", UUID.randomUUID());
        }
        assertThat(store.deleteReceivedOlderThan(Duration.ofHours(1), 10)).isZero();
        jdbc.update(receivedTwoHoursEarlier);
        UUID recent = UUID.randomUUID();
        store.recordFirstDelivery("invoicing", recent);
        return recent;
    }

    private void assertOnly(UUID recent) {
        assertThat(jdbc.queryForList("SELECT message_id FROM inbox_message", String.class))
                .singleElement().satisfies(id -> assertThat(id).isEqualToIgnoringCase(recent.toString()));
    }
}

package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * {@code V5__outbox_position_and_created_at.sql} on a database that already holds outbox rows: they are numbered
 * in the order the claim used before (occurred_at, then id), new rows continue after them, and an instance of the
 * previous release, which inserts without the new columns, still gets them from the database.
 */
class PostgresOutboxMigrationIT {

    private static final MigrationVersion POSITION = MigrationVersion.fromVersion("5");
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private TestDatabase database;
    private JdbcTemplate jdbc;

    @BeforeEach
    void migrateToTheVersionBeforePosition() {
        database = TestPostgres.newDatabase();
        jdbc = new JdbcTemplate(new DriverManagerDataSource(database.url(), database.username(), database.password()));
        flyway(lastVersionBeforePosition()).migrate();
        assertThat(columns()).doesNotContain("position", "created_at");
    }

    @AfterEach
    void dropDatabase() {
        TestPostgres.drop(database);
    }

    @Test
    void existingRowsAreNumberedInOccurredAtThenIdOrderAndNewRowsContinueAfterThem() {
        UUID late = UUID.fromString("00000000-0000-7000-8000-000000000001");
        UUID tieHigh = UUID.fromString("00000000-0000-7000-8000-0000000000ff");
        UUID tieLow = UUID.fromString("00000000-0000-7000-8000-000000000010");
        UUID early = UUID.fromString("ffffffff-0000-7000-8000-000000000000");
        // Inserted in an order that is neither the occurred_at order nor the id order.
        insertAsThePreviousReleaseDoes(late, T0.plusSeconds(3));
        insertAsThePreviousReleaseDoes(tieHigh, T0.plusSeconds(1));
        insertAsThePreviousReleaseDoes(early, T0);
        insertAsThePreviousReleaseDoes(tieLow, T0.plusSeconds(1));
        jdbc.update("UPDATE outbox_message SET status = 'PUBLISHED', published_at = now() WHERE id = ?", late);

        flyway(null).migrate();

        assertThat(idsByPosition()).containsExactly(early, tieLow, tieHigh, late);
        assertThat(jdbc.queryForList("SELECT position FROM outbox_message ORDER BY position", Long.class))
                .containsExactly(1L, 2L, 3L, 4L);
        assertThat(jdbc.queryForObject("SELECT created_at FROM outbox_message WHERE id = ?", OffsetDateTime.class,
                early).toInstant()).as("created when it occurred").isEqualTo(T0);

        // An instance of the previous release keeps inserting without the new columns.
        UUID afterMigration = UUID.randomUUID();
        insertAsThePreviousReleaseDoes(afterMigration, T0.minusSeconds(3_600));

        assertThat(jdbc.queryForObject("SELECT position FROM outbox_message WHERE id = ?", Long.class,
                afterMigration)).isEqualTo(5L);
        assertThat(jdbc.queryForObject(
                "SELECT abs(EXTRACT(EPOCH FROM created_at - now())) < 60 FROM outbox_message WHERE id = ?",
                Boolean.class, afterMigration)).as("stamped by the database, not from occurred_at").isTrue();
    }

    @Test
    void positionAndCreatedAtAreRequiredThePositionIsUniqueAndTheTableKeepsItsFillfactor() {
        flyway(null).migrate();

        assertThat(jdbc.queryForList("""
                SELECT column_name FROM information_schema.columns
                 WHERE table_name = 'outbox_message' AND column_name IN ('position', 'created_at')
                   AND is_nullable = 'NO' AND column_default IS NOT NULL ORDER BY column_name""", String.class))
                .containsExactly("created_at", "position");
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid
                                                  AND a.attnum = i.indkey[0]
                 WHERE i.indrelid = 'outbox_message'::regclass AND i.indisunique AND i.indnatts = 1
                   AND a.attname = 'position'""", Integer.class)).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT reloptions::text FROM pg_class WHERE relname = 'outbox_message'",
                String.class)).contains("fillfactor=50");
        assertThat(jdbc.queryForList("""
                SELECT indexdef FROM pg_indexes WHERE tablename = 'outbox_message'
                   AND indexname LIKE 'outbox_message_unpublished%' ORDER BY indexname""", String.class))
                .containsExactly(
                        "CREATE INDEX outbox_message_unpublished ON public.outbox_message USING btree (\"position\") "
                                + "WHERE (published_at IS NULL)",
                        "CREATE INDEX outbox_message_unpublished_by_aggregate ON public.outbox_message USING btree "
                                + "(aggregate_type, aggregate_id, \"position\") WHERE (published_at IS NULL)");
    }

    private Flyway flyway(MigrationVersion target) {
        var configuration = Flyway.configure()
                .dataSource(database.url(), database.username(), database.password())
                .locations("classpath:db/migration/postgresql");
        return (target == null ? configuration : configuration.target(target)).load();
    }

    /** The release before V5, whatever versions other changes have added below it since. */
    private MigrationVersion lastVersionBeforePosition() {
        return Arrays.stream(flyway(null).info().all())
                .map(MigrationInfo::getVersion)
                .filter(version -> version.isAtLeast("1") && !version.isAtLeast(POSITION.getVersion()))
                .max(Comparator.naturalOrder())
                .orElseThrow();
    }

    /** The INSERT of the release before V5, which names neither position nor created_at. */
    private void insertAsThePreviousReleaseDoes(UUID id, Instant occurredAt) {
        jdbc.update("""
                INSERT INTO outbox_message
                    (id, aggregate_type, aggregate_id, type, exchange, routing_key, payload, headers, occurred_at)
                VALUES (?, 'order', 'order-1', 'bookstore.order-placed.v1', 'bookstore.ordering', 'order.placed',
                        CAST('{}' AS jsonb), CAST('{}' AS jsonb), ?)""", id, occurredAt.atOffset(ZoneOffset.UTC));
    }

    private List<UUID> idsByPosition() {
        return jdbc.queryForList("SELECT id FROM outbox_message ORDER BY position", UUID.class);
    }

    private List<String> columns() {
        return jdbc.queryForList(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'outbox_message'",
                String.class);
    }
}

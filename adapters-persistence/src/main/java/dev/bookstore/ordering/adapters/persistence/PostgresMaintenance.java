package dev.bookstore.ordering.adapters.persistence;

import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Warns once at start when PostgreSQL's autovacuum does not look after the tables that churn all day (the outbox,
 * the event registry, the inbox, the idempotency keys): their dead rows pile up and their statistics go stale.
 * Measured on a server with autovacuum off (the CI machine's): the relay's mark-published statement, prepared while
 * the outbox was empty, kept a plan that scanned the whole table on every batch, and the database spent 6.2 ms of
 * CPU per order at 150 orders/s instead of 1.8 with the tables vacuumed and analyzed every 30 s
 * (docs/benchmarks.md). Nothing else changes: the service works, slower every hour.
 */
@Component
class PostgresMaintenance {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMaintenance.class);

    /**
     * The churning tables of the current schema that autovacuum does not look after: all of them while the server's
     * {@code autovacuum} or {@code track_counts} is off, else those with {@code autovacuum_enabled} off.
     */
    static final String UNMAINTAINED_TABLES = """
            SELECT c.relname
              FROM pg_class c
             WHERE c.relnamespace = to_regnamespace(current_schema())
               AND c.relkind = 'r'
               AND c.relname IN ('outbox_message', 'event_publication', 'inbox_message', 'idempotency_key')
               AND (current_setting('autovacuum') <> 'on'
                    OR current_setting('track_counts') <> 'on'
                    OR EXISTS (SELECT 1 FROM unnest(c.reloptions) AS o(setting)
                                WHERE lower(o.setting) IN ('autovacuum_enabled=false', 'autovacuum_enabled=off',
                                                           'autovacuum_enabled=no', 'autovacuum_enabled=0')))
             ORDER BY c.relname""";

    private final DataSource dataSource;

    PostgresMaintenance(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warnWhenAutovacuumLeavesTablesAlone() {
        List<String> tables;
        try {
            if (Database.of(dataSource) != Database.POSTGRESQL) {
                return;
            }
            tables = unmaintainedTables(dataSource);
        } catch (DataAccessException | IllegalStateException e) {
            LOG.debug("Could not check PostgreSQL's autovacuum settings", e);
            return;
        }
        if (!tables.isEmpty()) {
            LOG.warn("PostgreSQL's autovacuum does not look after {}: their dead rows pile up and their statistics "
                    + "go stale, and the relay's statements come to scan the whole outbox. Turn autovacuum on "
                    + "(the server's autovacuum and track_counts, and no autovacuum_enabled = false on these "
                    + "tables), or run VACUUM (ANALYZE) on a schedule.", String.join(", ", tables));
        }
    }

    /** The churning tables nothing vacuums or analyzes, by name; empty when autovacuum looks after all of them. */
    static List<String> unmaintainedTables(DataSource dataSource) {
        return new JdbcTemplate(dataSource).queryForList(UNMAINTAINED_TABLES, String.class);
    }
}

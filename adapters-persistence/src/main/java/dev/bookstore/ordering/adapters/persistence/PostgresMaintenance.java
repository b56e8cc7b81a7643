package dev.bookstore.ordering.adapters.persistence;

import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Whether PostgreSQL maintains the tables that churn all day, rows inserted and then updated or deleted: the
 * outbox, the in-process event registry, the inbox and the idempotency keys. Autovacuum removes their dead rows
 * and keeps their statistics; without it both go stale for good. Measured on a server with autovacuum off (the CI
 * machine's): the relay's mark-published statement, prepared while the outbox was empty, kept a plan that scanned
 * the whole table on every batch, and the database spent 6.2 ms of CPU per order at 150 orders/s instead of 1.8 with
 * the tables vacuumed and analyzed every 30 s (docs/benchmarks.md).
 */
public final class PostgresMaintenance {

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

    private PostgresMaintenance() {
    }

    /** The churning tables nothing vacuums or analyzes, by name; empty when autovacuum looks after all of them. */
    public static List<String> unmaintainedTables(DataSource dataSource) {
        return new JdbcTemplate(dataSource).queryForList(UNMAINTAINED_TABLES, String.class);
    }
}

package dev.bookstore.ordering.bootstrap.observability;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.PostgresMaintenance;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Warns once at start when PostgreSQL's autovacuum does not look after the tables that churn (the outbox, the event
 * registry, the inbox, the idempotency keys): their dead rows then pile up and plans made while they were small stay,
 * and the relay's statements end up scanning the whole outbox (see {@link PostgresMaintenance}). Nothing else
 * changes: the service works, slower every hour.
 */
@Component
class PostgresMaintenanceWarning {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMaintenanceWarning.class);

    private final DataSource dataSource;

    PostgresMaintenanceWarning(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warnWhenAutovacuumLeavesTablesAlone() {
        List<String> tables;
        try {
            if (Database.of(dataSource) != Database.POSTGRESQL) {
                return;
            }
            tables = PostgresMaintenance.unmaintainedTables(dataSource);
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
}

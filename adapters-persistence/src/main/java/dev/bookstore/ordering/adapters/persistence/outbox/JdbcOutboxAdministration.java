package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.outbox.OutboxAdministrationDialect.Statement;
import dev.bookstore.ordering.application.outbox.admin.OutboxAdministration;
import dev.bookstore.ordering.application.outbox.admin.OutboxEntry;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** {@link OutboxAdministration} on plain JDBC, each method one auto-committed statement of its dialect. */
@Component
public class JdbcOutboxAdministration implements OutboxAdministration {

    private final JdbcTemplate jdbc;
    private final Database database;
    private final OutboxAdministrationDialect dialect;
    private final JsonMapper json;
    private final JdbcOutboxStore outbox;

    /** @param outbox the store on the same data source, which makes parked rows pending again */
    public JdbcOutboxAdministration(DataSource dataSource, JsonMapper json, JdbcOutboxStore outbox) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.outbox = outbox;
        this.database = outbox.database();
        this.dialect = OutboxAdministrationDialect.of(database);
        this.json = json;
    }

    @Override
    public Optional<OutboxEntry> find(UUID id) {
        return query(dialect.find(id)).stream().findFirst();
    }

    @Override
    public List<OutboxEntry> parked(long afterPosition, int limit) {
        return query(dialect.parked(afterPosition, limit));
    }

    @Override
    public long lastPosition() {
        Long last = jdbc.queryForObject("SELECT COALESCE(MAX(position), 0) FROM outbox_message", Long.class);
        return last == null ? 0 : last;
    }

    @Override
    public int unpark(Collection<UUID> ids) {
        return outbox.unpark(ids);
    }

    @Override
    public boolean deleteParked(UUID id) {
        return update(dialect.deleteParked(id)) == 1;
    }

    @Override
    public boolean resend(UUID id) {
        return update(dialect.resend(id)) == 1;
    }

    @Override
    public long countPublished(ReplaySelection selection, int atMost) {
        return count(dialect.countPublished(selection, atMost));
    }

    @Override
    public int resendPublished(ReplaySelection selection, int limit) {
        return update(dialect.resendPublished(selection, limit));
    }

    @Override
    public int insertParkedAgain(Collection<UUID> ids) {
        return ids.isEmpty() ? 0 : update(dialect.insertParkedAgain(ids));
    }

    @Override
    public boolean insertAgain(UUID id) {
        return update(dialect.insertAgain(id)) == 1;
    }

    @Override
    public long countNotParked(ReplaySelection selection, int atMost) {
        return count(dialect.countNotParked(selection, atMost));
    }

    @Override
    public int insertAgain(ReplaySelection selection, int limit) {
        return update(dialect.insertAgain(selection, limit));
    }

    private long count(Statement count) {
        Long counted = jdbc.queryForObject(count.sql(), Long.class, count.parameters());
        return counted == null ? 0 : counted;
    }

    private int update(Statement statement) {
        return jdbc.update(statement.sql(), statement.parameters());
    }

    private List<OutboxEntry> query(Statement statement) {
        return jdbc.query(statement.sql(), this::toEntry, statement.parameters());
    }

    private OutboxEntry toEntry(ResultSet rs, int row) throws SQLException {
        return new OutboxEntry(JdbcOutboxStore.readMessage(rs, database, json),
                OutboxEntry.Status.valueOf(rs.getString(12)), rs.getString(13), database.instant(rs, 14),
                database.instant(rs, 15), database.instant(rs, 16));
    }
}

package dev.bookstore.ordering.adapters.persistence.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.testing.MigratedDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestEngine;
import dev.bookstore.ordering.application.outbox.admin.OutboxEntry;
import dev.bookstore.ordering.application.outbox.admin.ReplaySelection;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The outbox administration contract on a real PostgreSQL, in a database of its own made for this class; and the
 * statements only PostgreSQL has, for the CDC relay, which reads inserts only.
 */
class PostgresOutboxAdministrationIT extends JdbcOutboxAdministrationContract {

    @RegisterExtension
    static final MigratedDatabase DATABASE = new MigratedDatabase(TestEngine.POSTGRESQL, "outbox-administration", 4);

    @Override
    protected DataSource dataSource() {
        return DATABASE.dataSource();
    }

    @Override
    protected Database expectedDatabase() {
        return Database.POSTGRESQL;
    }

    @Test
    void aParkedRowIsInsertedAgainPendingAndFreshWithItsIdAndContent() {
        UUID parked = park("order-a");
        UUID sent = store("order-b");
        OutboxEntry before = admin().find(parked).orElseThrow();

        assertThat(admin().insertParkedAgain(List.of(parked, sent))).as("only the parked one").isEqualTo(1);

        OutboxEntry after = admin().find(parked).orElseThrow();
        assertThat(after.status()).isEqualTo(OutboxEntry.Status.PENDING);
        assertThat(after.message().attempts()).isZero();
        assertThat(after.lastError()).isNull();
        assertThat(after.parkedAt()).isNull();
        assertThat(after.message().position()).as("a new insert").isGreaterThan(before.message().position());
        assertThat(after.message()).usingRecursiveComparison().ignoringFields("attempts", "position")
                .isEqualTo(before.message());
        assertThat(admin().insertParkedAgain(List.of(parked))).as("pending now").isZero();
    }

    @Test
    void rowsNotParkedAreInsertedAgainOneOrBySelectionInTheirOldOrder() {
        UUID first = store("order-a");
        UUID second = store("order-a");
        UUID other = store("order-b");
        UUID parked = park("order-a");
        long otherPosition = admin().find(other).orElseThrow().message().position();

        assertThat(admin().insertAgain(parked)).isFalse();
        assertThat(admin().insertAgain(UUID.randomUUID())).isFalse();
        assertThat(admin().insertAgain(other)).isTrue();
        assertThat(admin().find(other).orElseThrow().message().position()).isGreaterThan(otherPosition);

        ReplaySelection orderA = new ReplaySelection("order", "order-a", null, null);
        assertThat(admin().countNotParked(orderA, 10)).isEqualTo(2);
        assertThat(admin().countNotParked(orderA, 1)).as("counts at most the limit and one").isEqualTo(2);
        assertThat(admin().insertAgain(orderA, 1)).as("the lowest position: first, now after second").isEqualTo(1);
        assertThat(admin().find(first).orElseThrow().message().position())
                .isGreaterThan(admin().find(second).orElseThrow().message().position());
        assertThat(admin().insertAgain(orderA, 10)).isEqualTo(2);
        assertThat(admin().find(first).orElseThrow().message().position()).as("inserted again in their old order")
                .isGreaterThan(admin().find(second).orElseThrow().message().position());
        assertThat(admin().find(parked).orElseThrow().status()).isEqualTo(OutboxEntry.Status.PARKED);
    }
}

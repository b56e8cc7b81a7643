package dev.bookstore.ordering.consumer;

import com.zaxxer.hikari.HikariDataSource;
import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestMariaDb;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The inbox on a real MariaDB, in a database of its own migrated as a consumer would: a Flyway of its own. Its pool
 * runs at {@code READ COMMITTED}, as the purge does: there the held row's lock, taken by a scan, is that row's only.
 */
class MariaDbInboxStoreIT extends JdbcInboxStoreContract {

    private static TestDatabase database;
    private static HikariDataSource dataSource;

    MariaDbInboxStoreIT() {
        super(() -> dataSource, "UPDATE inbox_message SET received_at = received_at - INTERVAL 2 HOUR",
                "SELECT 1 FROM inbox_message WHERE message_id = ? FOR UPDATE");
    }

    @BeforeAll
    static void migrate() {
        database = TestMariaDb.newDatabase();
        Flyway.configure().dataSource(database.url(), database.username(), database.password())
                .locations("classpath:db/ordering-inbox/mariadb").table("ordering_inbox_schema_history")
                .load().migrate();
        dataSource = TestMariaDb.pool(database, "inbox-contract", 4);
    }

    @AfterAll
    static void drop() {
        if (dataSource != null) {
            dataSource.close();
        }
        if (database != null) {
            database.drop();
        }
    }
}

package dev.bookstore.ordering.consumer;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The inbox on a real PostgreSQL, in a database of its own migrated as a consumer would: a Flyway of its own. */
class PostgresInboxStoreIT extends JdbcInboxStoreContract {

    private static TestDatabase database;
    private static DataSource dataSource;

    PostgresInboxStoreIT() {
        super(() -> dataSource, "UPDATE inbox_message SET received_at = received_at - interval '2 hours'",
                "SELECT 1 FROM inbox_message WHERE message_id = CAST(? AS uuid) FOR UPDATE");
    }

    @BeforeAll
    static void migrate() {
        database = TestPostgres.newDatabase();
        Flyway.configure().dataSource(database.url(), database.username(), database.password())
                .locations("classpath:db/ordering-inbox/postgresql").table("ordering_inbox_schema_history")
                .load().migrate();
        dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
    }

    @AfterAll
    static void drop() {
        TestPostgres.drop(database);
    }
}

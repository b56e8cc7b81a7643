package dev.bookstore.ordering.adapters.persistence.testing;

import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A database of one test class ({@code @RegisterExtension static}) on an engine's test server, migrated with the
 * service's schema for that engine, and a pool on it; dropped after the class, as {@link TestSqlServer} does for SQL
 * Server.
 */
public final class MigratedDatabase implements BeforeAllCallback, AfterAllCallback {

    private final TestEngine engine;
    private final String poolName;
    private final int poolSize;
    private PooledTestDatabase database;

    public MigratedDatabase(TestEngine engine, String poolName, int poolSize) {
        this.engine = engine;
        this.poolName = poolName;
        this.poolSize = poolSize;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        database = switch (engine) {
            case POSTGRESQL -> TestPostgres.newMigratedPool(poolName, poolSize);
            case MARIADB -> TestMariaDb.newMigratedPool(poolName, poolSize);
        };
    }

    public DataSource dataSource() {
        return database.dataSource();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (database != null) {
            database.close();
        }
    }
}

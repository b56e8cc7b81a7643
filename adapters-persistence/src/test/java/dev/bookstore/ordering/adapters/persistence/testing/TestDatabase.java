package dev.bookstore.ordering.adapters.persistence.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * Connection settings of a fresh, empty database of one test (class), made by {@link TestPostgres} or
 * {@link TestMariaDb}; {@link #drop()} removes it from the server it came from.
 */
public record TestDatabase(String url, String username, String password, String name) {

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, username, password);
    }

    /** Whether this is a MariaDB database (else PostgreSQL). */
    public boolean mariaDb() {
        return url.startsWith("jdbc:mariadb:");
    }

    /** Drops the database, closing (PostgreSQL) or outliving (MariaDB) the connections still open on it. */
    public void drop() {
        if (mariaDb()) {
            TestMariaDb.drop(this);
        } else {
            TestPostgres.drop(this);
        }
    }
}

package dev.bookstore.ordering.adapters.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The engines the persistence adapter speaks, told from the JDBC metadata of a live connection, never from a
 * hand-set flag. Each store picks its dialect with an exhaustive {@code switch} over these constants, so an engine
 * added here does not compile until every store has a dialect for it; an engine not listed fails at start.
 */
public enum Database {

    POSTGRESQL,
    SQL_SERVER;

    public static Database of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        if (product.startsWith("PostgreSQL")) {
            return POSTGRESQL;
        }
        if (product.startsWith("Microsoft SQL Server")) {
            return SQL_SERVER;
        }
        throw new IllegalStateException("The ordering service stores its data on PostgreSQL and Microsoft SQL "
                + "Server, not " + product);
    }

    public static Database of(DataSource dataSource) {
        return new JdbcTemplate(dataSource).execute((ConnectionCallback<Database>) Database::of);
    }

    /** An id as the driver binds it: a {@code uuid} on PostgreSQL, text for SQL Server's {@code uniqueidentifier}. */
    public Object id(UUID id) {
        return switch (this) {
            case POSTGRESQL -> id;
            case SQL_SERVER -> id.toString();
        };
    }
}

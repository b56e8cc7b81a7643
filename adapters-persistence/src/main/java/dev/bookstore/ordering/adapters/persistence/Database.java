package dev.bookstore.ordering.adapters.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The databases the persistence adapter speaks, told from the JDBC metadata of a live connection, never from a
 * hand-set flag: switching the datasource switches every dialect with it.
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

    /**
     * An id as this database's driver binds it: a {@code uuid} on PostgreSQL, its text for SQL Server's
     * {@code uniqueidentifier}.
     */
    public Object id(UUID id) {
        return this == POSTGRESQL ? id : id.toString();
    }
}

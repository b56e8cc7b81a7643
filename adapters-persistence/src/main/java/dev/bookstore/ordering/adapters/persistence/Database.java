package dev.bookstore.ordering.adapters.persistence;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The engines the persistence adapter speaks, told from the JDBC metadata of a live connection, never from a
 * hand-set flag. Each store picks its dialect with {@link #pick}, which takes one per engine, so an engine added here
 * does not compile until every store has a dialect for it; an engine not listed fails at start.
 */
public enum Database {

    POSTGRESQL,
    SQL_SERVER,
    /** MariaDB 10.11 or later (SKIP LOCKED, a native uuid type); MySQL answers with its own name and is refused. */
    MARIADB;

    public static Database of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        if (product.startsWith("PostgreSQL")) {
            return POSTGRESQL;
        }
        if (product.startsWith("Microsoft SQL Server")) {
            return SQL_SERVER;
        }
        if (product.startsWith("MariaDB")) {
            return MARIADB;
        }
        throw new IllegalStateException("The ordering service stores its data on PostgreSQL, Microsoft SQL "
                + "Server and MariaDB, not " + product);
    }

    public static Database of(DataSource dataSource) {
        return new JdbcTemplate(dataSource).execute((ConnectionCallback<Database>) Database::of);
    }

    /** The one of {@code postgres}, {@code sqlServer} and {@code mariaDb} made for this engine. */
    public <T> T pick(Supplier<? extends T> postgres, Supplier<? extends T> sqlServer, Supplier<? extends T> mariaDb) {
        return switch (this) {
            case POSTGRESQL -> postgres.get();
            case SQL_SERVER -> sqlServer.get();
            case MARIADB -> mariaDb.get();
        };
    }

    /**
     * The database's clock in SQL: every time comparison uses it, never a JVM's. MariaDB's is UTC, as its
     * {@code datetime(6)} columns hold.
     */
    public String now() {
        return switch (this) {
            case POSTGRESQL -> "now()";
            case SQL_SERVER -> "SYSDATETIMEOFFSET()";
            case MARIADB -> "UTC_TIMESTAMP(6)";
        };
    }

    /** {@link #now()} plus one parameter, a delay in milliseconds bound as {@link #milliseconds} binds it. */
    public String nowPlusMilliseconds() {
        return switch (this) {
            case POSTGRESQL -> "now() + ? * interval '1 millisecond'";
            case SQL_SERVER -> "DATEADD(millisecond, ?, SYSDATETIMEOFFSET())";
            case MARIADB -> "UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND";
        };
    }

    /**
     * A delay in milliseconds as the engine's date arithmetic takes it. SQL Server's DATEADD takes an int, about
     * 24.8 days in milliseconds: a longer delay (a backoff-max beyond that) is cut to it rather than failing the
     * statement.
     */
    public Object milliseconds(Duration delay) {
        return switch (this) {
            case POSTGRESQL, MARIADB -> delay.toMillis();
            case SQL_SERVER -> (int) Math.min(delay.toMillis(), Integer.MAX_VALUE);
        };
    }

    /**
     * An id as the driver binds it: a {@code uuid} on PostgreSQL, text for SQL Server's {@code uniqueidentifier} and
     * MariaDB's {@code uuid}.
     */
    public Object id(UUID id) {
        return switch (this) {
            case POSTGRESQL -> id;
            case SQL_SERVER, MARIADB -> id.toString();
        };
    }

    /**
     * A point in time as the driver binds it: an offset date-time for PostgreSQL's {@code timestamptz} and SQL
     * Server's {@code datetimeoffset}; for MariaDB's {@code datetime(6)}, which has no zone, the UTC wall clock as a
     * {@code LocalDateTime}, which Connector/J stores as it is (an {@code OffsetDateTime} it would move to the JVM's
     * zone). Every MariaDB column holds UTC, and its statements compare with {@code UTC_TIMESTAMP(6)}.
     */
    public Object timestamp(Instant instant) {
        return switch (this) {
            case POSTGRESQL, SQL_SERVER -> instant.atOffset(ZoneOffset.UTC);
            case MARIADB -> LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        };
    }

    /** The point in time in {@code column}, written as {@link #timestamp} writes it; null for SQL {@code NULL}. */
    public Instant instant(ResultSet rs, int column) throws SQLException {
        return switch (this) {
            case POSTGRESQL, SQL_SERVER -> {
                OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
                yield value == null ? null : value.toInstant();
            }
            case MARIADB -> {
                LocalDateTime value = rs.getObject(column, LocalDateTime.class);
                yield value == null ? null : value.toInstant(ZoneOffset.UTC);
            }
        };
    }
}

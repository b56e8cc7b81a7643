package dev.bookstore.ordering.adapters.cdc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The outbox table the service writes and the publication the connector reads, made to agree. The table is the
 * {@code outbox_message} the application's connections resolve (their search path: {@code currentSchema=} of the
 * JDBC URL, or the server's default), in whatever schema; the connector captures that schema's table. The
 * publication ({@code publication.name}, created by migration V8 in the schema Flyway migrated) must publish
 * exactly that table: otherwise every insert would be skipped as a table nobody captures, the heartbeats would move
 * the slot past it, and nothing would be sent.
 */
public final class OutboxPublication {

    static final String TABLE = "outbox_message";

    private OutboxPublication() {
    }

    /**
     * The schema of the outbox table {@code pool}'s connections write, after checking that the documented publication
     * publishes exactly that table.
     *
     * @throws IllegalStateException when there is no outbox table, no publication, or the publication publishes
     *                               anything else; the message says what to set
     */
    public static String capturedSchema(DataSource pool) {
        String publication = OutboxConnectorConfiguration.documented().getProperty("publication.name");
        try (Connection connection = pool.getConnection()) {
            String schema = tableSchema(connection);
            List<String> published = publishedTables(connection, publication);
            String written = schema + "." + TABLE;
            if (published == null) {
                throw new IllegalStateException("The CDC relay reads publication " + publication + ", which does "
                        + "not exist in this database: the schema must be at version 8 (Flyway migration V8 creates "
                        + "it for " + TABLE + ")");
            }
            if (!published.equals(List.of(written))) {
                throw new IllegalStateException("Publication " + publication + " publishes " + published
                        + ", but the service writes " + written + " (the " + TABLE + " on the search path of "
                        + "spring.datasource.url, e.g. its currentSchema=): the connector would capture nothing. "
                        + "Let Flyway migrate the schema the service's connections use (the same currentSchema=, or "
                        + "spring.flyway.default-schema), or publish that table: ALTER PUBLICATION " + publication
                        + " SET TABLE " + quote(schema) + "." + TABLE);
            }
            return schema;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot check the outbox table and publication " + publication, e);
        }
    }

    /** {@code name} as a quoted SQL identifier. */
    static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static String tableSchema(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE c.oid = to_regclass(?)""")) {
            select.setString(1, TABLE);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("No " + TABLE + " on the search path of the service's "
                            + "connections (" + searchPath(connection) + "): is the schema migrated, into the schema "
                            + "that spring.datasource.url's currentSchema= names?");
                }
                return row.getString(1);
            }
        }
    }

    /** The tables the publication publishes, as schema.table; null when there is no such publication. */
    private static List<String> publishedTables(Connection connection, String publication) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement(
                "SELECT 1 FROM pg_publication WHERE pubname = ?")) {
            exists.setString(1, publication);
            try (ResultSet row = exists.executeQuery()) {
                if (!row.next()) {
                    return null;
                }
            }
        }
        List<String> tables = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ?
                 ORDER BY schemaname, tablename""")) {
            select.setString(1, publication);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    tables.add(rows.getString(1) + "." + rows.getString(2));
                }
            }
        }
        return tables;
    }

    private static String searchPath(Connection connection) throws SQLException {
        try (PreparedStatement show = connection.prepareStatement("SHOW search_path");
             ResultSet row = show.executeQuery()) {
            return row.next() ? "search_path " + row.getString(1) : "no search_path";
        }
    }
}

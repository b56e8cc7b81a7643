package dev.bookstore.ordering.adapters.cdc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.Set;

/**
 * The embedded engine's configuration: the documented connector and outbox router configuration
 * ({@value #RESOURCE}, the same file as {@code docs/cdc/outbox-connector.properties}) plus the connection, the
 * outbox table of the service's schema, the slot, the offsets in the service's database, an offset commit at most
 * every second, after confirms, and the poll interval if the service's configuration sets one.
 */
public final class OutboxConnectorConfiguration {

    static final String RESOURCE = "outbox-connector.properties";

    static final String DATABASE_PREFIX = "database.";
    static final String DRIVER_PREFIX = "driver.";

    /** Driver settings the connector has keys of its own for (Debezium's PostgreSQL connector, 3.x). */
    private static final Set<String> CONNECTOR_KEYS = Set.of("sslrootcert", "sslcert", "sslkey", "sslpassword",
            "sslfactory", "tcpKeepAlive");
    /** What the connector sets itself, or the URL's host part carries. */
    private static final Set<String> NOT_PASSED = Set.of("PGHOST", "PGPORT", "PGDBNAME", "user", "password",
            "sslmode", "ssl", "ApplicationName", "replication", "preferQueryMode");

    private OutboxConnectorConfiguration() {
    }

    /** The documented configuration as it is, without anything this service adds. */
    public static Properties documented() {
        Properties properties = new Properties();
        try (InputStream in = OutboxConnectorConfiguration.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the adapters-cdc jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /**
     * What the embedded engine runs with. The connection is the pool's ({@link CdcSettings#database()}): host, port
     * and database of the URL, its user and password, the TLS settings under the connector's own keys
     * ({@value #DATABASE_PREFIX}{@code sslmode}, {@code sslrootcert}, {@code sslcert}, {@code sslkey},
     * {@code sslpassword}, {@code sslfactory}, {@code tcpKeepAlive}) and every other driver setting under
     * {@value #DRIVER_PREFIX}, which the connector hands to the driver on each of its connections, the replication
     * stream's included.
     *
     * @throws IllegalStateException when the pool connects in a way the connector cannot: several hosts, or a
     *                               {@code targetServerType}
     */
    public static Properties engine(CdcSettings settings) {
        Properties connection = settings.database().effective();
        Properties properties = documented();
        properties.setProperty("name", "ordering-outbox-" + settings.slotName());
        connect(properties, connection);
        properties.setProperty("table.include.list", includeListEntry(settings.schema()));
        properties.setProperty("slot.name", settings.slotName());
        properties.setProperty("offset.storage", JdbcOffsetBackingStore.class.getName());
        JdbcOffsetBackingStore.configure(properties, settings);
        if (settings.pollInterval() != null) {
            properties.setProperty("poll.interval.ms", Long.toString(settings.pollInterval().toMillis()));
        }
        // Offsets are committed when the consumer marks a batch finished, which it does only after confirms, and at
        // most once a second: one statement a second, not one per batch of a few orders. The heartbeat (every
        // second) finishes a batch on a quiet outbox too, so the last offsets of a burst are committed within ~2 s.
        properties.setProperty("offset.flush.interval.ms", "1000");
        properties.setProperty("offset.flush.timeout.ms", "10000");
        // A broken connection ends the engine; CdcRelay restarts it with its own backoff, as leader only.
        properties.setProperty("errors.max.retries", "0");
        return properties;
    }

    private static void connect(Properties engine, Properties connection) {
        String hosts = connection.getProperty("PGHOST");
        if (hosts.contains(",")) {
            throw new IllegalStateException("The CDC relay reads its replication slot on one server, but the JDBC "
                    + "URL names several hosts (" + hosts + "), between which Debezium's connector cannot choose. "
                    + "Give spring.datasource.url one host, the primary's (e.g. a name that follows failover), to run "
                    + "ordering.outbox.relay=cdc.");
        }
        String targetServerType = connection.getProperty("targetServerType");
        if (targetServerType != null && !targetServerType.equals("any")) {
            throw new IllegalStateException("The JDBC URL or spring.datasource.hikari.data-source-properties set "
                    + "targetServerType=" + targetServerType + ", which Debezium's connector cannot honour: it reads "
                    + "the slot on the one host it is given. Remove targetServerType and give spring.datasource.url "
                    + "the primary's host to run ordering.outbox.relay=cdc.");
        }
        engine.setProperty("database.hostname", hosts);
        engine.setProperty("database.port", connection.getProperty("PGPORT", "5432"));
        engine.setProperty("database.dbname", connection.getProperty("PGDBNAME"));
        engine.setProperty("database.user", connection.getProperty("user", ""));
        engine.setProperty("database.password", connection.getProperty("password", ""));
        String sslmode = sslmode(connection);
        if (sslmode != null) {
            engine.setProperty("database.sslmode", sslmode);
        }
        connection.stringPropertyNames().stream().filter(name -> !NOT_PASSED.contains(name)).forEach(name ->
                engine.setProperty((CONNECTOR_KEYS.contains(name) ? DATABASE_PREFIX : DRIVER_PREFIX) + name,
                        connection.getProperty(name)));
    }

    /** The driver's TLS mode for these settings: {@code sslmode}, else {@code ssl=true} means verify-full. */
    private static String sslmode(Properties connection) {
        String sslmode = connection.getProperty("sslmode");
        if (sslmode != null) {
            return sslmode;
        }
        String ssl = connection.getProperty("ssl");
        return ssl != null && (ssl.isEmpty() || ssl.equalsIgnoreCase("true")) ? "verify-full" : null;
    }

    /**
     * The connector's include list (regular expressions of schema.table, as the documented
     * {@code public.outbox_message}) for the outbox table in {@code schema}.
     */
    static String includeListEntry(String schema) {
        return schema.replaceAll("[^A-Za-z0-9_]", "\\\\$0") + "." + OutboxPublication.TABLE;
    }
}

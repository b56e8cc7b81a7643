package dev.bookstore.ordering.adapters.cdc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * The embedded engine's configuration: the documented connector and outbox router configuration
 * ({@value #RESOURCE}, the same file as {@code docs/cdc/outbox-connector.properties}) plus the connection, the
 * slot, the offsets in the service's database, an offset commit at most every second, after confirms, and the
 * poll interval if the service's configuration sets one.
 */
public final class OutboxConnectorConfiguration {

    static final String RESOURCE = "outbox-connector.properties";

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

    /** What the embedded engine runs with. */
    public static Properties engine(CdcSettings settings) {
        Properties url = Driver.parseURL(settings.jdbcUrl(), null);
        if (url == null) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + settings.jdbcUrl());
        }
        Properties properties = documented();
        properties.setProperty("name", "ordering-outbox-" + settings.slotName());
        properties.setProperty("database.hostname", url.getProperty("PGHOST").split(",")[0]);
        properties.setProperty("database.port", url.getProperty("PGPORT", "5432").split(",")[0]);
        properties.setProperty("database.dbname", url.getProperty("PGDBNAME"));
        properties.setProperty("database.user", settings.username() == null ? "" : settings.username());
        properties.setProperty("database.password", settings.password() == null ? "" : settings.password());
        properties.setProperty("slot.name", settings.slotName());
        properties.setProperty("offset.storage", JdbcOffsetBackingStore.class.getName());
        properties.setProperty(JdbcOffsetBackingStore.URL, settings.jdbcUrl());
        properties.setProperty(JdbcOffsetBackingStore.USER, settings.username() == null ? "" : settings.username());
        properties.setProperty(JdbcOffsetBackingStore.PASSWORD,
                settings.password() == null ? "" : settings.password());
        properties.setProperty(JdbcOffsetBackingStore.SLOT, settings.slotName());
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
}

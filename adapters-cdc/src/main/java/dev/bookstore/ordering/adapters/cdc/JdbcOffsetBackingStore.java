package dev.bookstore.ordering.adapters.cdc;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

/**
 * The engine's offsets in the service's own database, table {@code outbox_cdc_offset} (Flyway V8) beside the
 * captured outbox table (in its schema), one set per replication slot, over a connection made as the pool's. Debezium's JDBC offset store is not on Maven Central at the Debezium version used here. Every
 * commit is written before the engine goes on ({@link #save()} runs inside the commit), so a restart reads what the
 * last commit wrote. The engine waits for each commit, so the store keeps one connection open rather than paying a
 * new one's start every commit (the offsets are read on it at start too); a write that fails is tried once more on
 * a new connection; whether the last commit is written is told to the engine's {@link OffsetWrites}, which holds
 * the stream while it is not. Instantiated by the engine by class name, configured by the
 * {@code offset.storage.ordering.*} keys ({@link #configure(Properties, CdcSettings)}).
 */
public final class JdbcOffsetBackingStore extends MemoryOffsetBackingStore {

    static final String URL = "offset.storage.ordering.jdbc.url";
    static final String USER = "offset.storage.ordering.jdbc.user";
    static final String PASSWORD = "offset.storage.ordering.jdbc.password";
    /** Followed by a driver property's name: the pool's driver properties. */
    static final String PROPERTY = "offset.storage.ordering.jdbc.property.";
    static final String SCHEMA = "offset.storage.ordering.schema";
    static final String SLOT = "offset.storage.ordering.slot";
    static final String WRITES = "offset.storage.ordering.writes";
    static final String INSTANCE = "offset.storage.ordering.instance";
    /**
     * Seconds a statement of the store may wait for the server: on a connection that stopped answering the write
     * fails and is tried on a new connection, instead of waiting until the operating system gives up on the old
     * one. Its statements are one select and one small upsert.
     */
    private static final String SOCKET_TIMEOUT_SECONDS = "30";

    private DatabaseConnection database;
    private String table;
    private String slot;
    private String instance;
    private Connection connection;
    private OffsetWrites writes;

    /** The keys that configure the store in the engine's configuration. */
    static void configure(Properties engine, CdcSettings settings) {
        DatabaseConnection database = settings.database();
        engine.setProperty(URL, database.jdbcUrl());
        if (database.username() != null) {
            engine.setProperty(USER, database.username());
        }
        if (database.password() != null) {
            engine.setProperty(PASSWORD, database.password());
        }
        database.properties().forEach((name, value) -> engine.setProperty(PROPERTY + name, value));
        engine.setProperty(SCHEMA, settings.schema());
        engine.setProperty(SLOT, settings.slotName());
        engine.setProperty(INSTANCE, settings.instance());
    }

    @Override
    public void configure(WorkerConfig config) {
        super.configure(config);
        Map<String, Object> originals = config.originals();
        Map<String, String> properties = new HashMap<>();
        originals.forEach((key, value) -> {
            if (key.startsWith(PROPERTY)) {
                properties.put(key.substring(PROPERTY.length()), String.valueOf(value));
            }
        });
        database = new DatabaseConnection((String) originals.get(URL), (String) originals.get(USER),
                (String) originals.get(PASSWORD), properties);
        table = OutboxPublication.quote((String) originals.get(SCHEMA)) + ".outbox_cdc_offset";
        slot = (String) originals.get(SLOT);
        writes = OffsetWrites.of((String) originals.get(WRITES));
        instance = (String) originals.get(INSTANCE);
    }

    @Override
    public synchronized void start() {
        super.start();
        Map<ByteBuffer, ByteBuffer> loaded = new HashMap<>();
        try (PreparedStatement select = connection().prepareStatement(
                "SELECT offset_key, offset_value FROM " + table + " WHERE slot_name = ?")) {
            select.setString(1, slot);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    loaded.put(ByteBuffer.wrap(rows.getBytes(1)), ByteBuffer.wrap(rows.getBytes(2)));
                }
            }
        } catch (SQLException e) {
            close();
            throw new ConnectException("Cannot read the CDC offsets of slot " + slot, e);
        }
        data.putAll(loaded);
    }

    @Override
    public synchronized void stop() {
        super.stop();
        close();
    }

    @Override
    protected synchronized void save() {
        writes.writing();
        try {
            write();
        } catch (SQLException first) {
            close(); // a connection the server ended: once more on a new one
            try {
                write();
            } catch (SQLException e) {
                close();
                e.addSuppressed(first);
                ConnectException failed = new ConnectException("Cannot write the CDC offsets of slot " + slot, e);
                writes.failed(failed);
                throw failed;
            }
        }
        writes.written();
    }

    private void write() throws SQLException {
        try (PreparedStatement upsert = connection().prepareStatement("INSERT INTO " + table + """
                 (slot_name, offset_key, offset_value) VALUES (?, ?, ?)
                ON CONFLICT (slot_name, offset_key)
                DO UPDATE SET offset_value = EXCLUDED.offset_value, committed_at = now()""")) {
            for (Map.Entry<ByteBuffer, ByteBuffer> entry : data.entrySet()) {
                if (entry.getValue() == null) {
                    continue;
                }
                upsert.setString(1, slot);
                upsert.setBytes(2, bytes(entry.getKey()));
                upsert.setBytes(3, bytes(entry.getValue()));
                upsert.addBatch();
            }
            upsert.executeBatch();
        }
    }

    private void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // gone already
            }
            connection = null;
        }
    }

    /** Nothing asks for the partitions of the one connector an embedded engine runs. */
    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Set.of();
    }

    /** The store's one connection, opened at the first use after start or after a failure. */
    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = database.open("ordering-cdc-offsets " + instance,
                    Map.of("tcpKeepAlive", "true", "socketTimeout", SOCKET_TIMEOUT_SECONDS));
        }
        return connection;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }
}

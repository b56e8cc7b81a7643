package dev.bookstore.ordering.adapters.cdc;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

/**
 * The engine's offsets in the service's own database, table {@code outbox_cdc_offset} (Flyway V8), one set per
 * replication slot. Debezium's JDBC offset store is not on Maven Central at the Debezium version used here. Every
 * commit is written before the engine goes on ({@link #save()} runs inside the commit), so a restart reads what the
 * last commit wrote. The engine waits for each commit, so the store keeps one connection open rather than paying a
 * new one's start every commit (the offsets are read on it at start too); a write that fails is tried once more on
 * a new connection; whether the last commit is written is told to the engine's {@link OffsetWrites}, which holds
 * the stream while it is not. Instantiated by the engine by class name, configured by the
 * {@code offset.storage.ordering.*} keys.
 */
public final class JdbcOffsetBackingStore extends MemoryOffsetBackingStore {

    static final String URL = "offset.storage.ordering.jdbc.url";
    static final String USER = "offset.storage.ordering.jdbc.user";
    static final String PASSWORD = "offset.storage.ordering.jdbc.password";
    static final String SLOT = "offset.storage.ordering.slot";
    static final String WRITES = "offset.storage.ordering.writes";

    private String url;
    private String user;
    private String password;
    private String slot;
    private Connection connection;
    private OffsetWrites writes;

    @Override
    public void configure(WorkerConfig config) {
        super.configure(config);
        Map<String, Object> originals = config.originals();
        url = (String) originals.get(URL);
        user = (String) originals.get(USER);
        password = (String) originals.get(PASSWORD);
        slot = (String) originals.get(SLOT);
        writes = OffsetWrites.of((String) originals.get(WRITES));
    }

    @Override
    public synchronized void start() {
        super.start();
        Map<ByteBuffer, ByteBuffer> loaded = new HashMap<>();
        try (PreparedStatement select = connection().prepareStatement(
                "SELECT offset_key, offset_value FROM outbox_cdc_offset WHERE slot_name = ?")) {
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
        try (PreparedStatement upsert = connection().prepareStatement("""
                INSERT INTO outbox_cdc_offset (slot_name, offset_key, offset_value) VALUES (?, ?, ?)
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
            connection = DriverManager.getConnection(url, user, password);
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

package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** Every connection of a pool, held by a test until closed; taking them checks that the pool then has none left. */
final class HeldConnections implements AutoCloseable {

    private final List<Connection> held = new ArrayList<>();

    private HeldConnections() {
    }

    /** Takes {@code size} connections of {@code pool} and checks that a further one is refused. */
    static HeldConnections all(DataSource pool, int size) throws SQLException {
        HeldConnections connections = new HeldConnections();
        try {
            for (int i = 0; i < size; i++) {
                connections.held.add(pool.getConnection());
            }
            assertThatThrownBy(pool::getConnection).as("every connection of the pool is held")
                    .isInstanceOf(SQLException.class).hasMessageContaining("Connection is not available");
            return connections;
        } catch (SQLException | RuntimeException | Error e) {
            connections.close();
            throw e;
        }
    }

    @Override
    public void close() throws SQLException {
        for (Connection connection : held) {
            connection.close();
        }
    }
}

package dev.bookstore.ordering.bootstrap.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * What the try-out run started for this application context: an embedded PostgreSQL, an embedded AMQP
 * broker, or both, and the connection properties that point the service at them. It holds a lock on the data
 * directory for as long as it runs, so two instances never share one directory, and stops everything when the
 * context closes (after the pool, the relay and the listeners are gone).
 */
public final class LocalInfrastructure implements DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(LocalInfrastructure.class);

    private final Path dataDirectory;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private LocalPostgres postgres;
    private LocalAmqpBroker broker;

    private LocalInfrastructure(Path dataDirectory, FileChannel lockChannel, FileLock lock) {
        this.dataDirectory = dataDirectory;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Starts what {@code plan} asks for; on failure stops whatever had started and rethrows. */
    static LocalInfrastructure start(LocalInfrastructurePlan plan) throws IOException {
        Path directory = plan.dataDirectory();
        Files.createDirectories(directory);
        FileChannel channel = FileChannel.open(directory.resolve("instance.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new IllegalStateException("Another instance of the service uses the local data directory "
                    + directory + "; stop it, or give this one its own with ordering.local.data-dir");
        }
        LocalInfrastructure infrastructure = new LocalInfrastructure(directory, channel, lock);
        try {
            if (plan.startDatabase()) {
                infrastructure.postgres = LocalPostgres.start(directory.resolve("postgres"));
            }
            if (plan.startBroker()) {
                infrastructure.broker = LocalAmqpBroker.start(directory.resolve("broker"));
            }
        } catch (IOException | RuntimeException e) {
            infrastructure.destroy();
            throw e;
        }
        return infrastructure;
    }

    /** Where the data of the embedded servers lives. */
    public Path dataDirectory() {
        return dataDirectory;
    }

    /** The embedded PostgreSQL's port, if one was started. */
    public Optional<Integer> databasePort() {
        return Optional.ofNullable(postgres).map(LocalPostgres::port);
    }

    /** The embedded AMQP broker's port on 127.0.0.1, if one was started. */
    public Optional<Integer> brokerPort() {
        return Optional.ofNullable(broker).map(LocalAmqpBroker::port);
    }

    /** The Spring Boot properties that connect the service to what was started here. */
    Map<String, Object> connectionProperties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        if (postgres != null) {
            properties.put("spring.datasource.url", postgres.jdbcUrl());
            properties.put("spring.datasource.username", LocalPostgres.USER);
            properties.put("spring.datasource.password", "");
        }
        if (broker != null) {
            properties.put("spring.rabbitmq.host", "127.0.0.1");
            properties.put("spring.rabbitmq.port", broker.port());
            properties.put("spring.rabbitmq.username", LocalAmqpBroker.USERNAME);
            properties.put("spring.rabbitmq.password", LocalAmqpBroker.PASSWORD);
        }
        return properties;
    }

    @Override
    public void destroy() {
        if (broker != null) {
            try {
                broker.close();
            } catch (RuntimeException e) {
                LOG.warn("Could not stop the embedded AMQP broker cleanly", e);
            }
            broker = null;
        }
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException | RuntimeException e) {
                LOG.warn("Could not stop the embedded PostgreSQL cleanly", e);
            }
            postgres = null;
        }
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.debug("Could not release the lock on {}", dataDirectory, e);
        }
    }
}

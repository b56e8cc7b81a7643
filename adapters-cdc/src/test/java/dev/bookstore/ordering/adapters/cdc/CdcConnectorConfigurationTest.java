package dev.bookstore.ordering.adapters.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.relay.Backoff;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The documented connector and router configuration cannot drift from what the embedded engine runs: the engine
 * loads the same file, adds only connection, slot and offsets, and the Debezium Server example repeats every line
 * of it under Debezium Server's prefixes.
 */
class CdcConnectorConfigurationTest {

    private static final CdcSettings SETTINGS = new CdcSettings(
            "jdbc:postgresql://db.example:5433/ordering?sslmode=require", "ordering", "secret", "my_slot", "a",
            Duration.ofSeconds(1), Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(1)), null);

    @Test
    void theJarCarriesTheDocumentedFileAsItIs() throws IOException {
        assertThat(asMap(OutboxConnectorConfiguration.documented()))
                .isEqualTo(asMap(load(repositoryFile("docs/cdc/outbox-connector.properties"))))
                .containsEntry("plugin.name", "pgoutput")
                .containsEntry("transforms.outbox.type", "io.debezium.transforms.outbox.EventRouter")
                .containsEntry("publication.name", "ordering_outbox");
    }

    @Test
    void theEngineRunsEveryDocumentedSettingAndAddsOnlyConnectionSlotAndOffsets() {
        Map<String, String> documented = asMap(OutboxConnectorConfiguration.documented());
        Map<String, String> engine = asMap(OutboxConnectorConfiguration.engine(SETTINGS));

        documented.forEach((key, value) -> {
            if (!key.equals("slot.name")) {
                assertThat(engine).as(key).containsEntry(key, value);
            }
        });
        assertThat(engine).containsEntry("slot.name", "my_slot")
                .containsEntry("database.hostname", "db.example").containsEntry("database.port", "5433")
                .containsEntry("database.dbname", "ordering").containsEntry("database.user", "ordering")
                .containsEntry("offset.storage", JdbcOffsetBackingStore.class.getName())
                .containsEntry("offset.flush.interval.ms", "1000");
    }

    @Test
    void aPollIntervalOfTheServicesConfigurationReplacesTheDocumentedOne() {
        CdcSettings fast = new CdcSettings(SETTINGS.jdbcUrl(), SETTINGS.username(), SETTINGS.password(),
                SETTINGS.slotName(), SETTINGS.instance(), SETTINGS.leaderPollInterval(), SETTINGS.restartBackoff(),
                Duration.ofMillis(5));

        assertThat(OutboxConnectorConfiguration.documented()).containsEntry("poll.interval.ms", "10");
        assertThat(asMap(OutboxConnectorConfiguration.engine(fast))).containsEntry("poll.interval.ms", "5");
    }

    @Test
    void theDebeziumServerExampleRepeatsEveryDocumentedLineUnderItsPrefixes() throws IOException {
        Map<String, String> server = asMap(load(repositoryFile("docs/cdc/debezium-server.properties")));

        asMap(OutboxConnectorConfiguration.documented()).forEach((key, value) -> {
            String prefixed = key.startsWith("transforms") ? "debezium." + key : "debezium.source." + key;
            assertThat(server).as(prefixed).containsEntry(prefixed, value);
        });
    }

    private static Map<String, String> asMap(Properties properties) {
        Map<String, String> map = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }

    /** A file of the repository, found from the module's directory (Maven runs tests there) upwards. */
    private static Path repositoryFile(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative)) && Files.isRegularFile(dir.resolve("mvnw"))) {
                return dir.resolve(relative);
            }
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
    }
}

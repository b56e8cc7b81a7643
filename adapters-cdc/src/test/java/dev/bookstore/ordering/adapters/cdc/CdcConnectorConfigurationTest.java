package dev.bookstore.ordering.adapters.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    private static final CdcSettings SETTINGS = settings("jdbc:postgresql://db.example:5433/ordering?sslmode=require",
            Map.of());

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
            if (!key.equals("slot.name") && !key.equals("table.include.list")) {
                assertThat(engine).as(key).containsEntry(key, value);
            }
        });
        assertThat(engine).containsEntry("slot.name", "my_slot")
                .containsEntry("table.include.list", "public.outbox_message")
                .containsEntry("database.hostname", "db.example").containsEntry("database.port", "5433")
                .containsEntry("database.dbname", "ordering").containsEntry("database.user", "ordering")
                .containsEntry("offset.storage", JdbcOffsetBackingStore.class.getName())
                .containsEntry("offset.flush.interval.ms", "1000");
    }

    @Test
    void aPollIntervalOfTheServicesConfigurationReplacesTheDocumentedOne() {
        CdcSettings fast = new CdcSettings(SETTINGS.database(), SETTINGS.schema(), SETTINGS.slotName(),
                SETTINGS.instance(), SETTINGS.leaderPollInterval(), SETTINGS.restartBackoff(), Duration.ofMillis(5));

        assertThat(OutboxConnectorConfiguration.documented()).containsEntry("poll.interval.ms", "10");
        assertThat(asMap(OutboxConnectorConfiguration.engine(fast))).containsEntry("poll.interval.ms", "5");
    }

    @Test
    void theConnectorCapturesTheOutboxTableOfTheSchemaTheServiceWrites() {
        CdcSettings ordering = new CdcSettings(SETTINGS.database(), "ordering", SETTINGS.slotName(),
                SETTINGS.instance(), SETTINGS.leaderPollInterval(), SETTINGS.restartBackoff(), null);

        assertThat(asMap(OutboxConnectorConfiguration.engine(ordering)))
                .containsEntry("table.include.list", "ordering.outbox_message")
                .containsEntry(JdbcOffsetBackingStore.SCHEMA, "ordering");
        assertThat(OutboxConnectorConfiguration.includeListEntry("my$schema")).isEqualTo("my\\$schema.outbox_message");
    }

    @Test
    void theEngineConnectsWithTheTlsAndDriverSettingsOfTheUrlAndThePoolsProperties() {
        CdcSettings tls = settings("jdbc:postgresql://db.example/ordering?sslmode=verify-full"
                + "&sslrootcert=/etc/ca.crt&connectTimeout=3&user=from_url", Map.of("sslcert", "/etc/client.crt",
                "sslkey", "/etc/client.pk8", "sslpassword", "key-secret", "sslhostnameverifier", "my.Verifier"));

        assertThat(asMap(OutboxConnectorConfiguration.engine(tls)))
                .containsEntry("database.hostname", "db.example").containsEntry("database.port", "5432")
                .containsEntry("database.user", "from_url").containsEntry("database.password", "secret")
                .containsEntry("database.sslmode", "verify-full").containsEntry("database.sslrootcert", "/etc/ca.crt")
                .containsEntry("database.sslcert", "/etc/client.crt")
                .containsEntry("database.sslkey", "/etc/client.pk8")
                .containsEntry("database.sslpassword", "key-secret")
                .containsEntry("driver.sslhostnameverifier", "my.Verifier")
                .containsEntry("driver.connectTimeout", "3")
                .containsEntry(JdbcOffsetBackingStore.PROPERTY + "sslcert", "/etc/client.crt")
                .doesNotContainKeys("driver.user", "driver.password", "driver.PGHOST", "driver.sslmode");
    }

    @Test
    void sslTrueWithoutAModeMeansVerifyFullAsForTheDriver() {
        assertThat(asMap(OutboxConnectorConfiguration.engine(settings("jdbc:postgresql://db.example/ordering?ssl=true",
                Map.of())))).containsEntry("database.sslmode", "verify-full");
    }

    @Test
    void severalHostsStopTheStartWithAMessageThatSaysWhatToSet() {
        CdcSettings hosts = settings("jdbc:postgresql://db-1:5432,db-2:5432/ordering?sslmode=verify-full", Map.of());

        assertThatThrownBy(() -> OutboxConnectorConfiguration.engine(hosts))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("several hosts (db-1,db-2)")
                .hasMessageContaining("Give spring.datasource.url one host");
    }

    @Test
    void aTargetServerTypeStopsTheStartWithAMessageThatSaysWhatToSet() {
        CdcSettings primary = settings("jdbc:postgresql://db/ordering", Map.of("targetServerType", "primary"));

        assertThatThrownBy(() -> OutboxConnectorConfiguration.engine(primary))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("targetServerType=primary")
                .hasMessageContaining("Remove targetServerType");
    }

    @Test
    void theDebeziumServerExampleRepeatsEveryDocumentedLineUnderItsPrefixes() throws IOException {
        Map<String, String> server = asMap(load(repositoryFile("docs/cdc/debezium-server.properties")));

        asMap(OutboxConnectorConfiguration.documented()).forEach((key, value) -> {
            String prefixed = key.startsWith("transforms") ? "debezium." + key : "debezium.source." + key;
            assertThat(server).as(prefixed).containsEntry(prefixed, value);
        });
    }

    private static CdcSettings settings(String url, Map<String, String> poolProperties) {
        return new CdcSettings(new DatabaseConnection(url, "ordering", "secret", poolProperties), "public", "my_slot",
                "a", Duration.ofSeconds(1), Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(1)), null);
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

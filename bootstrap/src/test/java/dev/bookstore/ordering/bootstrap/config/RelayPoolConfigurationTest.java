package dev.bookstore.ordering.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.mock.env.MockEnvironment;

/**
 * The relay's pool as it is built, without starting it (no connection is made): the API pool's database and
 * {@code spring.datasource.hikari.*} settings, its own name and size, auto-commit whatever the API's pool says;
 * and the size from {@code ordering.outbox.*}.
 */
class RelayPoolConfigurationTest {

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();
    private static final Validator VALIDATOR = VALIDATION.getValidator();

    @AfterAll
    static void closeValidation() {
        VALIDATION.close();
    }

    @Test
    void theRelayPoolTakesTheApiPoolsDatabaseAndSettingsButItsOwnNameSizeAndAutoCommit() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.datasource.hikari.connection-timeout", "1234")
                .withProperty("spring.datasource.hikari.max-lifetime", "600000")
                .withProperty("spring.datasource.hikari.maximum-pool-size", "40")
                .withProperty("spring.datasource.hikari.pool-name", "api")
                .withProperty("spring.datasource.hikari.auto-commit", "false")
                .withProperty("spring.datasource.hikari.data-source-properties.sslmode", "require");

        try (HikariDataSource pool = DataSourceConfiguration.relayPool(
                dataSource("jdbc:postgresql://db.example:5432/ordering"), environment, 3, null, Optional.empty())) {
            assertThat(pool.getJdbcUrl()).isEqualTo("jdbc:postgresql://db.example:5432/ordering");
            assertThat(pool.getUsername()).isEqualTo("ordering-user");
            assertThat(pool.getPassword()).isEqualTo("secret");
            assertThat(pool.getConnectionTimeout()).isEqualTo(1234);
            assertThat(pool.getMaxLifetime()).isEqualTo(600_000);
            assertThat(pool.getDataSourceProperties()).containsEntry("sslmode", "require");
            assertThat(pool.getPoolName()).isEqualTo("ordering-relay");
            assertThat(pool.getMaximumPoolSize()).isEqualTo(3);
            assertThat(pool.isAutoCommit()).as("each relay statement commits by itself").isTrue();
            assertThat(pool.isRunning()).as("started by its first connection, not here").isFalse();
            assertThat(pool.getConnectionInitSql()).isNull();
        }
    }

    @Test
    void theStoresConnectionSetupRunsOnEveryRelayConnectionAfterTheApiPoolsOwn() {
        DataSourceProperties postgres = dataSource("jdbc:postgresql://db.example:5432/ordering");
        Optional<String> setup = Optional.of("SET synchronous_commit TO off");

        try (HikariDataSource pool = DataSourceConfiguration.relayPool(postgres, new MockEnvironment(), 2, null,
                setup)) {
            assertThat(pool.getConnectionInitSql()).isEqualTo("SET synchronous_commit TO off");
        }
        MockEnvironment withInitSql = new MockEnvironment()
                .withProperty("spring.datasource.hikari.connection-init-sql", "SET application_name TO 'ordering'");
        try (HikariDataSource pool = DataSourceConfiguration.relayPool(postgres, withInitSql, 2, null, setup)) {
            assertThat(pool.getConnectionInitSql())
                    .isEqualTo("SET application_name TO 'ordering'; SET synchronous_commit TO off");
        }
    }

    @Test
    void onSqlServerTheSamePoolWithSqlServersDriver() {
        try (HikariDataSource pool = DataSourceConfiguration.relayPool(
                dataSource("jdbc:sqlserver://db.example:1433;databaseName=ordering;encrypt=false"),
                new MockEnvironment().withProperty("spring.datasource.hikari.connection-timeout", "2000"), 2, null,
                Optional.empty())) {
            assertThat(pool.getDriverClassName()).isEqualTo("com.microsoft.sqlserver.jdbc.SQLServerDriver");
            assertThat(pool.getConnectionTimeout()).isEqualTo(2000);
            assertThat(pool.getPoolName()).isEqualTo("ordering-relay");
        }
    }

    @Test
    void theRelayPoolHasOneConnectionPerWorkerAndOneUnlessSetAndNeverFewerThanTheWorkers() {
        assertThat(outbox(Map.of()).relayPoolMaximumSize()).isEqualTo(2);
        assertThat(outbox(Map.of("ordering.outbox.workers", "4")).relayPoolMaximumSize()).isEqualTo(5);
        OutboxProperties set = outbox(Map.of("ordering.outbox.workers", "4",
                "ordering.outbox.relay-pool.maximum-size", "8"));
        assertThat(set.relayPoolMaximumSize()).isEqualTo(8);
        assertThat(VALIDATOR.validate(set)).isEmpty();

        OutboxProperties tooSmall = outbox(Map.of("ordering.outbox.workers", "4",
                "ordering.outbox.relay-pool.maximum-size", "3"));
        assertThat(VALIDATOR.validate(tooSmall)).extracting(violation -> violation.getMessage())
                .containsOnly("relay-pool.maximum-size must be at least workers: each relay worker uses one "
                        + "connection at a time");
        assertThat(VALIDATOR.validate(outbox(Map.of("ordering.outbox.relay-pool.maximum-size", "101"))))
                .extracting(violation -> violation.getPropertyPath().toString())
                .containsOnly("relayPool.maximumSize");
    }

    private static OutboxProperties outbox(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("ordering.outbox", OutboxProperties.class);
    }

    private static DataSourceProperties dataSource(String url) {
        DataSourceProperties properties = new DataSourceProperties();
        properties.setUrl(url);
        properties.setUsername("ordering-user");
        properties.setPassword("secret");
        return properties;
    }
}

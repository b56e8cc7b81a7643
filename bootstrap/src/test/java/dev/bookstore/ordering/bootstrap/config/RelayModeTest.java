package dev.bookstore.ordering.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.application.outbox.admin.RelayReading;
import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.env.MockEnvironment;

/**
 * {@code ordering.outbox.relay} chooses the relay; a configuration that still sets the removed
 * {@code ordering.outbox.enabled} stops the start; cdc refuses any database but PostgreSQL with a message that says so.
 */
class RelayModeTest {

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();

    @AfterAll
    static void closeValidation() {
        VALIDATION.close();
    }

    @Test
    void theRelayIsPollingUnlessARelayIsNamed() {
        assertThat(OnRelayCondition.relay(new MockEnvironment())).isEqualTo(Relay.POLLING);
        assertThat(OnRelayCondition.relay(env("ordering.outbox.relay", "cdc"))).isEqualTo(Relay.CDC);
        assertThat(OnRelayCondition.relay(env("ordering.outbox.relay", "NONE"))).isEqualTo(Relay.NONE);
        assertThat(bind(Map.of()).relay()).isEqualTo(Relay.POLLING);
        assertThat(bind(Map.of("ordering.outbox.relay", "cdc")).relay()).isEqualTo(Relay.CDC);
    }

    @Test
    void aConfigurationThatStillSetsTheRemovedEnabledStopsTheStartWithAMessageNamingRelay() {
        ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(PerMode.class);

        for (String removed : List.of("ordering.outbox.enabled=false", "ordering.outbox.enabled=true")) {
            runner.withPropertyValues(removed, "ordering.outbox.relay=polling").run(context -> {
                assertThat(context).as(removed).hasFailed();
                FailureAnalysis analysis = new OutboxEnabledRemovedFailureAnalyzer()
                        .analyze(context.getStartupFailure());
                assertThat(analysis).as(removed).isNotNull();
                assertThat(analysis.getDescription()).contains("ordering.outbox.enabled", "ordering.outbox.relay");
                assertThat(analysis.getAction()).contains("ordering.outbox.relay=none");
            });
        }
    }

    @Test
    void theDeploymentsRelayIsThisInstancesUnlessSetBesideRelayNone() {
        assertThat(OnRelayCondition.deploymentRelay(new MockEnvironment())).isEqualTo(Relay.POLLING);
        assertThat(OnRelayCondition.deploymentRelay(env("ordering.outbox.relay", "cdc"))).isEqualTo(Relay.CDC);
        assertThat(OnRelayCondition.deploymentRelay(env("ordering.outbox.relay", "none"))).isEqualTo(Relay.POLLING);
        assertThat(OnRelayCondition.deploymentRelay(env("ordering.outbox.relay", "none")
                .withProperty("ordering.outbox.deployment-relay", "cdc"))).isEqualTo(Relay.CDC);
        assertThat(bind(Map.of("ordering.outbox.relay", "cdc")).deploymentRelayMode()).isEqualTo(Relay.CDC);
        assertThat(bind(Map.of("ordering.outbox.relay", "none", "ordering.outbox.deployment-relay", "cdc"))
                .relayReading()).isEqualTo(RelayReading.INSERTS);
        assertThat(bind(Map.of("ordering.outbox.relay", "none")).relayReading())
                .isEqualTo(RelayReading.PENDING_ROWS);
    }

    @Test
    void aDeploymentRelayThatContradictsThisInstancesRelayIsRefusedAtStartUp() {
        String message = "deployment-relay is polling or cdc, and an instance that runs a relay belongs to a "
                + "deployment of that relay: set it only beside relay none";
        for (Map<String, String> contradictory : List.of(
                Map.of("ordering.outbox.relay", "polling", "ordering.outbox.deployment-relay", "cdc"),
                Map.of("ordering.outbox.relay", "cdc", "ordering.outbox.deployment-relay", "polling"),
                Map.of("ordering.outbox.relay", "none", "ordering.outbox.deployment-relay", "none"))) {
            assertThat(VALIDATION.getValidator().validate(bind(contradictory)))
                    .as(contradictory.toString()).extracting(violation -> violation.getMessage())
                    .containsExactly(message);
        }
        assertThat(VALIDATION.getValidator().validate(bind(Map.of("ordering.outbox.relay", "cdc",
                "ordering.outbox.deployment-relay", "cdc")))).isEmpty();
    }

    @Test
    void aBeanConditionalOnARelayExistsOnlyInThatMode() {
        ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(PerMode.class);

        runner.run(context -> assertThat(context).hasBean("polling").doesNotHaveBean("cdc"));
        runner.withPropertyValues("ordering.outbox.relay=cdc")
                .run(context -> assertThat(context).hasBean("cdc").doesNotHaveBean("polling"));
        runner.withPropertyValues("ordering.outbox.relay=none")
                .run(context -> assertThat(context).doesNotHaveBean("cdc").doesNotHaveBean("polling"));
    }

    @Test
    void aBeanConditionalOnTheDeploymentsRelayFollowsItWhateverThisInstanceRuns() {
        ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(PerDeployment.class);

        runner.run(context -> assertThat(context).hasBean("pollingDeployment").doesNotHaveBean("cdcDeployment"));
        runner.withPropertyValues("ordering.outbox.relay=cdc")
                .run(context -> assertThat(context).hasBean("cdcDeployment").doesNotHaveBean("pollingDeployment"));
        runner.withPropertyValues("ordering.outbox.relay=none")
                .run(context -> assertThat(context).hasBean("pollingDeployment"));
        runner.withPropertyValues("ordering.outbox.relay=none", "ordering.outbox.deployment-relay=cdc")
                .run(context -> assertThat(context).hasBean("cdcDeployment").doesNotHaveBean("pollingDeployment"));
    }

    @Test
    void cdcOnAnotherDatabaseThanPostgresStopsTheStartWithAMessageThatSaysWhy() {
        CdcRelayConfiguration.requirePostgres(Database.POSTGRESQL);
        CdcNeedsPostgresException refused = org.junit.jupiter.api.Assertions.assertThrows(
                CdcNeedsPostgresException.class, () -> CdcRelayConfiguration.requirePostgres(Database.MARIADB));

        FailureAnalysis analysis = new CdcNeedsPostgresFailureAnalyzer()
                .analyze(new IllegalStateException("start failed", refused));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("ordering.outbox.relay is cdc, but the database is MARIADB",
                "write-ahead log");
        assertThat(analysis.getAction()).contains("ordering.outbox.relay=polling", "wal_level=logical");
    }

    private static MockEnvironment env(String name, String value) {
        return new MockEnvironment().withProperty(name, value);
    }

    @Test
    void theConnectorsPollIntervalIsTheDocumentedFilesUnlessSetAndStaysWithinBounds() {
        assertThat(bindCdc(Map.of()).pollInterval()).isNull();
        assertThat(bindCdc(Map.of("ordering.outbox.cdc.poll-interval", "5ms")).pollInterval())
                .isEqualTo(Duration.ofMillis(5));
        for (String outOfBounds : List.of("0ms", "11s")) {
            assertThat(VALIDATION.getValidator().validate(bindCdc(Map.of("ordering.outbox.cdc.poll-interval",
                    outOfBounds)))).as(outOfBounds).extracting(violation -> violation.getMessage())
                    .containsExactly("poll-interval must be between 1ms and 10s");
        }
    }

    private static CdcProperties bindCdc(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("ordering.outbox.cdc", CdcProperties.class);
    }

    private static OutboxProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("ordering.outbox", OutboxProperties.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class PerDeployment {

        @Bean
        @ConditionalOnDeploymentRelay(Relay.POLLING)
        String pollingDeployment() {
            return "polling";
        }

        @Bean
        @ConditionalOnDeploymentRelay(Relay.CDC)
        String cdcDeployment() {
            return "cdc";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PerMode {

        @Bean
        @ConditionalOnRelay(Relay.POLLING)
        String polling() {
            return "polling";
        }

        @Bean
        @ConditionalOnRelay(Relay.CDC)
        String cdc() {
            return "cdc";
        }
    }
}

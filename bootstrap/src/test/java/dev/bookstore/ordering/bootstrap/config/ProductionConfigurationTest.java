package dev.bookstore.ordering.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * The service's own {@code application.yml}, the one in the production jar: no profile is active unless asked
 * for, none of its profiles blanks the RabbitMQ host, and Kubernetes' probes are on.
 */
class ProductionConfigurationTest {

    @Test
    void noProfileIsActiveByDefault() throws IOException {
        assertThat(documents()).noneMatch(document -> document.containsProperty("spring.profiles.default")
                || document.containsProperty("spring.profiles.active"));
    }

    @Test
    void noProfileBlanksTheRabbitHost() throws IOException {
        assertThat(documents()).filteredOn(document -> document.containsProperty("spring.rabbitmq.host"))
                .isNotEmpty()
                .allSatisfy(document -> assertThat(String.valueOf(document.getProperty("spring.rabbitmq.host")))
                        .as(document.getName()).isNotBlank());
    }

    @Test
    void livenessAndReadinessProbesAreEnabled() throws IOException {
        assertThat(documents().get(0).getProperty("management.endpoint.health.probes.enabled"))
                .hasToString("true");
    }

    @Test
    void readinessWatchesTheDatabaseButNeverTheBroker() throws IOException {
        String readiness = String.valueOf(documents().get(0)
                .getProperty("management.endpoint.health.group.readiness.include"));
        assertThat(readiness).contains("db").doesNotContain("rabbit");
    }

    @Test
    void degradedAnswers200WhileDownStillAnswers503() throws IOException {
        PropertySource<?> base = documents().get(0);
        assertThat(base.getProperty("management.endpoint.health.status.http-mapping.DEGRADED")).hasToString("200");
        assertThat(base.getProperty("management.endpoint.health.status.http-mapping.DOWN")).hasToString("503");
        assertThat(base.getProperty("management.endpoint.health.status.http-mapping.OUT_OF_SERVICE"))
                .hasToString("503");
        assertThat(String.valueOf(base.getProperty("management.endpoint.health.status.order")))
                .isEqualTo("DOWN, OUT_OF_SERVICE, DEGRADED, UP, UNKNOWN");
    }

    @Test
    void aRequestWaitsAtMostTwoSecondsForADatabaseConnection() throws IOException {
        assertThat(documents().get(0).getProperty("spring.datasource.hikari.connection-timeout"))
                .hasToString("2000");
    }

    private static List<PropertySource<?>> documents() throws IOException {
        return new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"));
    }
}

package dev.bookstore.ordering.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.mock.env.MockEnvironment;

/** Which start-up failures are explained as "no database configured", and with what. */
class DatabaseNotConfiguredFailureAnalyzerTest {

    private static final Throwable DATA_SOURCE_FAILED = new BeanCreationException("entityManagerFactory",
            "Error creating bean", new BeanCreationException("dataSource", "Failed to instantiate",
                    new IllegalStateException("Failed to determine a suitable driver class")));

    @Test
    void withoutADatasourceUrlAFailedDataSourceIsExplainedWithWhatToConfigureAndHowToTryTheServiceOut() {
        FailureAnalysis analysis = new DatabaseNotConfiguredFailureAnalyzer(new MockEnvironment())
                .analyze(DATA_SOURCE_FAILED);

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("spring.datasource.url is not set");
        assertThat(analysis.getAction()).contains(
                "--spring.datasource.url=jdbc:postgresql://",
                "SPRING_DATASOURCE_URL",
                "--spring.profiles.active=postgres for jdbc:postgresql://localhost:5432/ordering",
                "spring.rabbitmq.host",
                "./mvnw -pl bootstrap spring-boot:test-run");
        assertThat(analysis.getCause()).isSameAs(DATA_SOURCE_FAILED);
    }

    @Test
    void withADatasourceUrlTheFailureIsLeftToOtherAnalyzers() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.datasource.url", "jdbc:postgresql://db.example:5432/ordering");

        assertThat(new DatabaseNotConfiguredFailureAnalyzer(environment).analyze(DATA_SOURCE_FAILED)).isNull();
    }

    @Test
    void otherFailuresAreLeftToOtherAnalyzersEvenWithoutADatasourceUrl() {
        DatabaseNotConfiguredFailureAnalyzer analyzer = new DatabaseNotConfiguredFailureAnalyzer(new MockEnvironment());

        assertThat(analyzer.analyze(new BeanCreationException("outboxRelayWorkers", "Error creating bean"))).isNull();
        assertThat(analyzer.analyze(new IllegalStateException("something else"))).isNull();
    }
}

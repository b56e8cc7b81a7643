package dev.bookstore.ordering.adapters.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class TokenKeyNotConfiguredFailureAnalyzerTest {

    private final TokenKeyNotConfiguredFailureAnalyzer analyzer = new TokenKeyNotConfiguredFailureAnalyzer();

    @Test
    void aMissingKeyDeepInTheStartFailureIsExplainedWithTheThreePropertiesAndTheTryOutCommand() {
        Throwable failure = new BeanCreationException("securityFilterChain", "factory method threw",
                new TokenKeyNotConfiguredException());

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription()).contains("bearer tokens");
        assertThat(analysis.getAction()).contains("issuer-uri", "jwk-set-uri", "public-key-location",
                "spring-boot:test-run");
    }

    @Test
    void otherFailuresAreLeftToOtherAnalyzers() {
        assertThat(analyzer.analyze(new BeanCreationException("dataSource", "no url"))).isNull();
    }
}

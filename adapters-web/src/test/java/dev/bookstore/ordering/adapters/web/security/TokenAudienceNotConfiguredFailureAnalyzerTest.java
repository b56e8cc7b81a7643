package dev.bookstore.ordering.adapters.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class TokenAudienceNotConfiguredFailureAnalyzerTest {

    private final TokenAudienceNotConfiguredFailureAnalyzer analyzer = new TokenAudienceNotConfiguredFailureAnalyzer();

    @Test
    void aMissingAudienceDeepInTheStartFailureIsExplainedWithThePropertyAndTheExplicitOptOut() {
        Throwable failure = new BeanCreationException("securityFilterChain", "factory method threw",
                new TokenAudienceNotConfiguredException());

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription())
                .contains("spring.security.oauth2.resourceserver.jwt.audiences is not set");
        assertThat(analysis.getAction()).contains("--spring.security.oauth2.resourceserver.jwt.audiences=",
                "--ordering.security.accept-any-audience=true", "spring-boot:test-run");
    }

    @Test
    void otherFailuresAreLeftToOtherAnalyzers() {
        assertThat(analyzer.analyze(new BeanCreationException("securityFilterChain", "no key",
                new TokenKeyNotConfiguredException()))).isNull();
    }
}

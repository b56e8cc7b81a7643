package dev.bookstore.ordering.adapters.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The security chain of {@code WebSecurityConfiguration} in front of the real controllers, with tokens signed by a
 * test key: who gets in where, and that refusals are problem details with RFC 6750's challenge.
 */
@WebMvcTest(properties = "spring.security.oauth2.resourceserver.jwt.audiences=" + TestTokens.AUDIENCE)
class WebSecuritySliceTest {

    private static final String PARKED = "/admin/outbox/parked";

    @Autowired
    MockMvc mvc;

    @Autowired
    TestTokens tokens;

    @Test
    void aRequestWithoutTokenAnswers401WithBearerChallengeAsProblemDetails() throws Exception {
        mvc.perform(get("/orders"))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, Matchers.startsWith("Bearer")))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(401))
                .andExpect(jsonPath("$.title").value("Authentication required"))
                .andExpect(jsonPath("$.instance").value("/orders"));
    }

    @Test
    void aTokenNotSignedByTheTrustedKeyAnswers401() throws Exception {
        String foreign = new TestTokens().customer(UUID.randomUUID());

        mvc.perform(get("/orders").header(HttpHeaders.AUTHORIZATION, "Bearer " + foreign))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, Matchers.containsString("invalid_token")))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void aTokenMeantForAnotherServiceAnswers401ThoughItsSignatureIsTrusted() throws Exception {
        String foreign = tokens.customerOfAnotherService(UUID.randomUUID());

        mvc.perform(get("/orders").header(HttpHeaders.AUTHORIZATION, "Bearer " + foreign))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, Matchers.containsString("invalid_token")))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void aCustomerTokenOnTheOutboxAdministrationAnswers403AsProblemDetails() throws Exception {
        mvc.perform(get(PARKED).header(HttpHeaders.AUTHORIZATION, bearer(tokens.customer(UUID.randomUUID()))))
                .andExpect(status().isForbidden())
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE,
                        Matchers.containsString("insufficient_scope")))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(403))
                .andExpect(jsonPath("$.title").value("Forbidden"));
    }

    @Test
    void anOperatorTokenReachesTheOutboxAdministration() throws Exception {
        mvc.perform(get(PARKED).header(HttpHeaders.AUTHORIZATION, bearer(tokens.operator())))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.items").isEmpty());
    }

    @Test
    void theApiDescriptionNeedsNoToken() throws Exception {
        // springdoc is not part of the slice: what is checked is that the chain lets the request through
        int status = mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getStatus();

        assertThat(status).isNotIn(401, 403);
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }
}

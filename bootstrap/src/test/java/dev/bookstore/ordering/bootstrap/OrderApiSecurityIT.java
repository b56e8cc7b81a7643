package dev.bookstore.ordering.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bookstore.ordering.adapters.persistence.testing.TestDatabase;
import dev.bookstore.ordering.adapters.persistence.testing.TestPostgres;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.authentication.event.AbstractAuthenticationEvent;
import org.springframework.security.authentication.event.AuthenticationFailureBadCredentialsEvent;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Who may do what, against a real PostgreSQL, with tokens signed by a throw-away key that the service trusts
 * through {@code public-key-location} and meant for the audience named by Boot's {@code audiences}: customers act
 * only on their own orders, operators on everything, and every refusal is a problem detail.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class OrderApiSecurityIT {

    private static final TestDatabase DATABASE = TestPostgres.newDatabase();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        WritePathService.register(registry, DATABASE);
    }

    @AfterAll
    static void dropDatabase() {
        TestPostgres.drop(DATABASE);
    }

    /** Spring Security's authentication events, as an audit listener would receive them. */
    private static final List<AbstractAuthenticationEvent> AUTHENTICATION_EVENTS = new CopyOnWriteArrayList<>();

    @TestConfiguration
    static class AuthenticationEventsRecorder {

        @Bean
        ApplicationListener<AbstractAuthenticationEvent> authenticationEventsRecorder() {
            return AUTHENTICATION_EVENTS::add;
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    /** Boot's decoder, made from its properties; the security chain puts the verified-token cache around it. */
    @Autowired
    JwtDecoder bootsDecoder;

    private final UUID alice = UUID.randomUUID();
    private final UUID bob = UUID.randomUUID();
    private HttpJson asAlice;
    private HttpJson asBob;
    private HttpJson asOperator;

    @BeforeEach
    void cleanTables() {
        jdbc.update("DELETE FROM outbox_message");
        jdbc.update("DELETE FROM orders");
        HttpJson http = new HttpJson(port);
        asAlice = http.as(TestTokens.customer(alice));
        asBob = http.as(TestTokens.customer(bob));
        asOperator = http.as(TestTokens.operator());
    }

    @Test
    void withoutATokenEveryOrderEndpointAnswers401WithWwwAuthenticateAndProblemDetails() {
        HttpJson anonymous = new HttpJson(port).anonymous();

        for (HttpJson.Response response : new HttpJson.Response[] {
                anonymous.postJson("/orders", HttpJson.orderJson(alice.toString(), 1)),
                anonymous.get("/orders"),
                anonymous.get("/orders/" + UUID.randomUUID()),
                anonymous.get("/outbox/stats"),
                anonymous.get("/actuator/metrics")}) {
            assertUnauthorized(response);
        }
        assertOrders(0);
    }

    @Test
    void anExpiredTokenAndATokenSignedByAnotherKeyAnswer401() {
        HttpJson http = new HttpJson(port);

        assertUnauthorized(http.as(TestTokens.expired(alice)).postJson("/orders",
                HttpJson.orderJson(alice.toString(), 1)));
        assertUnauthorized(http.as(TestTokens.signedByAnotherKey(alice)).postJson("/orders",
                HttpJson.orderJson(alice.toString(), 1)));
        assertUnauthorized(http.as("not-a-jwt").get("/orders"));
        // not a bearer token's shape at all (a space inside): refused before any decoding
        HttpJson.Response malformed = http.as("two words").postJson("/orders", HttpJson.orderJson(alice.toString(), 1));
        assertUnauthorized(malformed);
        assertThat(malformed.header("WWW-Authenticate")).contains("invalid_token").contains("malformed");
        assertOrders(0);
    }

    @Test
    void aTokenMeantForAnotherServiceOrForNoneAnswers401EveryTime() {
        HttpJson http = new HttpJson(port);
        String billing = TestTokens.forAudience(alice, "billing-api");

        for (int attempt = 0; attempt < 2; attempt++) { // the second time too: a refused token is never cached
            HttpJson.Response refused = http.as(billing).postJson("/orders", HttpJson.orderJson(alice.toString(), 1));
            assertUnauthorized(refused);
            assertThat(refused.header("WWW-Authenticate")).contains("invalid_token");
        }
        assertUnauthorized(http.as(TestTokens.withoutAudience(alice)).get("/orders"));
        assertThat(http.as(TestTokens.forAudience(alice, "billing-api", TestTokens.AUDIENCE))
                .postJson("/orders", HttpJson.orderJson(alice.toString(), 1)).status()).isEqualTo(201);
        assertOrders(1);
    }

    @Test
    void theAudienceComesFromBootsPropertyAndBootsOwnDecoderChecksItAndTheExpiryRules() {
        assertThat(bootsDecoder.decode(TestTokens.customer(alice)).getAudience()).containsExactly(TestTokens.AUDIENCE);
        assertThatThrownBy(() -> bootsDecoder.decode(TestTokens.forAudience(alice, "billing-api")))
                .isInstanceOf(JwtValidationException.class).hasMessageContaining("aud");
        assertThatThrownBy(() -> bootsDecoder.decode(TestTokens.withoutExpiry(alice)))
                .isInstanceOf(JwtValidationException.class).hasMessageContaining("exp is required");
    }

    @Test
    void aTokenWithoutExpiryAnswers401() {
        HttpJson.Response refused = new HttpJson(port).as(TestTokens.withoutExpiry(alice))
                .postJson("/orders", HttpJson.orderJson(alice.toString(), 1));

        assertUnauthorized(refused);
        assertThat(refused.header("WWW-Authenticate")).contains("invalid_token", "exp is required");
        assertOrders(0);
    }

    @Test
    void aTokenValidForLongerThanTheMaximumLifetimeAnswers401AndOneJustWithinIsAccepted() {
        HttpJson http = new HttpJson(port);

        HttpJson.Response refused = http.as(TestTokens.validFor(alice, Duration.ofHours(4).plusMinutes(1)))
                .postJson("/orders", HttpJson.orderJson(alice.toString(), 1));
        assertUnauthorized(refused);
        assertThat(refused.header("WWW-Authenticate")).contains("invalid_token", "longer than PT4H");
        assertOrders(0);

        assertThat(http.as(TestTokens.validFor(alice, Duration.ofHours(4).minusMinutes(1)))
                .postJson("/orders", HttpJson.orderJson(alice.toString(), 1)).status()).isEqualTo(201);
    }

    @Test
    void aTokenWithoutTheNeededScopeAnswers403() {
        HttpJson noScope = new HttpJson(port).as(TestTokens.withScope(alice.toString(), "profile"));

        assertForbidden(noScope.postJson("/orders", HttpJson.orderJson(alice.toString(), 1)));
        assertForbidden(noScope.get("/orders"));
        // A customer is not an operator.
        assertForbidden(asAlice.get("/outbox/stats"));
        assertForbidden(asAlice.get("/actuator/metrics"));
        // An operator-only token does not place orders.
        assertForbidden(new HttpJson(port).as(TestTokens.withScope("ops", "orders.admin"))
                .postJson("/orders", HttpJson.orderJson(alice.toString(), 1)));
        assertOrders(0);
    }

    @Test
    void aCustomerPlacesOrdersOnlyAsItself() {
        HttpJson.Response response = asAlice.postJson("/orders", HttpJson.orderJson(bob.toString(), 1));

        assertForbidden(response);
        assertThat(response.json().get("detail").asString()).contains("token's subject");
        assertOrders(0);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_message", Long.class)).isZero();

        assertThat(asAlice.postJson("/orders", HttpJson.orderJson(alice.toString(), 1)).status()).isEqualTo(201);
        assertOrders(1);
    }

    @Test
    void anotherCustomersOrderIsNotFoundExactlyLikeAMissingOne() {
        String alicesOrder = place(asAlice, alice);

        HttpJson.Response othersOrder = asBob.get("/orders/" + alicesOrder);
        HttpJson.Response missing = asBob.get("/orders/" + UUID.randomUUID());

        assertThat(asAlice.get("/orders/" + alicesOrder).status()).isEqualTo(200);
        assertThat(othersOrder.status()).isEqualTo(404).isEqualTo(missing.status());
        assertThat(othersOrder.json().get("title")).isEqualTo(missing.json().get("title"));
        assertThat(othersOrder.header("Content-Type")).startsWith("application/problem+json");
    }

    @Test
    void aCustomerCannotCancelAnotherCustomersOrder() {
        String alicesOrder = place(asAlice, alice);

        HttpJson.Response response = asBob.postJson("/orders/" + alicesOrder + "/cancel", "{\"reason\":\"mine now\"}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(jdbc.queryForObject("SELECT status FROM orders", String.class)).isEqualTo("PLACED");
        assertThat(asAlice.postJson("/orders/" + alicesOrder + "/cancel", "{\"reason\":\"changed my mind\"}")
                .json().get("status").asString()).isEqualTo("CANCELLED");
    }

    @Test
    void aCustomerListsOnlyItsOwnOrdersAndAnOperatorListsAll() {
        String alicesFirst = place(asAlice, alice);
        String bobs = place(asBob, bob);
        String alicesSecond = place(asAlice, alice);

        assertThat(asAlice.get("/orders").json().findValuesAsString("id")).containsExactly(alicesSecond, alicesFirst);
        assertThat(asBob.get("/orders").json().findValuesAsString("id")).containsExactly(bobs);
        assertThat(asOperator.get("/orders").json().findValuesAsString("id"))
                .containsExactly(alicesSecond, bobs, alicesFirst);
    }

    @Test
    void anOperatorReadsEveryOrderTheOutboxAndTheActuator() {
        String alicesOrder = place(asAlice, alice);

        assertThat(asOperator.get("/orders/" + alicesOrder).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> // the stats snapshot of the next refresh
                assertThat(asOperator.get("/outbox/stats").json().get("pending").asLong()).isEqualTo(1));
        assertThat(asOperator.get("/actuator/metrics").status()).isEqualTo(200);
    }

    @Test
    void aRefusedTokenIsPublishedAsAnAuthenticationFailureAndAnAcceptedOneAsNoEvent() {
        AUTHENTICATION_EVENTS.clear();

        assertThat(asAlice.get("/orders").status()).isEqualTo(200);
        assertThat(AUTHENTICATION_EVENTS).isEmpty();

        assertUnauthorized(new HttpJson(port).as(TestTokens.signedByAnotherKey(alice)).get("/orders"));
        // published on the request thread before the answer
        assertThat(AUTHENTICATION_EVENTS).singleElement()
                .isInstanceOf(AuthenticationFailureBadCredentialsEvent.class);
    }

    @Test
    void thereIsNoLogoutEndpointInAStatelessApi() {
        // Spring Security's logout filter answered any POST /logout, token or not, with a redirect to a login page
        assertUnauthorized(new HttpJson(port).anonymous().postJson("/logout", "{}"));
        assertThat(asOperator.postJson("/logout", "{}").status()).isEqualTo(404);
    }

    @Test
    void healthInfoAndThePageNeedNoToken() {
        HttpJson anonymous = new HttpJson(port).anonymous();

        // The broker is unreachable in this test (port 1), so the overall health is DOWN: but it answers.
        HttpJson.Response health = anonymous.get("/actuator/health");
        assertThat(health.status()).isIn(200, 503);
        assertThat(health.json().get("status").asString()).isNotBlank();
        assertThat(anonymous.get("/actuator/health/liveness").status()).isEqualTo(200);
        assertThat(anonymous.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(anonymous.get("/actuator/info").status()).isEqualTo(200);
        HttpJson.Response page = anonymous.get("/");
        assertThat(page.status()).isEqualTo(200);
        // the welcome page is a forward to index.html: its body must arrive (not held back and lost)
        assertThat(page.body()).contains("id=\"pending\"");
    }

    private static String place(HttpJson as, UUID customer) {
        HttpJson.Response response = as.postJson("/orders", HttpJson.orderJson(customer.toString(), 1));
        assertThat(response.status()).isEqualTo(201);
        return response.json().get("id").asString();
    }

    private void assertOrders(long count) {
        assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Long.class)).isEqualTo(count);
    }

    private static void assertUnauthorized(HttpJson.Response response) {
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.json().get("status").asInt()).isEqualTo(401);
    }

    private static void assertForbidden(HttpJson.Response response) {
        assertThat(response.status()).isEqualTo(403);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.json().get("status").asInt()).isEqualTo(403);
    }
}

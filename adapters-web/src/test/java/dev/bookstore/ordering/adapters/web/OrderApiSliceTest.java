package dev.bookstore.ordering.adapters.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The order API's answers without a database: invalid bodies are problem details naming the field at fault and
 * place nothing, oversized bodies are refused before they are read, and another customer's order is not there.
 */
@WebMvcTest(properties = "spring.security.oauth2.resourceserver.jwt.audiences=" + TestTokens.AUDIENCE)
class OrderApiSliceTest {

    private static final UUID CUSTOMER = UUID.randomUUID();

    @Autowired
    MockMvc mvc;

    @Autowired
    TestTokens tokens;

    @Autowired
    FakeOrders orders;

    @BeforeEach
    void noOrders() {
        orders.clear();
    }

    @Test
    void aValidOrderIsPlacedForTheCaller() throws Exception {
        place(MediaType.APPLICATION_JSON, order("EUR", "[{\"bookId\":\"b-1\",\"quantity\":2,\"unitPrice\":\"9.95\"}]"))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.customerId").value(CUSTOMER.toString()));

        assertThat(orders.placed()).singleElement()
                .satisfies(command -> assertThat(command.customerId().value()).isEqualTo(CUSTOMER));
    }

    @Test
    void missingItemsAnswer400NamingItems() throws Exception {
        expectInvalid(place(MediaType.APPLICATION_JSON, "{\"customerId\":\"" + CUSTOMER + "\",\"currency\":\"EUR\"}"),
                "items");
    }

    @Test
    void aNegativeQuantityAnswers400NamingTheLinesQuantity() throws Exception {
        expectInvalid(place(MediaType.APPLICATION_JSON,
                order("EUR", "[{\"bookId\":\"b-1\",\"quantity\":-1,\"unitPrice\":\"9.95\"}]")), "items[0].quantity");
    }

    @Test
    void aCurrencyThatIsNoIsoCodeAnswers400NamingCurrency() throws Exception {
        expectInvalid(place(MediaType.APPLICATION_JSON,
                order("EURO", "[{\"bookId\":\"b-1\",\"quantity\":1,\"unitPrice\":\"9.95\"}]")), "currency");
    }

    @Test
    void aListLimitOutOfRangeAnswers400NamingLimit() throws Exception {
        expectInvalid(mvc.perform(get("/orders").param("limit", "0")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + tokens.customer(CUSTOMER))), "limit");
    }

    @Test
    void malformedJsonAnswers400AsProblemDetails() throws Exception {
        expectRefused(place(MediaType.APPLICATION_JSON, "{\"customerId\": "), HttpStatus.BAD_REQUEST);
    }

    @Test
    void aBodyThatIsNotJsonAnswers415AsProblemDetails() throws Exception {
        expectRefused(place(MediaType.TEXT_PLAIN, "two copies of 978-0134494166, please"),
                HttpStatus.UNSUPPORTED_MEDIA_TYPE);
    }

    @Test
    void aBodyOverTheLimitAnswers413AsProblemDetails() throws Exception {
        String padding = " ".repeat((int) WebConfiguration.MAX_BODY.toBytes());

        expectRefused(place(MediaType.APPLICATION_JSON, order("EUR", "[]") + padding), HttpStatus.CONTENT_TOO_LARGE);
    }

    @Test
    void anOrderForAnotherCustomerAnswers403AndPlacesNothing() throws Exception {
        String forSomeoneElse = "{\"customerId\":\"" + UUID.randomUUID() + "\",\"currency\":\"EUR\",\"items\":"
                + "[{\"bookId\":\"b-1\",\"quantity\":1,\"unitPrice\":\"9.95\"}]}";

        expectRefused(place(MediaType.APPLICATION_JSON, forSomeoneElse), HttpStatus.FORBIDDEN);
    }

    @Test
    void aCustomerReadingAnotherCustomersOrderGets404LikeAMissingOne() throws Exception {
        UUID other = orders.existing(UUID.randomUUID()).id();

        mvc.perform(get("/orders/" + other).header(HttpHeaders.AUTHORIZATION, "Bearer " + tokens.customer(CUSTOMER)))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.title").value("Order not found"));
    }

    @Test
    void aCustomerReadsItsOwnOrderAndAnOperatorAnyOrder() throws Exception {
        UUID own = orders.existing(CUSTOMER).id();

        mvc.perform(get("/orders/" + own).header(HttpHeaders.AUTHORIZATION, "Bearer " + tokens.customer(CUSTOMER)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.id").value(own.toString()));
        mvc.perform(get("/orders/" + own).header(HttpHeaders.AUTHORIZATION, "Bearer " + tokens.operator()))
                .andExpect(status().isOk());
    }

    private ResultActions place(MediaType type, String body) throws Exception {
        return mvc.perform(post("/orders")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + tokens.customer(CUSTOMER))
                .contentType(type)
                .content(body));
    }

    private static String order(String currency, String items) {
        return "{\"customerId\":\"" + CUSTOMER + "\",\"currency\":\"" + currency + "\",\"items\":" + items + "}";
    }

    /** A problem details answer with {@code status}, and no order placed. */
    private void expectRefused(ResultActions answer, HttpStatus status) throws Exception {
        answer.andExpect(status().is(status.value()))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(status.value()));
        assertThat(orders.placed()).isEmpty();
    }

    private void expectInvalid(ResultActions answer, String field) throws Exception {
        expectRefused(answer, HttpStatus.BAD_REQUEST);
        answer.andExpect(jsonPath("$.title").value("Invalid request"))
                .andExpect(jsonPath("$.errors[0].field").value(field))
                .andExpect(jsonPath("$.errors.length()").value(1));
    }
}

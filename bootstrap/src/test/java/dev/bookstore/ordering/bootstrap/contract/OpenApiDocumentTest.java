package dev.bookstore.ordering.bootstrap.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** How the served and the checked-in description are compared and reported, without starting the service. */
class OpenApiDocumentTest {

    private static final JsonNode FILE = OpenApiDocument.parse("""
            {"openapi":"3.1.0","paths":{"/orders":{"post":{"summary":"Place an order","tags":["Orders"]}}},
             "servers":[{"url":"/"}]}""");

    @Test
    void keyOrderAndFormattingAreNoDifference() {
        JsonNode served = OpenApiDocument.parse("""
                {"servers":[{"url":"/"}],
                 "paths":{"/orders":{"post":{"tags":["Orders"],"summary":"Place an order"}}},"openapi":"3.1.0"}""");

        assertThat(OpenApiDocument.differences(FILE, served)).isEmpty();
        assertThat(OpenApiDocument.differences(FILE, OpenApiDocument.parse(OpenApiDocument.format(served))))
                .isEmpty();
    }

    @Test
    void everyChangedAddedOrRemovedValueIsReportedAtItsJsonPointer() {
        JsonNode served = OpenApiDocument.parse("""
                {"openapi":"3.1.0","paths":{"/orders":{"post":{"summary":"Place orders","tags":["Orders","Extra"]},
                 "get":{}}}}""");

        assertThat(OpenApiDocument.differences(FILE, served)).containsExactly(
                "/paths/~1orders/get: served but not in docs/openapi.json",
                "/paths/~1orders/post/summary: docs/openapi.json has \"Place an order\", served \"Place orders\"",
                "/paths/~1orders/post/tags: docs/openapi.json has [\"Orders\"], served [\"Orders\",\"Extra\"]",
                "/servers: in docs/openapi.json but not served");
    }

    @Test
    void theReportSaysHowToRegenerate() {
        String report = OpenApiDocument.report(List.of("/paths/~1orders/get: served but not in docs/openapi.json"));

        assertThat(report).contains("differs from docs/openapi.json in 1 place(s)", "/paths/~1orders/get",
                OpenApiDocument.REGENERATE_COMMAND);
    }

    @Test
    void theFileIsWrittenWithSortedKeys() {
        String written = OpenApiDocument.format(OpenApiDocument.parse("{\"b\":{\"d\":1,\"c\":2},\"a\":[3,1]}"));

        assertThat(written.replaceAll("\\s", "")).isEqualTo("{\"a\":[3,1],\"b\":{\"c\":2,\"d\":1}}");
        assertThat(written).endsWith("}\n").contains("\n  ");
    }
}

package dev.bookstore.ordering.adapters.messaging.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Each kind of breaking change is caught, and the compatible ones pass. */
class SchemaCompatibilityTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String RELEASED = """
            {"type":"object","required":["orderId","status"],
             "properties":{
               "orderId":{"type":"string","format":"uuid"},
               "status":{"type":"string","enum":["PLACED","CANCELLED"]},
               "note":{"type":"string"},
               "items":{"type":"array","items":{"type":"object","required":["quantity"],
                 "properties":{"quantity":{"type":"integer"}}}}}}""";

    @Test
    void theSameSchemaWithOtherWordsAndAnOptionalPropertyMoreIsCompatible() {
        JsonNode current = schema(RELEASED
                .replace("\"note\":{\"type\":\"string\"}",
                        "\"note\":{\"type\":\"string\",\"description\":\"for people\",\"maxLength\":500}")
                .replace("\"orderId\":{\"type\":\"string\",\"format\":\"uuid\"}",
                        "\"orderId\":{\"type\":\"string\",\"format\":\"uuid\"},\"channel\":{\"type\":\"string\"}")
                .replace("[\"PLACED\",\"CANCELLED\"]", "[\"PLACED\",\"CANCELLED\",\"SHIPPED\"]"));

        assertThat(SchemaCompatibility.breakingChanges(schema(RELEASED), current)).isEmpty();
    }

    @Test
    void aRemovedPropertyIsBreaking() {
        JsonNode current = schema(RELEASED.replace("\"note\":{\"type\":\"string\"},", ""));

        assertThat(SchemaCompatibility.breakingChanges(schema(RELEASED), current)).containsExactly("$.note: removed");
    }

    @Test
    void aChangedTypeOrFormatIsBreakingAlsoInsideArrayItems() {
        JsonNode current = schema(RELEASED
                .replace("\"quantity\":{\"type\":\"integer\"}", "\"quantity\":{\"type\":\"string\"}")
                .replace("\"format\":\"uuid\"", "\"format\":\"uri\""));

        assertThat(SchemaCompatibility.breakingChanges(schema(RELEASED), current)).containsExactly(
                "$.orderId: format changed from \"uuid\" to \"uri\"",
                "$.items[].quantity: type changed from \"integer\" to \"string\"");
    }

    @Test
    void aNewRequiredPropertyIsBreakingAndSoIsAnOptionalOneBecomingRequired() {
        JsonNode current = schema(RELEASED
                .replace("\"required\":[\"orderId\",\"status\"]", "\"required\":[\"orderId\",\"status\",\"note\"]")
                .replace("\"orderId\":{\"type\":\"string\",\"format\":\"uuid\"}",
                        "\"orderId\":{\"type\":\"string\",\"format\":\"uuid\"},\"channel\":{\"type\":\"string\"}")
                .replace("\"required\":[\"orderId\",\"status\",\"note\"]",
                        "\"required\":[\"orderId\",\"status\",\"note\",\"channel\"]"));

        assertThat(SchemaCompatibility.breakingChanges(schema(RELEASED), current)).containsExactly(
                "$.note: newly required (messages sent before lack it)",
                "$.channel: newly required (messages sent before lack it)");
    }

    @Test
    void aPropertyNoLongerRequiredIsBreaking() {
        JsonNode current = schema(RELEASED.replace("\"required\":[\"quantity\"]", "\"required\":[]"));

        assertThat(SchemaCompatibility.breakingChanges(schema(RELEASED), current))
                .containsExactly("$.items[].quantity: no longer required (consumers count on it)");
    }

    @Test
    void aRemovedEnumValueIsBreaking() {
        JsonNode current = schema(RELEASED.replace("[\"PLACED\",\"CANCELLED\"]", "[\"PLACED\"]"));

        assertThat(SchemaCompatibility.breakingChanges(schema(RELEASED), current))
                .containsExactly("$.status: enum value \"CANCELLED\" removed");
    }

    private static JsonNode schema(String json) {
        return JSON.readTree(json);
    }
}

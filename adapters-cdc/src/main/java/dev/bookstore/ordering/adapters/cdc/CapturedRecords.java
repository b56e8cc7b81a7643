package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An outbox row as Debezium's outbox event router hands it on: the key is the aggregate id, the value the payload,
 * the other columns are headers ({@code table.fields.additional.placement}). It becomes the same
 * {@link OutboxMessage} the polling relay reads from the row, so the publisher sends the same AMQP message.
 */
final class CapturedRecords {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private CapturedRecords() {
    }

    /** Empty for a record that is no outbox message (a heartbeat or another table's change). */
    static Optional<OutboxMessage> message(SourceRecord record) {
        String id = header(record, "message_id");
        if (id == null || record.value() == null) {
            return Optional.empty();
        }
        return Optional.of(new OutboxMessage(UUID.fromString(id), header(record, "aggregate_type"),
                String.valueOf(record.key()), header(record, "type"), header(record, "exchange"),
                header(record, "routing_key"), String.valueOf(record.value()), headers(header(record, "headers")),
                instant(header(record, "occurred_at")), 0, position(record)));
    }

    private static String header(SourceRecord record, String name) {
        Header header = record.headers().lastWithName(name);
        return header == null || header.value() == null ? null : String.valueOf(header.value());
    }

    private static long position(SourceRecord record) {
        Header header = record.headers().lastWithName("position");
        return header == null || header.value() == null ? 0 : ((Number) header.value()).longValue();
    }

    /** Debezium sends timestamptz as ISO-8601 text (io.debezium.time.ZonedTimestamp). */
    private static Instant instant(String text) {
        return OffsetDateTime.parse(text).toInstant();
    }

    private static Map<String, String> headers(String json) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (json == null || json.isBlank()) {
            return headers;
        }
        JsonNode object = JSON.readTree(json);
        object.properties().forEach(entry -> headers.put(entry.getKey(), entry.getValue().asString()));
        return headers;
    }
}

package dev.bookstore.ordering.adapters.cdc;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.capture.UnreadableChange;
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
 * {@link OutboxMessage} the polling relay reads from the row, so the publisher sends the same AMQP message. A row
 * inserted parked (a message the CDC relay stored again as parked, or an unreadable change it kept) is no message to
 * send.
 */
final class CapturedRecords {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private CapturedRecords() {
    }

    /**
     * Empty for a record that is no outbox message to send (a heartbeat, another table's change, a row inserted
     * parked).
     *
     * @throws RuntimeException when a value does not parse: see {@link #unreadable}
     */
    static Optional<OutboxMessage> message(SourceRecord record) {
        String id = header(record, "message_id");
        String status = header(record, "status");
        if (id == null || record.value() == null || (status != null && !status.equals("PENDING"))) {
            return Optional.empty();
        }
        return Optional.of(new OutboxMessage(UUID.fromString(id), header(record, "aggregate_type"),
                String.valueOf(record.key()), header(record, "type"), header(record, "exchange"),
                header(record, "routing_key"), String.valueOf(record.value()), headers(header(record, "headers")),
                instant(header(record, "occurred_at")), 0, position(record)));
    }

    /** A record that {@link #message} could not read, as read, with why. */
    static UnreadableChange unreadable(SourceRecord record, RuntimeException error) {
        UUID id;
        try {
            id = UUID.fromString(header(record, "message_id"));
        } catch (RuntimeException e) {
            id = null;
        }
        long position;
        try {
            position = position(record);
        } catch (RuntimeException e) {
            position = 0;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        record.headers().forEach(header -> headers.put(header.key(), String.valueOf(header.value())));
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put("key", String.valueOf(record.key()));
        raw.put("headers", headers.toString());
        raw.put("value", String.valueOf(record.value()));
        return new UnreadableChange(id, position, JSON.writeValueAsString(raw), error.toString());
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

    /** The row's {@code headers} column, a JSON object of strings. */
    static Map<String, String> headers(String json) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (json == null || json.isBlank()) {
            return headers;
        }
        JsonNode object = JSON.readTree(json);
        object.properties().forEach(entry -> headers.put(entry.getKey(), entry.getValue().asString()));
        return headers;
    }
}

package dev.bookstore.ordering.application.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.testing.RecordingDomainEventPublisher;
import dev.bookstore.ordering.domain.order.OrderCancelled;
import dev.bookstore.ordering.domain.order.OrderId;
import dev.bookstore.ordering.domain.shared.DomainEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventOutboxTest {

    private static final Map<String, String> TRACE =
            Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    /** Knows cancellations only: every other event stays in process. */
    private static final EventExternalizer CANCELLATIONS_ONLY = event -> event instanceof OrderCancelled cancelled
            ? Optional.of(new ExternalizedEvent("order", "test.order-cancelled.v1", "test.exchange",
                    "order.cancelled", "{\"reason\":\"" + cancelled.reason() + "\"}"))
            : Optional.empty();

    private final RecordingDomainEventPublisher inProcess = new RecordingDomainEventPublisher();
    private final List<List<OutboxMessage>> written = new ArrayList<>();
    private final AtomicInteger traceReads = new AtomicInteger();
    private final TraceContext trace = () -> {
        traceReads.incrementAndGet();
        return TRACE;
    };
    private final EventOutbox outbox = new EventOutbox(inProcess, CANCELLATIONS_ONLY, trace,
            messages -> written.add(List.copyOf(messages)));

    @Test
    void everyEventGoesInProcessAndOnlyTheContractsEventsBecomeOneWriteOfOutboxMessages() {
        OrderCancelled first = cancelled("changed my mind");
        DomainEvent internal = new Internal(UUID.randomUUID(), Instant.parse("2025-05-01T10:00:00Z"),
                UUID.randomUUID());
        OrderCancelled second = cancelled("found it cheaper");

        outbox.record(List.of(first, internal, second));

        assertThat(inProcess.calls()).containsExactly(List.of(first, internal, second));
        assertThat(written).hasSize(1);
        assertThat(written.get(0)).extracting(OutboxMessage::id).containsExactly(first.eventId(), second.eventId());
        OutboxMessage message = written.get(0).get(0);
        assertThat(message.aggregateType()).isEqualTo("order");
        assertThat(message.aggregateId()).isEqualTo(first.orderId().value().toString());
        assertThat(message.type()).isEqualTo("test.order-cancelled.v1");
        assertThat(message.exchange()).isEqualTo("test.exchange");
        assertThat(message.routingKey()).isEqualTo("order.cancelled");
        assertThat(message.payload()).isEqualTo("{\"reason\":\"changed my mind\"}");
        assertThat(message.headers()).isEqualTo(TRACE);
        assertThat(message.occurredAt()).isEqualTo(first.occurredAt());
        assertThat(message.attempts()).isZero();
        assertThat(message.position()).isZero();
        assertThat(traceReads).as("the trace is read once per call").hasValue(1);
    }

    @Test
    void eventsThatStayInProcessWriteNothingAndReadNoTrace() {
        DomainEvent internal = new Internal(UUID.randomUUID(), Instant.parse("2025-05-01T10:00:00Z"),
                UUID.randomUUID());

        outbox.record(List.of(internal));

        assertThat(inProcess.events()).containsExactly(internal);
        assertThat(written).isEmpty();
        assertThat(traceReads).hasValue(0);
    }

    @Test
    void noEventsTouchNothing() {
        outbox.record(List.of());

        assertThat(inProcess.calls()).isEmpty();
        assertThat(written).isEmpty();
    }

    private static OrderCancelled cancelled(String reason) {
        return new OrderCancelled(UUID.randomUUID(), Instant.parse("2025-05-01T11:00:00Z"),
                new OrderId(UUID.randomUUID()), reason);
    }

    private record Internal(UUID eventId, Instant occurredAt, UUID aggregateId) implements DomainEvent {
    }
}

package dev.bookstore.ordering.application.outbox.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import dev.bookstore.ordering.application.testing.InMemoryOutboxStore;
import dev.bookstore.ordering.application.testing.MutableClock;
import dev.bookstore.ordering.application.testing.OutboxMessages;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class GetOutboxStatsServiceTest {

    private final MutableClock clock = MutableClock.at("2025-03-14T09:00:00Z");
    private final InMemoryOutboxStore outbox = new InMemoryOutboxStore(clock);
    private final GetOutboxStatsQuery query = new GetOutboxStatsService(outbox);

    @Test
    void anEmptyOutboxHasNothingWaiting() {
        assertThat(query.outboxStats()).isEqualTo(new OutboxStats(0, 0, 0, Duration.ZERO));
    }

    @Test
    void countsPendingParkedAndPublishedMessagesAndTheAgeOfTheOldestPendingOne() {
        Instant start = clock.instant();
        OutboxMessage toPark = append(start);
        OutboxMessage toPublish = append(start.plusSeconds(1));
        // The age counts from when the store (the database) took the message, not from when it occurred.
        clock.set(start.plusSeconds(2));
        append(start.minusSeconds(60));
        clock.set(start.plusSeconds(3));
        append(start.plusSeconds(3));
        outbox.claim("relay-1", 2, Duration.ofSeconds(30), false);
        outbox.recordFailures("relay-1", List.of(DeliveryFailure.park(toPark.id(), "NACKED")));
        outbox.markPublished("relay-1", List.of(toPublish.id()));
        clock.set(start.plusSeconds(10));

        assertThat(query.outboxStats()).isEqualTo(new OutboxStats(2, 1, 1, Duration.ofSeconds(8)));
    }

    private OutboxMessage append(Instant occurredAt) {
        OutboxMessage message = OutboxMessages.orderPlaced("order-" + occurredAt.getEpochSecond(), occurredAt);
        outbox.append(message);
        return message;
    }
}

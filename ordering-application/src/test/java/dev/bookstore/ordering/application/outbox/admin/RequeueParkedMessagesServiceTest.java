package dev.bookstore.ordering.application.outbox.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.testing.OutboxMessages;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Requeueing every parked message, with a relay that reads inserts and parks again at once what it cannot send. */
class RequeueParkedMessagesServiceTest {

    /**
     * Parked rows as the CDC relay keeps them: sending one again inserts it again under a new position, and the
     * stream, which cannot deliver it, parks it again before the next page is read.
     */
    private static final class ReparkingOutbox implements OutboxAdministration {

        private final List<OutboxEntry> parked = new ArrayList<>();
        private final List<UUID> insertedAgain = new ArrayList<>();
        private long position;

        UUID park(String aggregate) {
            OutboxMessage message = OutboxMessages.orderPlaced(aggregate, Instant.parse("2026-01-01T00:00:00Z"));
            add(message.id(), aggregate);
            return message.id();
        }

        private void add(UUID id, String aggregate) {
            OutboxMessage message = OutboxMessages.orderPlaced(aggregate, Instant.parse("2026-01-01T00:00:00Z"));
            OutboxMessage stored = new OutboxMessage(id, message.aggregateType(), message.aggregateId(), message.type(),
                    message.exchange(), message.routingKey(), message.payload(), message.headers(),
                    message.occurredAt(), 3, ++position);
            parked.add(new OutboxEntry(stored, OutboxEntry.Status.PARKED, "RETURNED", Instant.EPOCH, null,
                    Instant.EPOCH));
        }

        @Override
        public long lastPosition() {
            return position;
        }

        @Override
        public List<OutboxEntry> parked(long afterPosition, int limit) {
            return parked.stream().filter(entry -> entry.message().position() > afterPosition)
                    .sorted(Comparator.comparingLong(entry -> entry.message().position())).limit(limit).toList();
        }

        @Override
        public int insertParkedAgain(Collection<UUID> ids) {
            int count = 0;
            for (UUID id : ids) {
                Optional<OutboxEntry> entry = parked.stream().filter(e -> e.id().equals(id)).findFirst();
                if (entry.isPresent()) {
                    parked.remove(entry.get());
                    insertedAgain.add(id);
                    add(id, entry.get().message().aggregateId()); // parked again by the stream at once
                    count++;
                }
            }
            return count;
        }

        @Override
        public Optional<OutboxEntry> find(UUID id) {
            return parked.stream().filter(entry -> entry.id().equals(id)).findFirst();
        }

        @Override
        public int unpark(Collection<UUID> ids) {
            throw new UnsupportedOperationException("a relay that reads inserts");
        }

        @Override
        public boolean deleteParked(UUID id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean resend(UUID id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long countPublished(ReplaySelection selection, int atMost) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int resendPublished(ReplaySelection selection, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean insertAgain(UUID id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long countNotParked(ReplaySelection selection, int atMost) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int insertAgain(ReplaySelection selection, int limit) {
            throw new UnsupportedOperationException();
        }
    }

    private final ReparkingOutbox outbox = new ReparkingOutbox();
    private final List<Integer> announced = new ArrayList<>();

    @Test
    void requeueAllSendsEachParkedMessageOnceThoughTheStreamParksItAgainMeanwhile() {
        UUID first = outbox.park("order-1");
        UUID second = outbox.park("order-2");
        UUID third = outbox.park("order-3");
        RequeueParkedMessagesService requeue = new RequeueParkedMessagesService(outbox, announced::add,
                RelayReading.INSERTS, 1, SendAgainGuard.NONE);

        int queued = assertTimeoutPreemptively(Duration.ofSeconds(5), requeue::requeueAll,
                "requeue-all must end: it pages on over the rows it inserted again");

        assertThat(queued).isEqualTo(3);
        assertThat(outbox.insertedAgain).containsExactly(first, second, third);
        assertThat(announced).containsExactly(3);
    }
}

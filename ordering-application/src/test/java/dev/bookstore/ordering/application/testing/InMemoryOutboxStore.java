package dev.bookstore.ordering.application.testing;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.OutboxRetention;
import dev.bookstore.ordering.application.outbox.admin.OutboxStatistics;
import dev.bookstore.ordering.application.outbox.admin.OutboxStats;
import dev.bookstore.ordering.application.outbox.relay.DeliveryFailure;
import dev.bookstore.ordering.application.outbox.relay.OutboxLeases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The outbox ports the JDBC store implements ({@link OutboxLeases}, {@link OutboxRetention},
 * {@link OutboxStatistics}), in memory, plus {@link #append} (the writer's insert) and {@link #unpark} (the
 * operator's): a model of the {@code outbox_message} table and of the lease rules its
 * javadoc describes, with time taken from a {@link Clock} the test controls. That clock stands for the
 * database's: it stamps {@code createdAt} and {@code publishedAt}, and every delay and age is measured on it, as
 * the real store measures them on {@code now()}; a message's {@code occurredAt} (the writer's clock) orders and
 * times nothing. Every method is atomic, as each is one statement in the real store. The rules, as the SQL
 * dialects of the persistence adapter state them:
 *
 * <ul>
 *   <li><b>Claim</b> leases pending (neither published nor parked), due ({@code nextAttemptAt} absent or not
 *       after now) rows whose lease is free or expired ({@code claimedUntil} before now), lowest
 *       {@code position} first (a counter that {@link #append} hands out, as the database's sequence does),
 *       until {@code now + lease}.</li>
 *   <li><b>Ordered claim</b> takes of each aggregate ({@code aggregateType}, {@code aggregateId}) only its
 *       unpublished row of the lowest position, and only while no row of that aggregate holds a live lease: one
 *       message in flight per aggregate. An oldest row that is not due yet, or parked, holds back the rest of its
 *       aggregate; a parked one until it is unparked and published.</li>
 *   <li><b>Outcomes</b> ({@link #markPublished}, {@link #recordFailures}, {@link #release}) change only rows
 *       still {@code claimed_by} the caller, as {@code WHERE id = ANY(?) AND claimed_by = ?} does: a relay
 *       whose lease expired and was taken over is ignored; one whose lease expired without a takeover may still
 *       record its outcome. Each frees the lease.</li>
 *   <li><b>Parked</b> rows are never claimed until {@link #unpark} makes them pending and due with zero
 *       attempts, created (for the pending age) anew at now.</li>
 * </ul>
 *
 * <p>Tests look at rows through {@link #row(UUID)} and {@link #rows()}.
 */
public final class InMemoryOutboxStore implements OutboxLeases, OutboxRetention, OutboxStatistics {

    /** {@code ORDER BY position}. */
    private static final Comparator<MutableRow> BY_POSITION = Comparator.comparingLong(row -> row.position);

    private final Clock clock;
    private final Map<UUID, MutableRow> rows = new LinkedHashMap<>();
    /** Like the database's published count: every message ever marked published, also after retention. */
    private long publishedEver;
    /** The last position handed out, like the database's sequence. */
    private long lastPosition;
    private int claimCalls;

    public InMemoryOutboxStore(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Where a row is in its life. */
    public enum Status { PENDING, PUBLISHED, PARKED }

    /**
     * A snapshot of one row.
     *
     * @param message the message as a claim would return it now (with the current attempt count)
     * @param createdAt when the row was appended, by this store's clock (the database's)
     * @param nextAttemptAt when the row is due again; null when due at once, and for parked rows
     * @param claimedBy the lease owner, or null when the lease is free
     */
    public record Row(OutboxMessage message, Status status, int attempts, String lastError, Instant createdAt,
                      Instant nextAttemptAt, Instant publishedAt, String claimedBy, Instant claimedUntil) {

        public UUID id() {
            return message.id();
        }

        /** Whether someone holds a lease on the row that has not expired at {@code now}. */
        public boolean leasedAt(Instant now) {
            return claimedBy != null && !claimedUntil.isBefore(now);
        }
    }

    /** Inserts the row, as the order's transaction does. */
    public synchronized void append(OutboxMessage message) {
        Objects.requireNonNull(message, "message");
        if (rows.containsKey(message.id())) {
            throw new IllegalStateException("duplicate key: outbox message " + message.id() + " already exists");
        }
        rows.put(message.id(), new MutableRow(message, ++lastPosition, clock.instant()));
    }

    @Override
    public synchronized List<OutboxMessage> claim(String owner, int batchSize, Duration lease, boolean ordered) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lease, "lease");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
        }
        claimCalls++;
        Instant now = clock.instant();
        Stream<MutableRow> candidates = ordered ? headsOfFreeAggregates(now) : pending();
        List<MutableRow> claimed = candidates
                .filter(row -> row.isDue(now) && !row.isLeased(now))
                .sorted(BY_POSITION)
                .limit(batchSize)
                .toList();
        Instant until = now.plus(lease);
        List<OutboxMessage> messages = new ArrayList<>(claimed.size());
        for (MutableRow row : claimed) {
            row.claimedBy = owner;
            row.claimedUntil = until;
            messages.add(row.currentMessage());
        }
        return messages;
    }

    @Override
    public synchronized int markPublished(String owner, Collection<UUID> ids) {
        Instant now = clock.instant();
        int changed = 0;
        for (MutableRow row : ownedBy(owner, ids)) {
            row.publishedAt = now;
            row.freeLease();
            changed++;
        }
        publishedEver += changed;
        return changed;
    }

    @Override
    public synchronized int recordFailures(String owner, List<DeliveryFailure> failures) {
        Instant now = clock.instant();
        int changed = 0;
        for (DeliveryFailure failure : failures) {
            for (MutableRow row : ownedBy(owner, List.of(failure.messageId()))) {
                row.attempts++;
                row.lastError = failure.error();
                row.parked = failure.parks();
                row.nextAttemptAt = failure.parks() ? null : now.plus(failure.retryAfter());
                row.freeLease();
                changed++;
            }
        }
        return changed;
    }

    @Override
    public synchronized int release(String owner, Collection<UUID> ids) {
        int changed = 0;
        for (MutableRow row : ownedBy(owner, ids)) {
            row.freeLease();
            changed++;
        }
        return changed;
    }

    /** Makes parked rows pending again, as {@code OutboxAdministration.unpark} does. */
    public synchronized int unpark(Collection<UUID> ids) {
        int changed = 0;
        for (UUID id : ids) {
            MutableRow row = rows.get(id);
            if (row != null && row.parked && row.publishedAt == null) {
                row.parked = false;
                row.attempts = 0;
                row.nextAttemptAt = null;
                row.createdAt = clock.instant();
                row.freeLease();
                changed++;
            }
        }
        return changed;
    }

    @Override
    public synchronized int deletePublishedOlderThan(Duration age, int limit) {
        Instant cutoff = clock.instant().minus(age);
        List<UUID> doomed = rows.values().stream()
                .filter(row -> row.publishedAt != null && row.publishedAt.isBefore(cutoff))
                .sorted(BY_POSITION)
                .limit(Math.max(limit, 0))
                .map(row -> row.message.id())
                .toList();
        doomed.forEach(rows::remove);
        return doomed.size();
    }

    @Override
    public synchronized OutboxStats count() {
        Instant now = clock.instant();
        long pending = pending().count();
        long parked = rows.values().stream().filter(row -> row.status() == Status.PARKED).count();
        Duration oldestPendingAge = pending()
                .map(row -> row.createdAt)
                .min(Comparator.naturalOrder())
                .map(oldest -> Duration.between(oldest, now))
                .filter(age -> !age.isNegative())
                .orElse(Duration.ZERO);
        Duration nextLeaseEnd = pending()
                .filter(row -> row.isLeased(now))
                .map(row -> Duration.between(now, row.claimedUntil))
                .min(Comparator.naturalOrder())
                .orElse(null);
        return new OutboxStats(pending, parked, publishedEver, oldestPendingAge, nextLeaseEnd);
    }

    /** The row with this id. */
    public synchronized Row row(UUID id) {
        return find(id).orElseThrow(() -> new IllegalArgumentException("no outbox message " + id));
    }

    public synchronized Optional<Row> find(UUID id) {
        return Optional.ofNullable(rows.get(id)).map(MutableRow::snapshot);
    }

    /** Every row, in the order appended. */
    public synchronized List<Row> rows() {
        return rows.values().stream().map(MutableRow::snapshot).toList();
    }

    /** How many times {@link #claim} was called, including calls that found nothing. */
    public synchronized int claimCalls() {
        return claimCalls;
    }

    private Stream<MutableRow> pending() {
        return rows.values().stream().filter(row -> row.status() == Status.PENDING);
    }

    private Stream<MutableRow> headsOfFreeAggregates(Instant now) {
        Map<List<String>, List<MutableRow>> byAggregate = new LinkedHashMap<>();
        rows.values().stream().filter(row -> row.publishedAt == null).forEach(row -> byAggregate
                .computeIfAbsent(List.of(row.message.aggregateType(), row.message.aggregateId()),
                        key -> new ArrayList<>())
                .add(row));
        return byAggregate.values().stream()
                .filter(aggregate -> aggregate.stream().noneMatch(row -> row.isLeased(now)))
                .map(aggregate -> aggregate.stream().min(BY_POSITION).orElseThrow())
                .filter(head -> head.status() == Status.PENDING);
    }

    private List<MutableRow> ownedBy(String owner, Collection<UUID> ids) {
        Objects.requireNonNull(owner, "owner");
        return ids.stream()
                .distinct()
                .map(rows::get)
                .filter(Objects::nonNull)
                .filter(row -> owner.equals(row.claimedBy) && row.publishedAt == null)
                .toList();
    }

    private static final class MutableRow {

        final OutboxMessage message;
        final long position;
        Instant createdAt;
        int attempts;
        String lastError;
        Instant nextAttemptAt;
        Instant publishedAt;
        boolean parked;
        String claimedBy;
        Instant claimedUntil;

        MutableRow(OutboxMessage message, long position, Instant createdAt) {
            this.message = message;
            this.position = position;
            this.createdAt = createdAt;
            this.attempts = message.attempts();
        }

        Status status() {
            if (publishedAt != null) {
                return Status.PUBLISHED;
            }
            return parked ? Status.PARKED : Status.PENDING;
        }

        boolean isDue(Instant now) {
            return nextAttemptAt == null || !nextAttemptAt.isAfter(now);
        }

        /** A lease is live up to and including its {@code claimedUntil}, as {@code claimed_until < now()} says. */
        boolean isLeased(Instant now) {
            return claimedBy != null && !claimedUntil.isBefore(now);
        }

        void freeLease() {
            claimedBy = null;
            claimedUntil = null;
        }

        OutboxMessage currentMessage() {
            return new OutboxMessage(message.id(), message.aggregateType(), message.aggregateId(), message.type(),
                    message.exchange(), message.routingKey(), message.payload(), message.headers(),
                    message.occurredAt(), attempts, position);
        }

        Row snapshot() {
            return new Row(currentMessage(), status(), attempts, lastError, createdAt, nextAttemptAt, publishedAt,
                    claimedBy, claimedUntil);
        }
    }
}

package dev.bookstore.ordering.application.outbox.relay;

import dev.bookstore.ordering.application.outbox.OutboxMessage;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The outbox as the relay uses it: it leases messages, then settles each lease (published, failed, or released
 * untried). Every method is one short statement (or a few, chunked) in its own transaction, so nothing holds a
 * transaction open while the relay talks to the broker; an outcome is accepted only from the owner that still
 * holds the lease.
 */
public interface OutboxLeases {

    /**
     * Leases up to {@code batchSize} pending, due messages whose lease is free or expired, in the order they were
     * stored ({@link OutboxMessage#position()}, given by the database at insert, never by a host's clock),
     * skipping rows another relay is claiming at the same moment. Returns them in that order.
     *
     * @param ordered when true, only the unpublished message of each aggregate stored first can be claimed, and
     *                only while no other message of that aggregate is leased (one in flight per aggregate)
     */
    List<OutboxMessage> claim(String owner, int batchSize, Duration lease, boolean ordered);

    /** Marks confirmed messages published, if {@code owner} still holds their lease; returns how many. */
    int markPublished(String owner, Collection<UUID> ids);

    /**
     * Records failed deliveries (attempts + 1, last error, and either due again {@link DeliveryFailure#retryAfter()}
     * from now by the database's clock, or parked) and frees the lease.
     */
    int recordFailures(String owner, List<DeliveryFailure> failures);

    /** Frees the lease without counting an attempt: the message was never really tried (broker unavailable). */
    int release(String owner, Collection<UUID> ids);
}

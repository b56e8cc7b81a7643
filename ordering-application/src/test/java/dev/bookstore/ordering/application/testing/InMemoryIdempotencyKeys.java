package dev.bookstore.ordering.application.testing;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@link IdempotencyKeys} in a map, with the one piece of transaction behaviour the port promises: a key that a
 * request holds and has not finished with is {@link Claim.InFlight} for every other request. {@link #claim} is a
 * request that finishes at once (it commits); {@link #begin} starts one that holds its key until it commits or
 * rolls back. Keys are stamped with the clock when they are claimed, as the database stamps them with its own
 * clock at the start of the transaction.
 */
public final class InMemoryIdempotencyKeys implements IdempotencyKeys {

    private final Clock clock;
    private final Map<Scope, Recorded> finished = new HashMap<>();
    private final Set<Scope> inFlight = new HashSet<>();
    private int claims;

    public InMemoryIdempotencyKeys(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public synchronized Claim claim(CustomerId customer, IdempotencyKey key, String requestFingerprint,
                                    OrderId orderId) {
        OpenRequest request = begin(customer, key, requestFingerprint, orderId);
        request.commit();
        return request.claim();
    }

    /**
     * A request that claims the key now and, if it got it, holds it until {@link OpenRequest#commit()} or
     * {@link OpenRequest#rollback()}: meanwhile the key is in flight for everybody else.
     */
    public synchronized OpenRequest begin(CustomerId customer, IdempotencyKey key, String requestFingerprint,
                                          OrderId orderId) {
        Objects.requireNonNull(requestFingerprint, "requestFingerprint");
        Objects.requireNonNull(orderId, "orderId");
        claims++;
        Scope scope = new Scope(customer, key);
        if (inFlight.contains(scope)) {
            return new OpenRequest(scope, new Claim.InFlight(), null);
        }
        Recorded earlier = finished.get(scope);
        if (earlier != null) {
            return new OpenRequest(scope, new Claim.Used(earlier.fingerprint(), earlier.orderId()), null);
        }
        inFlight.add(scope);
        return new OpenRequest(scope, new Claim.Recorded(), new Recorded(requestFingerprint, orderId,
                clock.instant()));
    }

    @Override
    public synchronized int deleteExpired(Duration retention, int limit) {
        Instant cutoff = clock.instant().minus(retention);
        List<Scope> expired = finished.entrySet().stream()
                .filter(entry -> entry.getValue().at().isBefore(cutoff))
                .sorted(Comparator.comparing(entry -> entry.getValue().at()))
                .limit(limit)
                .map(Map.Entry::getKey)
                .toList();
        expired.forEach(finished::remove);
        return expired.size();
    }

    /** Makes a finished key look as if it had been recorded {@code age} earlier. */
    public synchronized void backdate(CustomerId customer, IdempotencyKey key, Duration age) {
        finished.computeIfPresent(new Scope(customer, key), (scope, recorded) ->
                new Recorded(recorded.fingerprint(), recorded.orderId(), recorded.at().minus(age)));
    }

    /** How many keys finished requests recorded. */
    public synchronized int size() {
        return finished.size();
    }

    /** How many times a key was claimed, whatever the outcome. */
    public synchronized int claims() {
        return claims;
    }

    /** A request that claimed a key and has not finished. */
    public final class OpenRequest {

        private final Scope scope;
        private final Claim claim;
        private final Recorded toRecord;
        private boolean open = true;

        private OpenRequest(Scope scope, Claim claim, Recorded toRecord) {
            this.scope = scope;
            this.claim = claim;
            this.toRecord = toRecord;
        }

        public Claim claim() {
            return claim;
        }

        /** Finishes the request; a key it got is recorded, stamped with the time it was claimed. */
        public void commit() {
            finish(true);
        }

        /** Finishes the request as if it never happened; a key it got is free again. */
        public void rollback() {
            finish(false);
        }

        private void finish(boolean commit) {
            synchronized (InMemoryIdempotencyKeys.this) {
                if (!open) {
                    throw new IllegalStateException("the request has finished already");
                }
                open = false;
                if (toRecord != null) {
                    inFlight.remove(scope);
                    if (commit) {
                        finished.put(scope, toRecord);
                    }
                }
            }
        }
    }

    private record Scope(CustomerId customer, IdempotencyKey key) {

        Scope {
            Objects.requireNonNull(customer, "customer");
            Objects.requireNonNull(key, "key");
        }
    }

    private record Recorded(String fingerprint, OrderId orderId, Instant at) {
    }
}

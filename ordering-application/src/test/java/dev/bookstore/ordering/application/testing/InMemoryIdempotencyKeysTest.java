package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys.Claim;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.application.testing.InMemoryIdempotencyKeys.OpenRequest;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The fake runs the contract of the real store, so the service tests built on it can be trusted. */
class InMemoryIdempotencyKeysTest extends IdempotencyKeysContract {

    private final MutableClock clock = MutableClock.at("2025-03-14T09:00:00Z");
    private final InMemoryIdempotencyKeys keys = new InMemoryIdempotencyKeys(clock);

    @Override
    protected IdempotencyKeys keys() {
        return keys;
    }

    @Override
    protected <T> T committed(Supplier<T> work) {
        return work.get();
    }

    @Override
    protected OpenClaim claimInOpenTransaction(CustomerId customer, IdempotencyKey key, String fingerprint,
                                               OrderId orderId) {
        OpenRequest request = keys.begin(customer, key, fingerprint, orderId);
        return new OpenClaim() {
            private boolean finished;

            @Override
            public Claim claim() {
                return request.claim();
            }

            @Override
            public void commit() {
                finished = true;
                request.commit();
            }

            @Override
            public void rollback() {
                finished = true;
                request.rollback();
            }

            @Override
            public boolean finished() {
                return finished;
            }
        };
    }

    @Override
    protected void backdate(CustomerId customer, IdempotencyKey key, Duration age) {
        keys.backdate(customer, key, age);
    }

    @Override
    protected int recordedKeys() {
        return keys.size();
    }

    @Test
    void keysAreStampedWithTheClockWhenTheyAreClaimed() {
        OpenRequest request = keys.begin(ALICE, key("k-1"), FINGERPRINT, order(1));
        clock.advance(Duration.ofHours(2));
        request.commit();

        assertThat(keys.deleteExpired(Duration.ofMinutes(121), 10)).isZero();
        assertThat(keys.deleteExpired(Duration.ofMinutes(119), 10)).isOne();
    }

    @Test
    void everyClaimIsCountedWhateverItFound() {
        keys.claim(ALICE, key("k-1"), FINGERPRINT, order(1));
        keys.claim(ALICE, key("k-1"), FINGERPRINT, order(2));
        keys.begin(ALICE, key("k-2"), FINGERPRINT, order(3));
        keys.claim(ALICE, key("k-2"), FINGERPRINT, order(4));

        assertThat(keys.claims()).isEqualTo(4);
    }

    @Test
    void aRequestFinishesOnlyOnce() {
        OpenRequest request = keys.begin(ALICE, key("k-1"), FINGERPRINT, order(1));
        request.commit();

        assertThatIllegalStateException().isThrownBy(request::rollback);
        assertThat(keys.claim(ALICE, key("k-1"), FINGERPRINT, order(2)))
                .isEqualTo(new Claim.Used(FINGERPRINT, order(1)));
    }
}

package dev.bookstore.ordering.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.bookstore.ordering.application.idempotency.IdempotencyKey;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys.Claim;
import dev.bookstore.ordering.application.idempotency.IdempotencyKeys;
import dev.bookstore.ordering.domain.order.CustomerId;
import dev.bookstore.ordering.domain.order.OrderId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link IdempotencyKeys} contract, run by the in-memory fake and by the JDBC adapter on every database, so
 * the service tests built on the fake test what production does. A subclass provides an empty store and its
 * transactions.
 */
public abstract class IdempotencyKeysContract {

    private static final Duration RETENTION = Duration.ofHours(24);
    /** How long a claim may take at most, where waiting for another transaction would take forever. */
    private static final Duration NO_WAITING = Duration.ofSeconds(10);

    protected static final CustomerId ALICE = new CustomerId(UUID.fromString("0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60"));
    protected static final CustomerId BOB = new CustomerId(UUID.fromString("0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f61"));
    protected static final String FINGERPRINT = "a".repeat(64);
    protected static final String OTHER_FINGERPRINT = "b".repeat(64);

    private final List<OpenClaim> open = new ArrayList<>();

    /** The store under test, empty at the start of every test. */
    protected abstract IdempotencyKeys keys();

    /** Runs {@code work} in a transaction of its own that commits. */
    protected abstract <T> T committed(Supplier<T> work);

    /** Starts a transaction that claims the key and stays open until the returned claim commits or rolls back. */
    protected abstract OpenClaim claimInOpenTransaction(CustomerId customer, IdempotencyKey key, String fingerprint,
                                                        OrderId orderId);

    /** Makes a recorded key look as if it had been recorded {@code age} earlier. */
    protected abstract void backdate(CustomerId customer, IdempotencyKey key, Duration age);

    /** How many keys are recorded (committed). */
    protected abstract int recordedKeys();

    /** A claim in a transaction that is still open. */
    public interface OpenClaim {

        Claim claim();

        void commit();

        void rollback();

        boolean finished();
    }

    @AfterEach
    void finishOpenTransactions() {
        open.stream().filter(claim -> !claim.finished()).forEach(OpenClaim::rollback);
    }

    @Test
    void aFreeKeyIsRecordedWithTheNewOrder() {
        assertThat(claim(ALICE, "k-1", FINGERPRINT, order(1))).isEqualTo(new Claim.Recorded());

        assertThat(recordedKeys()).isEqualTo(1);
    }

    @Test
    void aKeyThatAFinishedRequestUsedNamesThatRequestsFingerprintAndOrder() {
        claim(ALICE, "k-1", FINGERPRINT, order(1));

        assertThat(claim(ALICE, "k-1", FINGERPRINT, order(2))).isEqualTo(new Claim.Used(FINGERPRINT, order(1)));
        assertThat(claim(ALICE, "k-1", OTHER_FINGERPRINT, order(3)))
                .isEqualTo(new Claim.Used(FINGERPRINT, order(1)));
        assertThat(recordedKeys()).isEqualTo(1);
    }

    @Test
    void theSameKeyOfAnotherCustomerIsAnotherKey() {
        claim(ALICE, "k-1", FINGERPRINT, order(1));

        assertThat(claim(BOB, "k-1", FINGERPRINT, order(2))).isEqualTo(new Claim.Recorded());
        assertThat(claim(BOB, "k-1", FINGERPRINT, order(3))).isEqualTo(new Claim.Used(FINGERPRINT, order(2)));
        assertThat(recordedKeys()).isEqualTo(2);
    }

    @Test
    void keysDifferingOnlyInCaseAreDifferentKeys() {
        claim(ALICE, "order-abc", FINGERPRINT, order(1));

        assertThat(claim(ALICE, "ORDER-ABC", FINGERPRINT, order(2))).isEqualTo(new Claim.Recorded());
        assertThat(claim(ALICE, "Order-Abc", FINGERPRINT, order(3))).isEqualTo(new Claim.Recorded());
    }

    @Test
    void aKeyOfTheLongestLengthAndEveryVisibleCharacterIsKeptExactly() {
        String everyVisible = IntStream.rangeClosed('!', '~').collect(StringBuilder::new,
                StringBuilder::appendCodePoint, StringBuilder::append).toString();
        String longest = (everyVisible + everyVisible + everyVisible).substring(0, IdempotencyKey.MAX_LENGTH);

        assertThat(claim(ALICE, longest, FINGERPRINT, order(1))).isEqualTo(new Claim.Recorded());
        assertThat(claim(ALICE, longest, FINGERPRINT, order(2))).isEqualTo(new Claim.Used(FINGERPRINT, order(1)));
        assertThat(claim(ALICE, longest.substring(0, 254), FINGERPRINT, order(3))).isEqualTo(new Claim.Recorded());
    }

    @Test
    void aKeyThatAnUnfinishedRequestHoldsIsInFlightAndTheClaimDoesNotWaitForIt() {
        OpenClaim first = open(ALICE, "k-1", FINGERPRINT, order(1));
        assertThat(first.claim()).isEqualTo(new Claim.Recorded());

        Claim second = assertTimeoutPreemptively(NO_WAITING, () -> claim(ALICE, "k-1", FINGERPRINT, order(2)));

        assertThat(second).isEqualTo(new Claim.InFlight());
        assertThat(first.finished()).isFalse();
        first.commit();
        assertThat(recordedKeys()).isEqualTo(1);
    }

    @Test
    void anUnfinishedRequestHoldsOnlyItsOwnKey() {
        open(ALICE, "k-1", FINGERPRINT, order(1));

        assertThat(assertTimeoutPreemptively(NO_WAITING, () -> claim(ALICE, "k-2", FINGERPRINT, order(2))))
                .isEqualTo(new Claim.Recorded());
        assertThat(assertTimeoutPreemptively(NO_WAITING, () -> claim(BOB, "k-1", FINGERPRINT, order(3))))
                .isEqualTo(new Claim.Recorded());
    }

    @Test
    void onceTheHoldingRequestCommitsItsKeyIsUsed() {
        OpenClaim first = open(ALICE, "k-1", FINGERPRINT, order(1));
        first.commit();

        assertThat(claim(ALICE, "k-1", FINGERPRINT, order(2))).isEqualTo(new Claim.Used(FINGERPRINT, order(1)));
    }

    @Test
    void aKeyWhoseRequestRolledBackIsFreeAgain() {
        OpenClaim first = open(ALICE, "k-1", FINGERPRINT, order(1));
        first.rollback();

        assertThat(recordedKeys()).isZero();
        assertThat(claim(ALICE, "k-1", OTHER_FINGERPRINT, order(2))).isEqualTo(new Claim.Recorded());
        assertThat(claim(ALICE, "k-1", FINGERPRINT, order(3))).isEqualTo(new Claim.Used(OTHER_FINGERPRINT, order(2)));
    }

    @Test
    void deletingExpiredKeysTakesOnlyKeysOlderThanTheRetentionAndAtMostTheLimitAtATime() {
        for (int i = 1; i <= 3; i++) {
            claim(ALICE, "old-" + i, FINGERPRINT, order(i));
            backdate(ALICE, key("old-" + i), RETENTION.plusMinutes(i));
        }
        claim(ALICE, "recent", FINGERPRINT, order(4));
        backdate(ALICE, key("recent"), RETENTION.minusMinutes(5));
        claim(BOB, "new", FINGERPRINT, order(5));

        assertThat(committed(() -> keys().deleteExpired(RETENTION, 2))).isEqualTo(2);
        assertThat(recordedKeys()).isEqualTo(3);
        assertThat(committed(() -> keys().deleteExpired(RETENTION, 2))).isEqualTo(1);
        assertThat(committed(() -> keys().deleteExpired(RETENTION, 2))).isZero();

        assertThat(recordedKeys()).isEqualTo(2);
        assertThat(claim(ALICE, "recent", FINGERPRINT, order(6))).isEqualTo(new Claim.Used(FINGERPRINT, order(4)));
        assertThat(claim(BOB, "new", FINGERPRINT, order(7))).isEqualTo(new Claim.Used(FINGERPRINT, order(5)));
    }

    @Test
    void anExpiredKeyThatWasDeletedPlacesANewOrder() {
        claim(ALICE, "k-1", FINGERPRINT, order(1));
        backdate(ALICE, key("k-1"), RETENTION.plusSeconds(1));
        committed(() -> keys().deleteExpired(RETENTION, 10));

        assertThat(claim(ALICE, "k-1", FINGERPRINT, order(2))).isEqualTo(new Claim.Recorded());
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    protected Claim claim(CustomerId customer, String key, String fingerprint, OrderId orderId) {
        return committed(() -> keys().claim(customer, key(key), fingerprint, orderId));
    }

    private OpenClaim open(CustomerId customer, String key, String fingerprint, OrderId orderId) {
        OpenClaim claim = claimInOpenTransaction(customer, key(key), fingerprint, orderId);
        open.add(claim);
        return claim;
    }

    protected static IdempotencyKey key(String value) {
        return new IdempotencyKey(value);
    }

    /** The same order id for the same number, so expected claims can name it. */
    protected static OrderId order(int number) {
        return new OrderId(UUID.fromString("0192b7a4-5d1e-7c3a-8000-%012d".formatted(number)));
    }
}

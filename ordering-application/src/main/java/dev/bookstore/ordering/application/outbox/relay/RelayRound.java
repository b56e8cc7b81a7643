package dev.bookstore.ordering.application.outbox.relay;

/**
 * What one or more relay rounds did.
 *
 * @param claimed messages leased
 * @param published confirmed by the broker and marked published
 * @param retried failed and scheduled again with backoff
 * @param parked failed for the last allowed time and set aside
 * @param released given back untried because the broker was unavailable
 */
public record RelayRound(int claimed, int published, int retried, int parked, int released) {

    public static final RelayRound NOTHING = new RelayRound(0, 0, 0, 0, 0);

    public RelayRound plus(RelayRound other) {
        return new RelayRound(claimed + other.claimed, published + other.published, retried + other.retried,
                parked + other.parked, released + other.released);
    }
}

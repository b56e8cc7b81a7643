package dev.bookstore.ordering.application.outbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RelayRoundTest {

    @Test
    void roundsAddUpFieldByField() {
        RelayRound sum = new RelayRound(10, 7, 2, 1, 0).plus(new RelayRound(5, 1, 0, 0, 4));

        assertThat(sum).isEqualTo(new RelayRound(15, 8, 2, 1, 4));
    }

    @Test
    void nothingIsTheNeutralRound() {
        RelayRound round = new RelayRound(3, 1, 1, 1, 0);

        assertThat(RelayRound.NOTHING.plus(round)).isEqualTo(round);
    }
}

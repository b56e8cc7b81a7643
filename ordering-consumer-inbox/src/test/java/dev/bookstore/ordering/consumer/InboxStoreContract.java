package dev.bookstore.ordering.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@link InboxStore} contract, run by the JDBC store on every database and by the in-memory fake the listener's
 * tests use, so the fake cannot drift. Every delivery is recorded in a transaction, as the listener records it.
 */
abstract class InboxStoreContract {

    protected abstract InboxStore store();

    protected abstract PlatformTransactionManager transactions();

    private boolean firstDelivery(String consumer, UUID messageId) {
        return new TransactionTemplate(transactions())
                .execute(status -> store().recordFirstDelivery(consumer, messageId));
    }

    @Test
    void aFirstDeliveryIsRecordedOnceAndItsRedeliveryRecognised() {
        UUID messageId = UUID.randomUUID();

        assertThat(firstDelivery("stock-reservation", messageId)).isTrue();
        assertThat(firstDelivery("stock-reservation", messageId)).isFalse();
        assertThat(firstDelivery("stock-reservation", UUID.randomUUID())).isTrue();
    }

    @Test
    void theSameMessageIsAFirstDeliveryForEveryConsumer() {
        UUID messageId = UUID.randomUUID();

        assertThat(firstDelivery("stock-reservation", messageId)).isTrue();
        assertThat(firstDelivery("invoicing", messageId)).isTrue();
        assertThat(firstDelivery("invoicing", messageId)).isFalse();
    }

    @Test
    void aRedeliveryInsideTheConsumersTransactionLeavesThatTransactionUsable() {
        UUID redelivered = UUID.randomUUID();
        UUID next = UUID.randomUUID();
        firstDelivery("invoicing", redelivered);

        List<Boolean> firstDeliveries = new TransactionTemplate(transactions()).execute(status -> List.of(
                store().recordFirstDelivery("invoicing", redelivered),
                store().recordFirstDelivery("invoicing", next)));

        assertThat(firstDeliveries).containsExactly(false, true);
        assertThat(firstDelivery("invoicing", next)).as("committed with the transaction").isFalse();
    }

    @Test
    void aDeliveryRecordedByATransactionThatRolledBackIsAFirstDeliveryAgain() {
        UUID messageId = UUID.randomUUID();

        new TransactionTemplate(transactions()).executeWithoutResult(status -> {
            assertThat(store().recordFirstDelivery("invoicing", messageId)).isTrue();
            status.setRollbackOnly(); // the handler failed
        });

        assertThat(firstDelivery("invoicing", messageId)).isTrue();
    }
}

package dev.bookstore.ordering.adapters.persistence.outbox;

import dev.bookstore.ordering.application.outbox.OutboxCommitListener;
import dev.bookstore.ordering.application.outbox.OutboxMessage;
import dev.bookstore.ordering.application.outbox.OutboxWriter;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link OutboxWriter} inside the caller's transaction: one insert per message, as the application built it.
 * After the transaction commits, and only then, the {@link OutboxCommitListener}s are told (they wake this
 * instance's relay and notify the others). A rollback leaves no row and wakes nobody. Which events leave the
 * service, and with which contract and headers, is not this class's business: it stores what it is given.
 *
 * <p>Nothing here sends a {@code NOTIFY} inside the order's transaction: PostgreSQL queues notifications under
 * one global lock taken at commit, so a transactional {@code NOTIFY} in every order would make all order
 * commits wait for each other ({@link PostgresOutboxNotifier} sends one after commit, coalesced).
 */
@Component
class TransactionalOutboxWriter implements OutboxWriter {

    private final JdbcOutboxStore outbox;
    private final List<OutboxCommitListener> commitListeners;

    TransactionalOutboxWriter(JdbcOutboxStore outbox, List<OutboxCommitListener> commitListeners) {
        this.outbox = outbox;
        this.commitListeners = List.copyOf(commitListeners);
    }

    @Override
    public void append(List<OutboxMessage> messages) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("Outbox messages must be written inside the transaction that saved "
                    + "the aggregate; otherwise the row could outlive or miss the change");
        }
        messages.forEach(outbox::append);
        if (!messages.isEmpty() && !commitListeners.isEmpty()) {
            int committed = messages.size();
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    commitListeners.forEach(listener -> listener.outboxMessagesCommitted(committed));
                }
            });
        }
    }
}

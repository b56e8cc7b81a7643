package dev.bookstore.ordering.consumer;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * An inbox in memory that behaves transactionally like the real one: it must be called inside a transaction,
 * and a record disappears again when that transaction rolls back.
 */
final class InMemoryInboxStore implements InboxStore {

    private final Set<String> recorded = ConcurrentHashMap.newKeySet();
    private final AtomicInteger calls = new AtomicInteger();

    @Override
    public boolean recordFirstDelivery(String consumer, UUID messageId) {
        calls.incrementAndGet();
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            throw new IllegalStateException("the inbox joins the caller's transaction; there is none");
        }
        String key = consumer + "/" + messageId;
        if (!recorded.add(key)) {
            return false;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                if (status != STATUS_COMMITTED) {
                    recorded.remove(key);
                }
            }
        });
        return true;
    }

    int calls() {
        return calls.get();
    }

    boolean contains(String consumer, UUID messageId) {
        return recorded.contains(consumer + "/" + messageId);
    }
}

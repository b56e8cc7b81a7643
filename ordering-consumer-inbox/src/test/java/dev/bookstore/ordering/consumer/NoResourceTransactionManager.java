package dev.bookstore.ordering.consumer;

import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

/**
 * A transaction manager without a resource: commit and rollback do nothing themselves, but transaction
 * synchronizations run, which is all the in-memory inbox needs to undo a record on rollback.
 */
final class NoResourceTransactionManager extends AbstractPlatformTransactionManager {

    @Override
    protected Object doGetTransaction() {
        return new Object();
    }

    @Override
    protected void doBegin(Object transaction, TransactionDefinition definition) {
        // nothing to begin
    }

    @Override
    protected void doCommit(DefaultTransactionStatus status) {
        // nothing to commit
    }

    @Override
    protected void doRollback(DefaultTransactionStatus status) {
        // nothing to roll back
    }
}

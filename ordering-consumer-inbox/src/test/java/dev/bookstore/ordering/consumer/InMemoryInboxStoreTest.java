package dev.bookstore.ordering.consumer;

import org.springframework.transaction.PlatformTransactionManager;

class InMemoryInboxStoreTest extends InboxStoreContract {

    private final InMemoryInboxStore store = new InMemoryInboxStore();

    @Override
    protected InboxStore store() {
        return store;
    }

    @Override
    protected PlatformTransactionManager transactions() {
        return new NoResourceTransactionManager();
    }
}

package dev.bookstore.ordering.bootstrap.config;

import javax.sql.DataSource;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizers;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Transactions on the API's data source, for the use cases and the in-process listeners, whose adapters all go
 * through JDBC: no Hibernate session is opened, flushed and closed around statements that never touch a
 * persistence context. They see the same connection as JDBC statements run inside them ({@code JdbcTemplate}
 * finds it by the data source), so they join no JPA transaction and must never be opened inside one.
 *
 * <p>Deliberately not a {@link PlatformTransactionManager} bean: Boot creates the JPA transaction manager only
 * while there is none, and Spring Modulith's JPA event publication registry (its own {@code @Transactional}
 * methods: resubmission, clean-up) keeps using it. Boot's customizers (the {@code spring.transaction.*}
 * properties, the {@code TransactionExecutionListener} beans) are applied to this one as to Boot's own.
 */
public final class JdbcTransactions {

    private final DataSourceTransactionManager manager;

    JdbcTransactions(DataSource dataSource, TransactionManagerCustomizers customizers) {
        this.manager = new DataSourceTransactionManager(dataSource);
        if (customizers != null) {
            customizers.customize(manager);
        }
    }

    PlatformTransactionManager manager() {
        return manager;
    }

    /** A template for a new transaction (or one to join) named {@code name}, as {@code @Transactional} names them. */
    public TransactionTemplate template(String name) {
        TransactionTemplate template = new TransactionTemplate(manager);
        template.setName(name);
        return template;
    }
}

package dev.bookstore.ordering.bootstrap.config;

import javax.sql.DataSource;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizers;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Transactions on the API's data source, for the use cases and the in-process listeners, whose adapters all go
 * through JDBC. They see the same connection as JDBC statements run inside them ({@code JdbcTemplate} finds it by
 * the data source). (They were introduced while Spring Modulith's registry was its JPA one, so that no Hibernate
 * session was opened around statements that never touched a persistence context; the service has no JPA provider
 * any more, and Boot's own transaction manager is a JDBC one on the same data source.)
 *
 * <p>Deliberately not a {@link PlatformTransactionManager} bean: Boot's transaction manager stays the one Spring
 * Modulith's registry ({@code @Transactional} methods: resubmission, clean-up) and its listeners' annotations use.
 * Boot's customizers (the {@code spring.transaction.*} properties, the {@code TransactionExecutionListener} beans)
 * are applied to this one as to Boot's own.
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

package dev.bookstore.ordering.bootstrap.config;

import dev.bookstore.ordering.adapters.persistence.Database;
import dev.bookstore.ordering.adapters.persistence.outbox.JdbcOutboxStore;
import dev.bookstore.ordering.bootstrap.config.OutboxProperties.Relay;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The CDC relay ({@code ordering.outbox.relay=cdc}): Debezium reads the outbox from PostgreSQL's WAL. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnRelay(Relay.CDC)
class CdcRelayConfiguration {

    /** Stops the start on any database but PostgreSQL, explained by {@link CdcNeedsPostgresFailureAnalyzer}. */
    @Bean
    InitializingBean cdcNeedsPostgres(JdbcOutboxStore outbox) {
        return () -> requirePostgres(outbox.database());
    }

    static void requirePostgres(Database database) {
        if (database != Database.POSTGRESQL) {
            throw new CdcNeedsPostgresException(database);
        }
    }
}

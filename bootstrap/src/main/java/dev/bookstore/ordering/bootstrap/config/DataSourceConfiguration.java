package dev.bookstore.ordering.bootstrap.config;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Settings of the connection pool that the write path depends on. */
@Configuration(proxyBeanMethods = false)
class DataSourceConfiguration {

    /**
     * On PostgreSQL the driver sends a batch of inserts as one multi-row {@code INSERT}: an order's lines, which
     * Hibernate batches, reach the database as one statement. Set on the pool's driver properties so that it
     * holds in every profile, and only for the driver that knows it.
     */
    @Bean
    static BeanPostProcessor postgresBatchedInserts() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource pool && pool.getJdbcUrl() != null
                        && pool.getJdbcUrl().startsWith("jdbc:postgresql:")) {
                    pool.addDataSourceProperty("reWriteBatchedInserts", "true");
                }
                return bean;
            }
        };
    }
}

package dev.bookstore.ordering.bootstrap.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.core.env.Environment;

/**
 * The relay's connection pool, and the settings of every connection outside a pool, made with the settings of the
 * one Boot builds (the API's, the write path's).
 */
final class DataSourceConfiguration {

    private DataSourceConfiguration() {
    }

    /** The name of the relay's pool, in Hikari's log lines and in the {@code pool} tag of its metrics. */
    static final String RELAY_POOL_NAME = "ordering-relay";

    /** Where Boot binds the settings of its Hikari pool; the relay's pool takes the same. */
    private static final String HIKARI_PROPERTIES = "spring.datasource.hikari";

    /**
     * The relay's own pool, {@value #RELAY_POOL_NAME}: the database, user and password of {@code spring.datasource.*}
     * and every setting of {@code spring.datasource.hikari.*} (connection timeout, lifetimes, driver properties), as
     * Boot builds its pool, but its own name and size, and auto-commit always on (each relay statement commits by
     * itself; the store opens its own transaction where it needs two statements together). Not started here: the
     * first connection starts it. Its metrics ({@code hikaricp.connections.*}, tag {@code pool}) go to
     * {@code meterRegistry} when there is one: the pool is no bean, so Boot's binding of its pools' metrics does not
     * see it. {@code connectionSetup}, the SQL the outbox store asks its relay connections to run
     * ({@code JdbcOutboxStore.relayConnectionSetup()}), runs on every new connection after any
     * {@code connection-init-sql} of the API's pool.
     */
    static HikariDataSource relayPool(DataSourceProperties dataSource, Environment environment, int maximumSize,
                                      MeterRegistry meterRegistry, Optional<String> connectionSetup) {
        HikariDataSource pool = dataSource.initializeDataSourceBuilder().type(HikariDataSource.class).build();
        Binder.get(environment).bind(HIKARI_PROPERTIES, Bindable.ofInstance(pool));
        pool.setPoolName(RELAY_POOL_NAME);
        pool.setMaximumPoolSize(maximumSize);
        pool.setAutoCommit(true);
        pool.setReadOnly(false);
        connectionSetup.ifPresent(setup -> pool.setConnectionInitSql(
                pool.getConnectionInitSql() == null ? setup : pool.getConnectionInitSql() + "; " + setup));
        if (meterRegistry != null) {
            pool.setMetricRegistry(meterRegistry);
        }
        return pool;
    }

    /**
     * How Boot's pool connects: URL, user and password of {@code spring.datasource.*} and every setting of
     * {@code spring.datasource.hikari.*} (its own {@code jdbc-url}, {@code username}, {@code password} and
     * {@code data-source-properties} included), bound as Boot binds them; no pool is made. The connections the
     * service keeps outside its pools (the CDC relay's, LISTEN and NOTIFY) are made from it.
     */
    static HikariConfig poolSettings(DataSourceProperties dataSource, Environment environment) {
        HikariConfig settings = new HikariConfig();
        settings.setJdbcUrl(dataSource.determineUrl());
        settings.setUsername(dataSource.determineUsername());
        settings.setPassword(dataSource.determinePassword());
        Binder.get(environment).bind(HIKARI_PROPERTIES, Bindable.ofInstance(settings));
        return settings;
    }

    /** The driver properties of {@code settings} ({@code data-source-properties}), by name. */
    static Map<String, String> driverProperties(HikariConfig settings) {
        Map<String, String> properties = new LinkedHashMap<>();
        settings.getDataSourceProperties().forEach((name, value) -> properties.put(name.toString(),
                value.toString()));
        return properties;
    }
}

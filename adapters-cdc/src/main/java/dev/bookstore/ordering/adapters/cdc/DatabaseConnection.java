package dev.bookstore.ordering.adapters.cdc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * How the application's pool connects: its JDBC URL (with every parameter: TLS mode and certificates, hosts,
 * {@code currentSchema}, ...), user and password, and the driver properties it adds
 * ({@code spring.datasource.hikari.data-source-properties}). Every connection of the CDC relay is made from it, so
 * none is weaker than the pool's. As for the pool, a parameter of the URL outranks a property of the same name.
 *
 * @param properties driver properties, by the driver's names
 */
public record DatabaseConnection(String jdbcUrl, String username, String password, Map<String, String> properties) {

    public DatabaseConnection {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        properties = Map.copyOf(properties);
    }

    /** The pool's driver properties and user, over {@code defaults} (what the caller adds unless the pool says). */
    Properties driverProperties(Map<String, String> defaults) {
        Properties driver = new Properties();
        driver.putAll(defaults);
        driver.putAll(properties);
        if (username != null) {
            driver.setProperty("user", username);
        }
        if (password != null) {
            driver.setProperty("password", password);
        }
        return driver;
    }

    /**
     * A connection as the pool would open it, with {@code defaults} where the pool sets nothing, named
     * {@code applicationName} (in {@code pg_stat_activity}) unless the URL names it.
     */
    Connection open(String applicationName, Map<String, String> defaults) throws SQLException {
        Properties driver = driverProperties(defaults);
        driver.setProperty("ApplicationName", applicationName);
        return DriverManager.getConnection(jdbcUrl, driver);
    }

    /**
     * What the driver would connect with: the URL's parameters over the properties, plus {@code PGHOST},
     * {@code PGPORT} and {@code PGDBNAME} (comma-separated where the URL names several hosts).
     */
    Properties effective() {
        Properties parsed = Driver.parseURL(jdbcUrl, driverProperties(Map.of()));
        if (parsed == null) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
        }
        Properties flat = new Properties();
        parsed.stringPropertyNames().forEach(name -> flat.setProperty(name, parsed.getProperty(name)));
        return flat;
    }
}

package dev.bookstore.ordering.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How the engine is told from a connection, and how each engine's driver takes an id and a point in time: the
 * bindings every dialect and every integration test's own SQL go through.
 */
class DatabaseTest {

    private static final Instant AT = Instant.parse("2026-03-29T01:30:00.123456Z");

    /** The product name each engine's driver reports; every engine is listed. */
    private static final Map<Database, String> PRODUCT_NAMES = Map.of(
            Database.POSTGRESQL, "PostgreSQL",
            Database.SQL_SERVER, "Microsoft SQL Server",
            Database.MARIADB, "MariaDB");

    @Test
    void theEngineIsToldFromTheProductNameTheDriverReports() throws Exception {
        assertThat(Database.of(connectionTo("PostgreSQL"))).isEqualTo(Database.POSTGRESQL);
        assertThat(Database.of(connectionTo("Microsoft SQL Server"))).isEqualTo(Database.SQL_SERVER);
        assertThat(Database.of(connectionTo("MariaDB"))).isEqualTo(Database.MARIADB);
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void everyEngineIsToldFromItsDriversProductName(Database database) throws Exception {
        assertThat(PRODUCT_NAMES).as("a product name for %s", database).containsKey(database);
        assertThat(Database.of(connectionTo(PRODUCT_NAMES.get(database)))).isEqualTo(database);
    }

    @Test
    void anEngineWithoutDialectsFailsNamingItInsteadOfPassingForAnother() {
        // MySQL is not MariaDB: its driver reports its own name, and it has no native uuid type for the schema.
        for (String product : new String[] {"MySQL", "H2", "Oracle"}) {
            assertThatIllegalStateException().isThrownBy(() -> Database.of(connectionTo(product)))
                    .withMessageContaining(product)
                    .withMessageContaining("PostgreSQL, Microsoft SQL Server and MariaDB");
        }
    }

    @Test
    void eachEngineBindsAnIdAsItsDriverExpects() {
        UUID id = UUID.randomUUID();

        assertThat(Database.POSTGRESQL.id(id)).isSameAs(id);
        assertThat(Database.SQL_SERVER.id(id)).isEqualTo(id.toString());
        assertThat(Database.MARIADB.id(id)).isEqualTo(id.toString());
    }

    @Test
    void eachEngineBindsADelayInMillisecondsAsItsDateArithmeticTakesIt() {
        assertThat(Database.POSTGRESQL.milliseconds(Duration.ofSeconds(90))).isEqualTo(90_000L);
        assertThat(Database.SQL_SERVER.milliseconds(Duration.ofSeconds(90))).isEqualTo(90_000);
        assertThat(Database.MARIADB.milliseconds(Duration.ofSeconds(90))).isEqualTo(90_000L);
        // SQL Server's DATEADD takes an int: a longer delay is cut to the longest it takes, never wrapped around.
        assertThat(Database.SQL_SERVER.milliseconds(Duration.ofDays(30))).isEqualTo(Integer.MAX_VALUE);
        assertThat(Database.POSTGRESQL.milliseconds(Duration.ofDays(30))).isEqualTo(Duration.ofDays(30).toMillis());
        assertThat(Database.MARIADB.milliseconds(Duration.ofDays(30))).isEqualTo(Duration.ofDays(30).toMillis());
    }

    @Test
    void eachEngineBindsAPointInTimeAsItsTimeColumnsTakeIt() {
        OffsetDateTime utc = OffsetDateTime.of(2026, 3, 29, 1, 30, 0, 123_456_000, ZoneOffset.UTC);

        assertThat(Database.POSTGRESQL.timestamp(AT)).isEqualTo(utc);
        assertThat(Database.SQL_SERVER.timestamp(AT)).isEqualTo(utc);
        // datetime(6) has no zone: the UTC wall clock, never the JVM's.
        assertThat(Database.MARIADB.timestamp(AT)).isEqualTo(LocalDateTime.of(2026, 3, 29, 1, 30, 0, 123_456_000));
    }

    @Test
    void mariaDbTimesAreTheUtcWallClockWhateverTheJvmsZone() throws Exception {
        TimeZone jvmZone = TimeZone.getDefault();
        try {
            // Two hours ahead of UTC on that day: a conversion through the JVM's zone would move the wall clock.
            TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
            Object bound = Database.MARIADB.timestamp(AT);

            assertThat(bound).isEqualTo(LocalDateTime.of(2026, 3, 29, 1, 30, 0, 123_456_000));
            assertThat(Database.MARIADB.instant(resultSetOf(bound), 1)).isEqualTo(AT);
        } finally {
            TimeZone.setDefault(jvmZone);
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void aPointInTimeReadsBackAsItWasBoundToTheMicrosecond(Database database) throws Exception {
        assertThat(database.instant(resultSetOf(database.timestamp(AT)), 1)).isEqualTo(AT);
        assertThat(database.instant(resultSetOf(null), 1)).as("SQL NULL").isNull();
    }

    /** A connection that only names its database. */
    static Connection connectionTo(String productName) {
        ClassLoader loader = DatabaseTest.class.getClassLoader();
        DatabaseMetaData metaData = (DatabaseMetaData) Proxy.newProxyInstance(loader,
                new Class<?>[] {DatabaseMetaData.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getDatabaseProductName" -> productName;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (Connection) Proxy.newProxyInstance(loader, new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getMetaData" -> metaData;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /**
     * A result set of one column holding {@code value} as the driver holds it: asked for that value's class it
     * returns it, asked for another class it fails, as a driver does when a time is read as the wrong type.
     */
    private static ResultSet resultSetOf(Object value) {
        ClassLoader loader = DatabaseTest.class.getClassLoader();
        return (ResultSet) Proxy.newProxyInstance(loader, new Class<?>[] {ResultSet.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("getObject") || args.length != 2 || !args[0].equals(1)) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    Class<?> type = (Class<?>) args[1];
                    if (value == null) {
                        return null;
                    }
                    if (!type.isInstance(value)) {
                        throw new SQLException("column 1 holds a " + value.getClass().getSimpleName()
                                + ", not a " + type.getSimpleName());
                    }
                    return value;
                });
    }
}
